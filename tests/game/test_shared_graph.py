"""What a Graph shared by many games keeps: a long-running service makes Games and analyses on
one Graph for hours, and the graph must not grow with their number.  A Game's own objects
(its rules, their Board, what its analyses' queries make) live as long as the Game does."""

from __future__ import annotations

import gc

import pytest

from catmouse import Game, Graph, Outcome
from catmouse.rules import Rules

EXAMPLE = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]

# Queries that read the remoteness as int32 rows from the planes (through numpy, where the
# nodes each mover is stuck on are kept between calls).
READS = {
    "remoteness_table": lambda analysis: analysis.remoteness_table,
    "to_json": lambda analysis: analysis.to_json(),
    "verify": lambda analysis: analysis.verify(),
}


def live_rules() -> int:
    gc.collect()
    return sum(1 for thing in gc.get_objects() if type(thing) is Rules)


@pytest.mark.parametrize("draw", [Outcome.DRAW, Outcome.MOUSE_WIN])
@pytest.mark.parametrize("read", list(READS))
def test_games_on_one_graph_leave_nothing_on_it(use_engine, read, draw):
    # The stuck nodes were kept in the mouse graph's cache keyed by the rules: every Game
    # made on the graph, its rules and their Board, stayed as long as the graph (2.4 KB a
    # Game, two cache entries each).
    pytest.importorskip("numpy")
    graph = Graph(EXAMPLE)
    READS[read](Game(graph, holes=(0,), draw=draw).analyze())  # (the graph's own caches)
    kept, rules = len(graph._cache), live_rules()
    for _ in range(20):
        READS[read](Game(graph, holes=(0,), draw=draw).analyze())
    assert len(graph._cache) == kept
    assert live_rules() == rules


def test_a_games_stuck_nodes_are_kept_while_it_lives(use_engine):
    # Kept on the rules instead: asked again, the same arrays, not made again.
    pytest.importorskip("numpy")
    from catmouse.io.plane_rows import _stuck

    rules = Game([[1, 2], [0], [0]], holes=(0,))._rules  # a star: its leaves lead home only
    mouse, cat = _stuck(rules, 0), _stuck(rules, 1)
    assert _stuck(rules, 0) is mouse and _stuck(rules, 1) is cat
    assert mouse.tolist() == [False, False, False]
    assert cat.tolist() == [False, True, True]  # a leaf's one move enters the hole
