"""catmouse cop-win on a graph6 file or stream of many graphs, as nauty's geng writes it."""

from __future__ import annotations

import io
import shutil
import subprocess
import sys

import pytest

import catmouse
from catmouse.cli.commands import main

GENG = shutil.which("geng") or shutil.which("nauty-geng")  # Debian names it nauty-geng


def cli(*argv, stdin=None):
    return subprocess.run([sys.executable, "-m", "catmouse", *map(str, argv)], input=stdin,
                          capture_output=True, text=True, timeout=120)


def test_a_multi_graph_file_gets_one_answer_per_graph_and_a_count(tmp_path, capsys):
    lines = ["Bw", "Ch", "C]", "C~"]  # triangle, path, 4-cycle (the robber escapes), K4
    path = tmp_path / "four.g6"
    path.write_text("\n".join(lines) + "\n")
    assert main(["cop-win", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    expected = [catmouse.is_cop_win(g) for g in catmouse.read_graph6(path)]
    assert expected == [True, True, False, True]
    for k, (line, win) in enumerate(zip(out, expected), 1):
        assert line.startswith(f"{path} graph {k}: {'cop-win' if win else 'not cop-win'}")
    assert out[4] == f"{path}: 4 graphs, 3 cop-win, 1 not"
    assert len(out) == 5


def test_one_graph_keeps_its_one_line(tmp_path, capsys):
    path = tmp_path / "one.g6"
    path.write_text("C]\n")
    assert main(["cop-win", str(path)]) == 0
    assert capsys.readouterr().out == f"{path}: not cop-win: the robber escapes one cop forever\n"


def test_answers_come_while_the_stream_is_still_open():
    child = subprocess.Popen([sys.executable, "-m", "catmouse", "cop-win", "-"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        child.stdin.write("Bw\nC]\n")  # two lines: the first answer needs the second read
        child.stdin.flush()
        assert child.stdout.readline().startswith("<stdin> graph 1: cop-win")
        child.stdin.write("C~\n")
        child.stdin.close()
        rest = child.stdout.read().splitlines()
        assert rest == ["<stdin> graph 2: not cop-win: the robber escapes one cop forever",
                        "<stdin> graph 3: cop-win: one cop catches the robber, whatever the "
                        "robber does", "<stdin>: 3 graphs, 2 cop-win, 1 not"]
    finally:
        child.kill()
        child.wait()
    assert child.returncode in (0, -9)


def test_a_bad_line_in_the_stream_is_named_after_the_good_answers(capsys, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"Bw\nC]\nC!\n")))
    assert main(["cop-win", "-"]) == 1
    captured = capsys.readouterr()
    assert captured.out.count("\n") == 2
    assert captured.err.strip() == ("catmouse: error: <stdin>: line 3: graph6 holds the character "
                                    "'!', outside '?'..'~'")


@pytest.mark.skipif(GENG is None, reason="nauty's geng is not installed (apt-get install nauty)")
def test_geng_piped_into_cop_win_counts_the_connected_graphs_of_5_nodes():
    graphs = subprocess.run([GENG, "-cq", "5"], capture_output=True, text=True,
                            check=True).stdout
    done = cli("cop-win", "-", stdin=graphs)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    wins = sum(catmouse.is_cop_win(g) for g in catmouse.read_graph6(io.StringIO(graphs)))
    assert len(lines) == 21 + 1  # 21 connected graphs on 5 nodes, then the count
    assert lines[-1] == f"<stdin>: 21 graphs, {wins} cop-win, {21 - wins} not"
    assert sum("graph" in line and ": cop-win" in line for line in lines) == wins


def test_edge_list_gaps_are_a_note_on_stderr(tmp_path):
    path = tmp_path / "gaps.edges"
    path.write_text("1 2\n2 5\n5 7\n7 1\n")
    done = cli("solve", path, "--mouse", "2", "--cat", "5", "--hole", "1")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[0].startswith(
        "catmouse: note: the edge list names no node 0, 3, 4, 6 (4 of ids 0..7)")
    assert "isolated node" in done.stderr and len(done.stderr.splitlines()) == 1


def test_cop_win_offers_no_directed_reading(tmp_path, capsys):
    # --directed was offered, and every graph read with it was then refused (cops and
    # robbers needs an undirected graph): now the option is not there, as in cop-number's.
    path = tmp_path / "path.edges"
    path.write_text("0 1\n1 2\n")
    with pytest.raises(SystemExit):
        catmouse.cli.commands._parser().parse_args(["cop-win", "--directed", str(path)])
    assert main(["cop-win", "--directed", str(path)]) == 2
    assert "unrecognized arguments: --directed" in capsys.readouterr().err
    assert main(["cop-win", str(path)]) == 0
    assert "--directed" not in cli("cop-win", "--help").stdout
