"""Input a user hands over: huge ids, several graphs in one file, natural Python objects."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from catmouse import Graph
from catmouse._cli import main
from catmouse._io import parse_graph6, read_graph
from catmouse._rules import MAX_NODES

EXAMPLE = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]
EXAMPLE_EDGES = [(0, 2), (0, 5), (1, 3), (2, 4), (2, 5), (3, 4), (3, 5)]


def cli(*argv, stdin=None, limit_memory=False, timeout=60):
    """Run ``python -m catmouse`` as a user would; a 1 GiB address-space cap on request."""
    def cap():  # pragma: no cover - runs in the child
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))

    return subprocess.run(
        [sys.executable, "-m", "catmouse", *map(str, argv)], input=stdin,
        capture_output=True, text=True, timeout=timeout,
        preexec_fn=cap if limit_memory else None, env=dict(os.environ),
    )


# -- bug 2: sizes are checked before anything is built -----------------------------------


def test_edge_list_with_a_huge_id_is_one_line_and_exit_1(tmp_path):
    path = tmp_path / "huge.edges"
    path.write_text("0 1\n1 99999999999999999999\n")
    done = cli("solve", path, limit_memory=True, timeout=30)
    assert done.returncode == 1
    assert done.stdout == ""
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert "line 2" in done.stderr and "too large" in done.stderr
    assert f"at most {MAX_NODES} nodes" in done.stderr


def test_edge_list_just_past_the_node_limit_is_refused_by_line(tmp_path):
    path = tmp_path / "big.edges"
    path.write_text(f"0 1\n1 {MAX_NODES}\n")
    code = main(["solve", str(path)])
    assert code == 1
    with pytest.raises(ValueError, match="line 2: node id .* too large"):
        read_graph(str(path))


def test_json_and_graph6_past_the_node_limit_are_refused(tmp_path):
    n = MAX_NODES + 1
    path = tmp_path / "big.json"
    path.write_text("[" + ",".join(["[]"] * n) + "]")
    with pytest.raises(ValueError, match=f"{n} nodes is too large"):
        read_graph(str(path))
    # graph6's 18-bit node count, cut short: the size is what is wrong first.
    digits = [(n >> shift) & 63 for shift in (12, 6, 0)]
    header = chr(126) + "".join(chr(63 + d) for d in digits)
    with pytest.raises(ValueError, match=f"{n} nodes is too large"):
        parse_graph6(header + "?")


def test_from_edges_refuses_more_nodes_than_the_engine_solves():
    limit = MAX_NODES
    with pytest.raises(ValueError, match=f"at most {limit} nodes"):
        Graph.from_edges(limit + 1, [(0, 1)])
    assert Graph.from_edges(3, [(0, 1)]).n == 3
