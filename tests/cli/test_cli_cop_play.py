"""``catmouse cop-play``: the terminal game of k cops and a robber, against perfect play."""

from __future__ import annotations

import io
import sys

import pytest

from catmouse.cli.commands import main

PETERSEN = "IheA@GUAo\n"


def play(capsys, monkeypatch, tmp_path, typed: str, *options: str):
    path = tmp_path / "g.g6"
    path.write_text(PETERSEN)
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    code = main(["cop-play", str(path), *options])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_robber_is_caught_by_perfect_cops(capsys, monkeypatch, tmp_path):
    # Whatever the robber types, three cops catch him; give him plenty of legal moves.
    code, out, _ = play(capsys, monkeypatch, tmp_path, "7\n" + "7\n" * 20)
    assert code == 0
    assert "3 cops against a robber on 10 nodes; you play the robber." in out
    assert out.rstrip().endswith("the cops win")


def test_illegal_moves_are_asked_again(capsys, monkeypatch, tmp_path):
    code, out, _ = play(capsys, monkeypatch, tmp_path, "x\n7\nq\n")
    assert "'x' is not a node" in out
    assert out.rstrip().endswith("stopped")


def test_playing_the_cops(capsys, monkeypatch, tmp_path):
    code, out, _ = play(capsys, monkeypatch, tmp_path, "0 0\n0 0 0\n", "--as", "cops")
    assert "give 3 nodes, one per cop" in out
    assert "the robber starts on" in out
    # Two cops never catch him: the game stops after --max-plies with an escape.
    code, out, _ = play(capsys, monkeypatch, tmp_path, "0 1\n" + "0 1\n" * 10, "--as", "cops",
                        "--cops", "2", "--max-plies", "6")
    assert out.rstrip().endswith("the robber escapes forever from here")


def test_a_team_move_must_follow_edges(capsys, monkeypatch, tmp_path):
    code, out, _ = play(capsys, monkeypatch, tmp_path, "0 0 0\n7 7 7\nq\n", "--as", "cops")
    assert "not a team move" in out


@pytest.mark.parametrize("typed", ["", "q\n"])
def test_end_of_input_stops(capsys, monkeypatch, tmp_path, typed):
    assert play(capsys, monkeypatch, tmp_path, typed)[1].rstrip().endswith("stopped")


def test_a_graph_without_nodes_is_refused_in_one_line(capsys, tmp_path):
    """Its cop number, the default team, is 0: say what is wrong, not "0 cops"."""
    path = tmp_path / "empty.json"
    path.write_text("[]")
    assert main(["cop-play", str(path)]) != 0
    err = capsys.readouterr().err
    assert err.strip().endswith("the graph has no nodes: there is no game to play")
    assert len(err.strip().splitlines()) == 1
