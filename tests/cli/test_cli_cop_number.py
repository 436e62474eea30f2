"""``catmouse cop-number``: graph6 lines in, cop numbers out, in order, streamed."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from catmouse.cli import cop_census
from catmouse.cli.commands import main

FIXTURES = Path(__file__).resolve().parents[1] / "game" / "fixtures"
ROBERTSON = (FIXTURES / "robertson.g6").read_bytes().strip()
# Petersen, the triangle, the 4-cycle, K1, two disjoint 4-cycles (both engines; the
# Robertson graph, 4, takes the pure twin seconds: it runs on the installed engine below).
LINES = [b"IheA@GUAo", b"Bw", b"Cl", b"@", b"Gl?GGS"]
EXPECTED = ["3", "1", "2", "1", "4"]


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def graphs(tmp_path):
    path = tmp_path / "graphs.g6"
    path.write_bytes(b"\n".join(LINES) + b"\n")
    return path


def test_one_number_per_line_in_input_order(use_engine, capsys, graphs):
    assert run(capsys, "cop-number", graphs) == (0, "\n".join(EXPECTED) + "\n", "")


def test_the_census_prints_k_count_lines_only(use_engine, capsys, tmp_path):
    """A220840 and A220841 summed over n = 2..8 (the pure twin: over n = 2..7, 995 graphs)."""
    census = FIXTURES / "connected_2_to_8.g6"
    expected = "1 4286\n2 7826\n"
    if use_engine.__name__.endswith("_py"):
        census = tmp_path / "connected_2_to_7.g6"
        lines = (FIXTURES / "connected_2_to_8.g6").read_bytes().splitlines(keepends=True)
        census.write_bytes(b"".join(lines[:995]))
        expected = "1 495\n2 500\n"
    assert run(capsys, "cop-number", "--census", census) == (0, expected, "")


def test_max_cops(use_engine, capsys, graphs):
    code, out, _ = run(capsys, "cop-number", "--max-cops", "2", graphs)
    assert out.split() == [">2", "1", "2", "1", ">2"]
    code, out, _ = run(capsys, "cop-number", "--census", "--max-cops", "2", graphs)
    assert out == "1 2\n2 1\n>2 2\n"
    assert run(capsys, "cop-number", "--max-cops", "255", graphs)[0] == 1


def test_blocks_on_threads_keep_the_order(use_engine, capsys, monkeypatch):
    monkeypatch.setattr(cop_census, "BLOCK_BYTES", 300)  # about 40 blocks
    lines = (FIXTURES / "connected_2_to_8.g6").read_bytes().splitlines()[-2000:]
    data = b"\n".join(lines) + b"\n"
    outputs = []
    for jobs in ("1", "2", "3"):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
        outputs.append(run(capsys, "cop-number", "--jobs", jobs, "-"))
    assert outputs[0] == outputs[1] == outputs[2]
    assert outputs[0][1].count("\n") == 2000


def test_a_bad_line_is_named_by_its_number_in_the_stream(use_engine, capsys, monkeypatch):
    monkeypatch.setattr(cop_census, "BLOCK_BYTES", 20)
    data = b"Bw\n" * 50 + b"Bx\n" + b"Bw\n"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    code, out, err = run(capsys, "cop-number", "-")
    assert code == 1
    assert "error: <stdin>: line 51: graph6 padding bits after the last edge must be zero" in err
    assert out == "1\n" * 50  # every line before the bad one answered


@pytest.mark.parametrize("blank", [False, True])
def test_the_answers_before_a_bad_line_are_printed_whatever_the_block(
        use_engine, capsys, graphs, tmp_path, blank):
    # The whole file is one block: its bad last line once lost every answer before it
    # (cop-win printed them). With blank lines, the block keeps the lines' numbers apart.
    path = tmp_path / "bad_end.g6"
    sep = b"\n\n" if blank else b"\n"
    path.write_bytes(sep.join(LINES) + sep + b"Bx\n")
    code, out, err = run(capsys, "cop-number", path)
    assert (code, out) == (1, "\n".join(EXPECTED) + "\n")
    bad = 2 * len(LINES) + 1 if blank else len(LINES) + 1
    assert f"line {bad}: graph6 padding bits after the last edge must be zero" in err
    code, out, err = run(capsys, "cop-number", "--census", path)
    assert (code, out) == (1, "")


def test_bad_options(capsys, graphs):
    assert "--jobs must be from 1 to 1024, not 0" in run(capsys, "cop-number", "--jobs", "0",
                                                        graphs)[2]
    assert "no such file" in run(capsys, "cop-number", graphs.parent / "missing.g6")[2]


def test_a_huge_jobs_count_is_one_line_naming_jobs(capsys, graphs):
    code, out, err = run(capsys, "cop-number", "--jobs", "100000000000", graphs)
    assert code == 1 and out == ""
    assert err.strip().endswith("--jobs must be from 1 to 1024, not 100000000000")
    assert len(err.strip().splitlines()) == 1 and "bytes" not in err


def test_progress_goes_to_stderr(capsys, graphs):
    code, out, err = run(capsys, "cop-number", "--progress", graphs)
    assert out.split() == EXPECTED
    assert "cop-number: 5 graphs in" in err


class CountingStream:
    """A stream of the same line forever, counting the blocks read."""

    def __init__(self, blocks: int):
        self.left = blocks
        self.taken = 0

    def read(self, size: int) -> bytes:
        if self.left == 0:
            return b""
        self.left -= 1
        self.taken += 1
        return b"Cl\n" * 10


@pytest.mark.parametrize("jobs", [1, 2])
def test_memory_is_flat_in_the_number_of_graphs(jobs):
    """At most 2 * jobs blocks are read ahead of the answers written."""
    stream = CountingStream(100)
    written = 0
    for numbers, start in cop_census._answers(stream, jobs, 5, None):
        assert start == 10 * written
        written += 1
        assert stream.taken - written <= 2 * jobs
        assert numbers == b"\x02" * 10
    assert written == 100


def test_stdin_through_a_real_pipe():
    result = subprocess.run([sys.executable, "-m", "catmouse", "cop-number", "-"],
                            input=b"\n".join([*LINES, ROBERTSON]), capture_output=True,
                            check=True)
    assert result.stdout.decode().split() == [*EXPECTED, "4"]


def test_max_cops_zero_is_allowed_and_tells_whether_a_graph_has_nodes(capsys, graphs):
    code, out, _ = run(capsys, "cop-number", "--max-cops", "0", graphs)
    assert code == 0 and out.split() == [">0"] * 5


def test_progress_lines_give_the_count_and_the_rate(capsys, graphs, monkeypatch):
    # A clock read 2 s after its last reading: the start (100 s, then 102 s for the last
    # report), the block's check at 104 s, its report at 106 s, the end at 108 s.
    from types import SimpleNamespace

    readings = iter(range(100, 200, 2))
    monkeypatch.setattr(cop_census, "time", SimpleNamespace(monotonic=lambda: next(readings)))
    code, out, err = run(capsys, "cop-number", "--progress", graphs)
    assert code == 0 and out.split() == EXPECTED
    assert err == "cop-number: 5 graphs, 1 a second\ncop-number: 5 graphs in 8.00 s\n"


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_the_blocks_in_flight_share_the_free_memory(capsys, graphs, monkeypatch, jobs):
    # Up to 2 * jobs blocks are searched at once: together they stay within what is free.
    free = 10**9
    asked = []
    real = cop_census._solve

    def solve(block, max_cops, max_bytes, *rest):
        asked.append(max_bytes)
        return real(block, max_cops, max_bytes, *rest)

    monkeypatch.setattr(cop_census, "memory_limit", lambda: (free, "available"))
    monkeypatch.setattr(cop_census, "_solve", solve)
    code, out, _ = run(capsys, "cop-number", "--jobs", jobs, graphs)
    assert code == 0 and out.split() == EXPECTED
    assert asked and all(0 < 2 * jobs * most <= free for most in asked)


@pytest.mark.parametrize("argv, threads", [([], None), (["--threads", "2"], 2),
                                           (["--jobs", "3"], 3),
                                           (["--jobs", "3", "--threads", "1"], 1)])
def test_threads_reach_one_graphs_search(capsys, tmp_path, monkeypatch, argv, threads):
    """An edge list's graph is searched with --threads (default: cop_number's own None; an
    explicit --jobs as before --threads came); graph6 lines are not (their blocks take
    --jobs)."""
    seen = []
    real = cop_census.cop_number

    def spy(graph, max_cops, threads):
        seen.append(threads)
        return real(graph, max_cops, threads=1)

    monkeypatch.setattr(cop_census, "cop_number", spy)
    cycle = tmp_path / "c5.edges"
    cycle.write_text("0 1\n1 2\n2 3\n3 4\n4 0\n")
    assert run(capsys, "cop-number", *argv, cycle) == (0, "2\n", "")
    assert seen == [threads]


@pytest.mark.parametrize("value", ["0", "1025", "two"])
def test_a_bad_thread_count_is_a_usage_error(capsys, graphs, value):
    code, out, err = run(capsys, "cop-number", "--threads", value, graphs)
    assert code == 2 and out == "" and "--threads" in err


def test_a_graph6_line_past_64_nodes_says_how_to_give_the_graph(capsys, tmp_path):
    # It said "the cops' census takes at most 64" where no census was asked for, while the
    # same graph as JSON or an edge list is answered.
    nx = pytest.importorskip("networkx")
    ring = nx.cycle_graph(70)
    path = tmp_path / "c70.g6"
    path.write_bytes(nx.to_graph6_bytes(ring, header=False))
    code, out, err = run(capsys, "cop-number", path)
    assert (code, out) == (1, "")
    assert "graph6 line of 70 nodes; cop-number and census read graph6 lines of at most 64 " \
           "nodes: give a bigger graph as JSON or an edge list" in err
    edges = tmp_path / "c70.edges"
    nx.write_edgelist(ring, edges, data=False)
    assert run(capsys, "cop-number", edges)[:2] == (0, "2\n")


@pytest.mark.parametrize(("option", "value", "said"), [
    ("--max-cops", "-1", "--max-cops must be 0 to 254, not -1"),
    ("--jobs", "0", "--jobs must be from 1 to 1024, not 0")])
def test_an_option_out_of_range_is_said_without_the_file(capsys, tmp_path, option, value,
                                                          said):
    # It was "con4.g6: --max-cops must be ...", as if the file were wrong.
    path = tmp_path / "con4.g6"
    path.write_text("Cs\n")
    assert run(capsys, "cop-number", option, value, path) == (1, "", f"catmouse: error: {said}\n")
