"""The README's and the tutorial's labelled examples, typed: ``mypy --strict`` passes on this file
(the nox session "lint" checks it), so node arguments take labels as the docs say.

It also runs (tests/typing/test_labelled_examples.py), so the examples stay true.
"""

from __future__ import annotations

import io
from collections.abc import Hashable

import networkx as nx

import catmouse
from catmouse import Analysis, Game, Graph, GraphFile, Outcome, Turn


def labelled_examples() -> list[object]:
    """Every labelled call of the docs, with a string-labelled graph and networkx's own."""
    # A mapping {node: neighbours} is a graph; its keys, in order, are the nodes.
    roads: dict[str, list[str]] = {
        "exit": ["x", "z"], "x": ["exit", "y"], "y": ["x", "z", "den"],
        "z": ["y", "exit"], "den": ["y"],
    }
    G = Graph(roads)
    nodes: tuple[Hashable, ...] = G.nodes
    edges: tuple[tuple[Hashable, Hashable], ...] = G.edges
    found: list[object] = [nodes, edges, "x" in G, list(G), len(G)]

    # Starts and holes by label (docs/tutorial.rst, "Graphs").
    outcome: Outcome = catmouse.solve(G, "x", "y", hole="exit")
    game = Game(G, holes=["exit"], cat_goals=["den"])
    one_hole = Game(G, hole="exit")
    analysis: Analysis = catmouse.analyze(G, hole="exit")
    found += [outcome, game.solve("x", "z"), one_hole.holes,
              analysis.outcome("x", "y"), analysis.remoteness("x", "y", Turn.CAT),
              analysis.best_moves("x", "y"), analysis.line("x", "y"), G.neighbors("y")]

    # networkx graphs, passed as they are (the README's tour, first_hour.ipynb).
    petersen = nx.relabel_nodes(nx.petersen_graph(), dict(enumerate("abcdefghij")))
    found += [catmouse.solve(petersen, "b", "c", hole="a"),
              catmouse.solve_many([petersen], mouse="b", cat="c", hole="a"),
              catmouse.draw(petersen, mouse="b", cat="c", hole="a")[:4],
              catmouse.play_page(petersen, mouse="b", cat="c", hole="a")[:15],
              Graph.from_networkx(petersen).index("c"),
              Graph(petersen).to_networkx().number_of_nodes()]

    # What the readers return goes wherever a graph goes.
    read: GraphFile = catmouse.read_json(io.StringIO('{"graph": [[1, 2], [0], [0]], "hole": 0}'))
    found += [catmouse.solve(read), catmouse.cop_number(read), catmouse.is_cop_win(read),
              catmouse.analyze(read).outcome(), catmouse.MAX_NODES]
    return found


if __name__ == "__main__":
    for answer in labelled_examples():
        print(answer)
