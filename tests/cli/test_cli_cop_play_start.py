"""``catmouse cop-play``: one start with the page and the notebook, help at every prompt, the
page's limit before any solving, and its options checked."""

from __future__ import annotations

import io
import json
import re
import sys

import networkx as nx
import pytest

import catmouse.cli.cop_play as cop_play
from catmouse import CopsGame
from catmouse.cli.commands import main
from catmouse.show.cops_page import cops_data


def grid_file(tmp_path, side=4):
    graph = nx.convert_node_labels_to_integers(nx.grid_2d_graph(side, side))
    path = tmp_path / "grid.edges"
    path.write_text("".join(f"{u} {v}\n" for u, v in graph.edges))
    return graph, path


def play(capsys, monkeypatch, typed, *argv):
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    code = main(["cop-play", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_terminal_starts_the_cops_where_the_page_does(use_engine, capsys, monkeypatch,
                                                          tmp_path):
    graph, path = grid_file(tmp_path)
    code, out, _ = play(capsys, monkeypatch, "q\n", path)
    assert code == 0
    terminal = tuple(int(w) for w in re.search(r"the cops start on ([\d ]+)\n", out)[1].split())
    analysis = CopsGame(graph, 2).analyze()
    data = cops_data(analysis)
    page = tuple(data["teams"][data["start"]])
    assert terminal == page == analysis.best_start()[0]
    assert terminal != analysis.winning_starts()[0]  # the old start, (0, 0), differed


@pytest.mark.parametrize("typed, side", [("?\nq\n", "robber"), ("?\nq\n", "cops"),
                                         ("3\n?\nq\n", "robber"), ("0\n?\nq\n", "cops")])
def test_a_question_mark_is_help_at_every_prompt(capsys, monkeypatch, tmp_path, typed, side):
    path = tmp_path / "c6.edges"  # one cop never catches the robber on a 6-cycle
    path.write_text("".join(f"{u} {(u + 1) % 6}\n" for u in range(6)))
    code, out, _ = play(capsys, monkeypatch, typed, path, "--as", side, "--cops", "1")
    assert code == 0 and out.rstrip().endswith("stopped")
    assert "is not a node" not in out and "give 1 nodes" not in out
    assert out.count("q stops") == 1


@pytest.mark.parametrize("plies", ["-5", "0"])
def test_max_plies_below_one_is_refused(capsys, monkeypatch, tmp_path, plies):
    _, path = grid_file(tmp_path, 3)
    code, out, err = play(capsys, monkeypatch, "", path, "--max-plies", plies)
    assert code == 1 and out == ""
    # An option's range is about no file: said without one.
    assert err.strip() == f"catmouse: error: --max-plies must be at least 1, not {plies}"


@pytest.mark.parametrize("cops", [None, "4"])
def test_the_page_limit_is_checked_before_any_solving(capsys, monkeypatch, tmp_path, cops):
    path = tmp_path / "q6.edges"
    q6 = nx.convert_node_labels_to_integers(nx.hypercube_graph(6))
    path.write_text("".join(f"{u} {v}\n" for u, v in q6.edges))

    def solved(*args, **kwargs):
        raise AssertionError("solved a game the page cannot show")
    monkeypatch.setattr(CopsGame, "analyze", solved)
    real = cop_play.cop_number
    monkeypatch.setattr(cop_play, "cop_number",
                        lambda graph, max_cops=None: real(graph, max_cops=max_cops)
                        if max_cops is not None and max_cops <= 1 else solved())
    extra = [] if cops is None else ["--cops", cops]
    code, out, err = play(capsys, monkeypatch, "", path, "--html", tmp_path / "x.html", *extra)
    assert code == 1 and not (tmp_path / "x.html").exists()
    assert "more than the page's 60,000; play in the terminal" in err
    assert ("4 cops on 64 nodes: 49,054,720 positions" if cops else
            "its cop number is at least 2, and the page of 2 cops is too big: 2 cops on 64 "
            "nodes") in err


@pytest.mark.parametrize("cops", ["0", "17"])
def test_a_cops_option_out_of_range_is_said_as_an_option(capsys, monkeypatch, tmp_path, cops):
    # It said "grid.edges: the number of cops must be 1 to 16, not 0", about the file.
    _, path = grid_file(tmp_path, 3)
    code, out, err = play(capsys, monkeypatch, "", path, "--cops", cops)
    assert (code, out) == (1, "")
    assert err == f"catmouse: error: --cops must be 1 to 16, not {cops}\n"


def test_a_cop_number_past_a_game_says_so(capsys, monkeypatch, tmp_path):
    # 20 isolated nodes need 20 cops: it said "the number of cops must be 1 to 16, not 20", a
    # number the user never gave.
    path = tmp_path / "dots.json"
    path.write_text(json.dumps([[] for _ in range(20)]))
    code, out, err = play(capsys, monkeypatch, "", path)
    assert (code, out) == (1, "")
    assert err == (f"catmouse: error: {path}: its cop number is 20, and a game takes at most 16 "
                   "cops: give --cops\n")


def test_a_directed_graph_is_refused_for_the_game(capsys, monkeypatch, tmp_path):
    # It said "the cop number needs an undirected graph", asked for by no one.
    path = tmp_path / "dn.json"
    path.write_text(json.dumps(nx.node_link_data(nx.DiGraph([(0, 1), (1, 2)]), edges="links")))
    code, out, err = play(capsys, monkeypatch, "", path)
    assert (code, out, err) == (1, "", f"catmouse: error: {path}: cops and robber needs an "
                                       "undirected graph\n")
