"""``catmouse cop-play``: the terminal game of k cops and a robber, against perfect play."""

from __future__ import annotations

import io
import os
import re
import select
import subprocess
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
    code, out, _ = play(capsys, monkeypatch, tmp_path, "x\nq\n")
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


def test_one_cop_is_asked_for_in_the_singular(capsys, monkeypatch, tmp_path):
    """One cop's player was asked for "your 1 start nodes:" and told "give 1 nodes"."""
    code, out, _ = play(capsys, monkeypatch, tmp_path, "0 1\n0\nq\n", "--as", "cops",
                        "--cops", "1")
    assert "your start node:" in out and "give one node" in out
    assert "1 start nodes" not in out and "1 nodes" not in out


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


def test_the_robber_is_shown_the_cops_start_and_asked_for_his(capsys, monkeypatch, tmp_path):
    code, out, _ = play(capsys, monkeypatch, tmp_path, "q\n")
    assert re.search(r"\nthe cops start on \d \d \d\nyour start: ", out), out


def test_too_few_cops_start_on_the_best_start(capsys, monkeypatch, tmp_path):
    # Two cops have no winning start on the Petersen graph (it needs three): they start
    # where the page and the notebook start them, best_start() (0.2.0 said "0 0").
    from catmouse import CopsGame, read_graph6

    code, out, _ = play(capsys, monkeypatch, tmp_path, "q\n", "--cops", "2")
    best = CopsGame(next(read_graph6(io.StringIO(PETERSEN))), 2).analyze().best_start()[0]
    assert f"\nthe cops start on {' '.join(map(str, best))}\n" in out


def test_every_cop_of_a_team_move_must_follow_an_edge(capsys, monkeypatch, tmp_path):
    # From 0 and 0, the first cop to 1 is legal, the second to 7 is not.
    code, out, _ = play(capsys, monkeypatch, tmp_path, "0 0\n1 7\nq\n", "--as", "cops",
                        "--cops", "2")
    assert "not a team move" in out and out.rstrip().endswith("stopped")


def test_html_writes_the_page_to_play_in_a_browser(capsys, tmp_path):
    path = tmp_path / "g.g6"
    path.write_text(PETERSEN)
    page = tmp_path / "play.html"
    assert main(["cop-play", str(path), "--html", str(page)]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {page}: open it in a browser")
    text = page.read_text(encoding="utf-8")
    assert '<svg id="board"' in text and 'data-node="9"' in text


@pytest.mark.skipif(os.name != "posix", reason="select on a pipe")
def test_the_prompt_reaches_a_pipe_before_the_answer_is_typed(tmp_path):
    # Through a pipe stdout is block-buffered: the prompt must be flushed to be seen.
    path = tmp_path / "g.g6"
    path.write_text(PETERSEN)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    child = subprocess.Popen([sys.executable, "-m", "catmouse", "cop-play", str(path)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    try:
        seen = b""
        while b"your start:" not in seen:
            ready, _, _ = select.select([child.stdout], [], [], 60)
            assert ready, f"no prompt while the game waits for input: {seen!r}"
            chunk = os.read(child.stdout.fileno(), 4096)
            assert chunk, f"the game ended without asking: {seen!r}"
            seen += chunk
    finally:
        child.communicate(b"q\n", timeout=120)


def _play_file(capsys, monkeypatch, path, typed, *options):
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    code = main(["cop-play", str(path), *options])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_capture_on_the_last_ply_is_a_capture(capsys, monkeypatch, tmp_path):
    # The loop looked for a capture before each ply only: the cops' move onto the robber on
    # ply --max-plies was "1 plies and no capture".
    path = tmp_path / "p3.edges"
    path.write_text("a b\nb c\n")
    code, out, _ = _play_file(capsys, monkeypatch, path, "a\n", "--max-plies", "1")
    assert code == 0 and out.rstrip().endswith("the cops move to a\ncaptured on a: the cops win")
    code, out, _ = _play_file(capsys, monkeypatch, path, "a\na\n", "--as", "cops", "--max-plies",
                              "1")
    assert code == 0 and out.rstrip().endswith("1 ply and no capture")


def test_an_edge_lists_missing_node_is_a_note(capsys, monkeypatch, tmp_path):
    # cop-play printed Python's own UserWarning, with its file and line; the others a note.
    path = tmp_path / "c4.edges"
    path.write_text("1 2\n2 3\n3 4\n4 1\n")
    code, _, err = _play_file(capsys, monkeypatch, path, "q\n", "--cops", "1")
    assert code == 0
    assert err.startswith("catmouse: note: the edge list names no node 0") and "Warning" not in err
    assert len(err.splitlines()) == 1


def test_one_cop_on_one_node_is_said_in_the_singular(capsys, monkeypatch, tmp_path):
    # It said "1 cop against a robber on 1 nodes" (the team was right, the graph not).
    path = tmp_path / "one.g6"
    path.write_text("@\n")  # graph6 of the one-node graph
    monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
    main(["cop-play", str(path), "--as", "cops"])
    assert "1 cop against a robber on 1 node; you play the cops." in capsys.readouterr().out
