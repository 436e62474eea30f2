"""Small surprises a new user meets in the first hour."""

from __future__ import annotations

import pickle
import subprocess
import sys

import pytest

import catmouse
from catmouse import Game, Outcome, Turn
from catmouse.cli.commands import main

EXAMPLE = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]
SQUARE = [[1, 3], [0, 2], [1, 3], [0, 2]]


def test_print_an_outcome_shows_its_name():
    done = subprocess.run(
        [sys.executable, "-c",
         "import catmouse; print(catmouse.solve([[1, 3], [0], [3], [0, 2]]))"],
        capture_output=True, text=True, check=True,
    )
    assert done.stdout == "MOUSE_WIN\n"
    assert str(Outcome.DRAW) == "DRAW" and f"{Outcome.CAT_WIN}" == "CAT_WIN"
    assert repr(Outcome.MOUSE_WIN) == "<Outcome.MOUSE_WIN: 1>"
    assert f"{Outcome.CAT_WIN:d}" == "2" and Outcome.CAT_WIN == 2
    assert str(Turn.CAT) == "CAT" and f"{Turn.MOUSE}" == "MOUSE"
    assert f"{Turn.CAT:d}" == "1" and f"{Turn.MOUSE:02}" == "00"
    assert Turn.MOUSE.other is Turn.CAT and Turn.CAT.other is Turn.MOUSE
    assert str(Turn.CAT) == "CAT"


def test_game_analysis_line_starts_with_the_games_first_mover(use_engine):
    game = Game(SQUARE, holes=(), first=Turn.CAT)
    analysis = game.analyze()
    assert analysis.first == Turn.CAT
    line = analysis.line(0, 2)
    assert line[0] == (0, 2, Turn.CAT)
    assert line == analysis.line(0, 2, Turn.CAT)
    assert analysis.outcome(0, 2) == game.solve(0, 2)
    assert analysis.remoteness(0, 2) == analysis.remoteness(0, 2, Turn.CAT)
    assert analysis.best_moves(0, 2) == analysis.best_moves(0, 2, Turn.CAT)
    # Kept through a pickle; the classic game still starts with the mouse.
    assert pickle.loads(pickle.dumps(analysis)).line(0, 2) == line
    assert catmouse.analyze(EXAMPLE).line()[0] == (1, 2, Turn.MOUSE)


def test_solve_and_game_solve_take_the_starts_the_same_way(use_engine):
    game = Game(EXAMPLE)
    for mouse, cat in [(3, 4), (1, 2), (5, 3)]:
        assert catmouse.solve(EXAMPLE, mouse, cat) == game.solve(mouse, cat)
        assert catmouse.solve(EXAMPLE, mouse=mouse, cat=cat) == game.solve(mouse=mouse, cat=cat)
    with pytest.raises(TypeError):
        catmouse.solve(EXAMPLE, 3, 4, 0)  # the hole stays keyword-only


def test_per_turn_views_without_numpy():
    analysis = catmouse.analyze(EXAMPLE)
    n = analysis.n
    for turn in Turn:
        outcomes = analysis.outcomes_for(turn)
        remoteness = analysis.remoteness_for(turn)
        assert outcomes.shape == remoteness.shape == (n, n)
        assert outcomes.readonly and remoteness.readonly
        for mouse in range(n):
            for cat in range(1, n):
                assert outcomes[mouse, cat] == analysis.outcome(mouse, cat, turn)
                plies = analysis.remoteness(mouse, cat, turn)
                assert remoteness[mouse, cat] == (-1 if plies is None else plies)
        assert outcomes.tolist() == analysis.outcomes.tolist()[turn]
    with pytest.raises(ValueError, match="turn must be"):
        analysis.outcomes_for(2)
    assert analysis.outcomes[1, 3, 4] == Outcome.CAT_WIN


def test_utf8_bom_and_stdin(tmp_path, capsys):
    path = tmp_path / "bom.json"
    path.write_bytes("\ufeff[[1, 3], [0], [3], [0, 2]]".encode())
    assert main(["solve", str(path)]) == 0
    assert "the mouse wins" in capsys.readouterr().out
    edges = tmp_path / "bom.edges"
    edges.write_bytes("\ufeff0 1\n1 2\n2 3\n3 0\n".encode())
    assert main(["solve", str(edges), "--mouse", "1", "--cat", "3"]) == 0
    capsys.readouterr()
    done = subprocess.run([sys.executable, "-m", "catmouse", "solve", "-"],
                          input="\ufeff[[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]",
                          capture_output=True, text=True, encoding="utf-8")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("<stdin>: graph of 6 nodes and 7 edges")
    assert "a draw" in done.stdout


def test_analyze_counts_add_up_to_the_positions_it_names(tmp_path, capsys):
    out = tmp_path / "t.json"
    assert main(["analyze", "-", "-o", str(out)]) == 1  # empty stdin: an error, not a crash
    capsys.readouterr()
    path = tmp_path / "g.json"
    path.write_text(str(EXAMPLE))
    assert main(["analyze", str(path), "-o", str(out)]) == 0
    line = capsys.readouterr().out
    counts = catmouse.analyze(EXAMPLE).counts()
    total = sum(counts.values())
    assert total == 60
    assert f"{total} positions" in line and "72 positions" not in line
    for number in counts.values():
        assert f"{number}" in line


def test_one_edge_is_singular(tmp_path, capsys):
    path = tmp_path / "one.edges"
    path.write_text("0 1\n")
    assert main(["solve", str(path), "--mouse", "1", "--cat", "1"]) == 0
    out = capsys.readouterr().out
    assert "graph of 2 nodes and 1 edge\n" in out
    assert repr(catmouse.Graph([[1], [0]])) == "<Graph 2 nodes, 1 edge>"
