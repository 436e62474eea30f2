"""The solver's options of the commands: --threads and --max-memory (solve, analyze, draw,
play) and analyze's --outcomes-only, as the API's threads=, max_memory= and remoteness=."""

from __future__ import annotations

import argparse
import json

import pytest
from test_cli_options import EXAMPLE, read_csv, run, write

import catmouse
from catmouse import Game
from catmouse.cli.solver_options import size_text, threads_text


@pytest.mark.parametrize("text, size", [("1000", 1000), ("1k", 1024), ("512K", 512 << 10),
                                        ("1.5G", 3 << 29), ("8GiB", 8 << 30), ("2 MB", 2 << 20),
                                        ("1t", 1 << 40), ("0.001k", 1),
                                        ("1" * 40, int("1" * 40))])
def test_sizes_as_people_write_them(text, size):
    assert size_text(text) == size


@pytest.mark.parametrize("text", ["", "G", "-1", "1e9", "12Q", "0", "0.1",
                                  # (a float of these is infinity; int() refuses 4,300 digits)
                                  "9" * 400 + ".5G", "9" * 5000])
def test_sizes_that_are_none(text):
    with pytest.raises(argparse.ArgumentTypeError):
        size_text(text)


@pytest.mark.parametrize("text", ["0", "1025", "two", "1.5", ""])
def test_thread_counts_that_are_none(text):
    with pytest.raises(argparse.ArgumentTypeError):
        threads_text(text)


def test_the_options_reach_the_analysis(tmp_path, capsys, monkeypatch):
    seen = []
    analyze = Game.analyze

    def spy(self, **kwargs):
        seen.append({key: kwargs[key] for key in ("threads", "max_memory", "remoteness")})
        return analyze(self, **kwargs)

    monkeypatch.setattr(Game, "analyze", spy)
    path = write(tmp_path, "g.json", EXAMPLE)
    assert run(capsys, "solve", path, "--threads", 2, "--max-memory", "1G")[0] == 0
    assert run(capsys, "analyze", path, "-o", tmp_path / "t.json", "--outcomes-only")[0] == 0
    assert run(capsys, "draw", path, "-o", tmp_path / "t.svg", "--threads", 3)[0] == 0
    assert seen == [{"threads": 2, "max_memory": 1 << 30, "remoteness": True},
                    {"threads": None, "max_memory": None, "remoteness": False},
                    {"threads": 3, "max_memory": None, "remoteness": True}]


def test_outcomes_only_writes_the_outcomes_and_no_remoteness(tmp_path, capsys):
    path = write(tmp_path, "g.json", EXAMPLE)
    full, only = tmp_path / "full.csv", tmp_path / "only.csv"
    assert run(capsys, "analyze", path, "-o", full)[0] == 0
    code, out, _ = run(capsys, "analyze", path, "-o", only, "--outcomes-only")
    assert code == 0 and out.startswith(f"wrote {only}: 60 positions")
    rows, expected = read_csv(only), read_csv(full)
    assert [r["outcome"] for r in rows] == [r["outcome"] for r in expected]
    assert all(r["remoteness"] == "" for r in rows) and any(r["remoteness"] for r in expected)
    # Best moves by outcome alone: every optimal move is among them.
    assert all(set(e["best_moves"].split()) <= set(r["best_moves"].split())
               for r, e in zip(rows, expected))
    assert run(capsys, "analyze", path, "-o", tmp_path / "only.json", "--outcomes-only")[0] == 0
    data = json.loads((tmp_path / "only.json").read_text())
    assert data["remoteness"] is None
    assert data["outcomes"] == catmouse.analyze(EXAMPLE).outcomes.tolist()


def test_threads_give_the_same_file(tmp_path, capsys):
    path = write(tmp_path, "g.json", EXAMPLE)
    for threads in (None, 1, 2, 5):
        extra = [] if threads is None else ["--threads", threads]
        assert run(capsys, "analyze", path, "-o", tmp_path / f"t{threads}.json", *extra)[0] == 0
    texts = {(tmp_path / f"t{t}.json").read_text() for t in (None, 1, 2, 5)}
    assert len(texts) == 1


def test_a_graph_over_max_memory_is_refused_in_one_line(tmp_path, capsys):
    path = write(tmp_path, "g.json", EXAMPLE)
    out_path = tmp_path / "t.json"
    code, out, err = run(capsys, "analyze", path, "-o", out_path, "--max-memory", "100")
    assert code == 1 and out == "" and not out_path.exists()
    assert err.startswith(f"catmouse: error: {path}: too large to solve here: solving 6 nodes "
                          "needs up to ") and err.endswith(" bytes, over max_memory=100\n")
    assert err.count("\n") == 1


@pytest.mark.parametrize("argv, words", [
    (["solve", "--threads", "0"], "argument --threads: must be from 1 to 1024, not 0"),
    (["play", "--max-memory", "lots"], "argument --max-memory: expected a size in bytes"),
    (["solve", "--outcomes-only"], "unrecognized arguments: --outcomes-only"),
])
def test_bad_options_are_usage_errors(tmp_path, capsys, argv, words):
    path = write(tmp_path, "g.json", EXAMPLE)
    code, _, err = run(capsys, argv[0], path, *argv[1:])
    assert code == 2 and words in err
