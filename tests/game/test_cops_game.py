"""CopsGame and CopsAnalysis: the k-cops tables read through labels, moves, lines, verify."""

from __future__ import annotations

import random

import networkx as nx
import pytest
from cops_oracle import COPS, ROBBER, solve_cops

from catmouse import Graph, Outcome, Turn, VerificationError, cop_number, is_cop_win
from catmouse.cops.game import CopsAnalysis, CopsGame

TURNS = {ROBBER: Turn.MOUSE, COPS: Turn.CAT}


def random_connected(rng: random.Random, n: int) -> nx.Graph:
    while True:
        g = nx.gnp_random_graph(n, rng.uniform(0.2, 0.7), seed=rng.randrange(10**6))
        if nx.is_connected(g):
            return g


def test_the_analysis_reads_the_oracle_through_labels(use_engine):
    rng = random.Random(5)
    for _ in range(12):
        g = random_connected(rng, rng.randint(2, 6))
        k = rng.randint(1, 2)
        names = {u: f"n{u}" for u in g}
        analysis = CopsGame(nx.relabel_nodes(g, names), cops=k).analyze()
        adjacency = [sorted(g[u]) for u in range(len(g))]
        for (team, robber, turn), value in solve_cops(adjacency, k).items():
            cops = [names[u] for u in team]
            t = TURNS[turn]
            assert analysis.outcome(cops, names[robber], t) == (
                Outcome.CAT_WIN if value is not None else Outcome.MOUSE_WIN)
            assert analysis.remoteness(cops, names[robber], t) == value
        assert analysis.verify()


def test_winning_starts_and_the_cop_number(use_engine):
    rng = random.Random(8)
    for _ in range(10):
        g = random_connected(rng, rng.randint(3, 7))
        c = cop_number(g)
        for k in (1, 2):
            starts = CopsGame(g, k).analyze().winning_starts()
            assert bool(starts) == (k >= c)
        assert is_cop_win(g) == bool(CopsGame(g, 1).analyze().winning_starts())


def test_the_teams_are_listed_when_a_query_needs_them():
    """analyze returns without the list of teams (one thread's Python, as long as the search on
    two threads on the 6-cube with 3 cops); the first query builds it, in the engine's order."""
    a = CopsGame(nx.hypercube_graph(3), 2).analyze()
    assert "_teams" not in a.__dict__
    assert a.winning_starts()  # (the 3-cube's cop number is 2)
    assert "_teams" in a.__dict__
    assert a._teams == sorted(a._teams, key=lambda team: team[::-1])  # colex, as the engine
    assert len(a._teams) == 8 * 9 // 2


def test_lines_end_in_capture_at_the_remoteness():
    petersen = nx.petersen_graph()
    analysis = CopsGame(petersen, cops=3).analyze()
    start = analysis.winning_starts()[0]
    for robber in petersen:
        line = analysis.line(start, robber)
        assert len(line) - 1 == analysis.remoteness(start, robber)
        cops, caught, _ = line[-1]
        assert caught in cops
    # Two cops never catch him: his best moves keep him free, and the line repeats.
    two = CopsGame(petersen, cops=2).analyze()
    assert two.winning_starts() == []
    for move in two.best_moves((0, 1), 7, Turn.MOUSE):
        assert two.outcome((0, 1), move, Turn.CAT) == Outcome.MOUSE_WIN
    line = two.line((0, 1), 7)
    assert all(robber not in cops for cops, robber, _ in line)


def test_best_moves_of_the_cops_are_teams():
    path = Graph([[1], [0, 2], [1, 3], [2]])
    analysis = CopsGame(path, cops=1).analyze()
    assert analysis.best_moves([0], 3) == [(1,)]
    assert analysis.best_moves([3], 3) == []
    # Both capture at once; the cop on 3 may stay, so (1, 3) comes first.
    assert CopsGame(path, cops=2).analyze().best_moves((0, 3), 1) == [(1, 3), (1, 2)]


def test_the_cops_best_moves_keep_most_of_the_team_first():
    """Seen drawn: the capture sent every cop onto the robber ("1, 4, 5 -> 0, 0, 0")."""
    from collections import Counter

    analysis = CopsGame(nx.petersen_graph(), cops=3).analyze()
    assert analysis.line((1, 4, 5), 0)[1][0] == (0, 1, 4)  # one cop moves: cop 5 to 0
    for team, robber in (((1, 4, 5), 7), ((0, 0, 0), 7), ((2, 6, 8), 0)):
        moves = analysis.best_moves(team, robber)
        kept = [sum((Counter(m) & Counter(team)).values()) for m in moves]
        assert kept == sorted(kept, reverse=True)
        for a in range(len(moves) - 1):
            assert kept[a] > kept[a + 1] or moves[a] < moves[a + 1]  # ties in tuple order


def test_verify_finds_a_wrong_table():
    analysis = CopsGame(nx.cycle_graph(5), cops=2).analyze()
    outcomes = bytearray(analysis._outcomes)
    outcomes[7] ^= 3  # CAT_WIN <-> MOUSE_WIN
    broken = CopsAnalysis(analysis.game, bytes(outcomes), analysis._remoteness.tobytes())
    with pytest.raises(VerificationError, match="moves give"):
        broken.verify()


def test_refusals():
    with pytest.raises(ValueError, match="undirected"):
        CopsGame(Graph([[1], []], directed=True))
    with pytest.raises(ValueError, match="at most 1024"):
        CopsGame(nx.cycle_graph(1025))
    with pytest.raises(ValueError, match="1 to 16"):
        CopsGame(nx.cycle_graph(5), cops=0)
    analysis = CopsGame(nx.cycle_graph(5), cops=2).analyze()
    with pytest.raises(ValueError, match="2 cops, got 1"):
        analysis.outcome([0], 3)
    with pytest.raises(ValueError, match="robber=9 is not a node"):
        analysis.outcome([0, 1], 9)
    with pytest.raises(MemoryError, match="more than the 1,000 allowed by max_memory"):
        CopsGame(nx.cycle_graph(5), cops=2).analyze(max_memory=1000)
    assert repr(CopsGame(nx.cycle_graph(5), cops=2)) == "CopsGame(<5 nodes>, cops=2)"


def test_export_json_and_csv(tmp_path):
    import csv
    import json

    game = CopsGame(nx.relabel_nodes(nx.cycle_graph(4), dict(enumerate("abcd"))), cops=1)
    analysis = game.analyze()
    data = json.loads(analysis.to_json())
    assert data["labels"] == ["a", "b", "c", "d"] and data["winning_starts"] == []
    assert data["outcomes"][1][0] == [2, 2, 1, 2]  # the cop on a: c escapes him
    assert data["remoteness"][1][0] == [0, 1, -1, 1]
    analysis.save(tmp_path / "t.json")
    assert json.loads((tmp_path / "t.json").read_text()) == data
    analysis.save(tmp_path / "t.csv")
    rows = list(csv.DictReader((tmp_path / "t.csv").open()))
    assert len(rows) == 2 * 4 * 4
    assert rows[0] == {"cop1": "a", "robber": "a", "turn": "cops", "winner": "cops",
                       "remoteness": "0", "cop1_id": "0", "robber_id": "0"}
    row = next(r for r in rows if (r["cop1"], r["robber"], r["turn"]) == ("a", "c", "robber"))
    assert row["winner"] == "robber" and row["remoteness"] == ""
    with pytest.raises(ValueError, match=".json or .csv"):
        analysis.save(tmp_path / "t.npz")


def test_csv_has_a_column_per_cop_whatever_the_labels():
    """A team of labels holding spaces and commas reads back cop by cop (the team was one cell
    of labels joined by spaces, which a label "a b" made ambiguous)."""
    import csv
    import io

    from catmouse.cops.export import cops_csv

    labels = ["a b", "c,d", "e", 'f"']
    graph = nx.relabel_nodes(nx.cycle_graph(4), dict(enumerate(labels)))
    analysis = CopsGame(graph, cops=2).analyze()
    rows = list(csv.reader(io.StringIO(cops_csv(analysis))))
    assert rows[0] == ["cop1", "cop2", "robber", "turn", "winner", "remoteness", "cop1_id",
                       "cop2_id", "robber_id"]
    teams = {(row[0], row[1]) for row in rows[1:]}
    assert teams == {(labels[u], labels[v]) for u in range(4) for v in range(u, 4)}
    for row in rows[1:]:
        cops, robber = [labels.index(row[0]), labels.index(row[1])], labels.index(row[2])
        side = Turn.CAT if row[3] == "cops" else Turn.MOUSE
        winner = analysis.outcome(tuple(labels[c] for c in cops), labels[robber], side)
        assert row[4] == ("cops" if winner == Outcome.CAT_WIN else "robber")


def test_csv_cells_with_a_carriage_return_are_quoted():
    """A label "\r" went out bare (csv quotes only the line terminator's characters, and
    ours was "\n"): a reader ended the row there.  Found by hypothesis for Analysis CSV."""
    import csv
    import io

    import catmouse
    from catmouse.cops.export import cops_csv
    from catmouse.io.export import write_csv

    labels = ["", "\r", "a\r\nb"]
    graph = nx.relabel_nodes(nx.path_graph(3), dict(enumerate(labels)))
    rows = list(csv.reader(io.StringIO(cops_csv(CopsGame(graph, cops=1).analyze()))))
    assert len(rows) == 1 + 2 * 3 * 3 and {row[1] for row in rows[1:]} == set(labels)
    out = io.StringIO()
    write_csv(catmouse.analyze(graph, hole=""), out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert {row["mouse_label"] for row in rows} == set(labels)


def test_best_start_ties_go_to_the_first_team():
    # On a cycle of five one cop never catches the robber: every team ties, the first wins.
    analysis = CopsGame(nx.cycle_graph(5), cops=1).analyze()
    assert analysis.winning_starts() == []
    assert analysis.best_start()[0] == (0,)


def test_the_json_tables_are_every_position_by_turn_team_and_robber():
    import json

    game = CopsGame(nx.path_graph(4), cops=1)
    analysis = game.analyze()
    data = json.loads(analysis.to_json())
    assert data["teams"] == [[0], [1], [2], [3]]
    for t, turn in enumerate(Turn):
        for row, team in enumerate(data["teams"]):
            for robber in range(4):
                expected = analysis.outcome(tuple(team), robber, turn)
                assert data["outcomes"][t][row][robber] == expected, (turn, team, robber)
                assert data["remoteness"][t][row][robber] == analysis.remoteness(
                    tuple(team), robber, turn)


def _saved_with_peak(analysis, path):
    """``analysis.save(path)``'s text and the peak of Python's allocations while it ran."""
    import tracemalloc

    tracemalloc.start()
    try:
        analysis.save(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return path.read_text(encoding="utf-8"), peak


@pytest.mark.parametrize("suffix", [".csv", ".json"])
def test_save_writes_a_block_at_a_time(tmp_path, suffix):
    """save built the whole text first (a CSV's peak was twice the file: 74 MB for Q5 with
    3 cops); it writes pieces of about 64K characters now, the same bytes as the text."""
    import json

    from catmouse.cops.export import cops_csv, cops_dict

    # CSV: 33,792 rows of about 40 characters; JSON: 180,000 positions in the two tables.
    graph = nx.hypercube_graph(5) if suffix == ".csv" else nx.cycle_graph(300)
    analysis = CopsGame(graph, cops=2 if suffix == ".csv" else 1).analyze()
    path = tmp_path / f"t{suffix}"
    text, peak = _saved_with_peak(analysis, path)
    if suffix == ".csv":
        assert text == cops_csv(analysis)
    else:
        assert text == json.dumps(cops_dict(analysis), separators=(",", ":")) + "\n"
        assert text == analysis.to_json() + "\n"
    assert len(text) > 700_000 and peak < len(text) / 3, (len(text), peak)


def test_save_csv_pieces_stay_small_when_a_label_is_long(tmp_path):
    """A piece was a whole team's rows (2n lines, each holding the team's labels): one long
    label made a piece of megabytes, more than the old writer's text for the team; a piece
    is cut at about 64K characters within a team too."""
    from catmouse.cops.export import cops_csv

    graph = nx.relabel_nodes(nx.path_graph(60), {0: "x" * 50_000})
    analysis = CopsGame(graph, cops=1).analyze()
    path = tmp_path / "t.csv"
    text, peak = _saved_with_peak(analysis, path)
    assert text == cops_csv(analysis)
    assert len(text) > 10_000_000 and peak < len(text) / 10, (len(text), peak)
