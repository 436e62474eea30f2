"""The census in slices: geng's res/mod slices add up exactly, a restart skips done ones, the
ledger says what counted each slice and survives a kill mid-line."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from catmouse import cops_census
from catmouse.cops.census import (
    census,
    census_slice,
    count_slice,
    ledger_mods,
    read_ledger,
    write_three_cop_graphs,
)

pytestmark = pytest.mark.skipif(
    not (shutil.which("geng") or shutil.which("nauty-geng")), reason="nauty's geng is missing")

LABELG = shutil.which("labelg") or shutil.which("nauty-labelg")
DISMANTLABLE = Path(__file__).resolve().parents[2] / "benchmarks" / "dismantlable.c"
COMPILER = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
PETERSEN = "IsP@OkWHG"  # nauty 2.8's canonical graph6 of the Petersen graph


def test_slices_add_up_to_the_oeis_terms():
    parts = [census_slice(7, res, 5) for res in range(5)]
    total = {k: sum(p.get(k, 0) for p in parts) for k in (1, 2)}
    assert total == {1: 403, 2: 450}  # A220840(7), A220841(7)
    assert sum(sum(p.values()) for p in parts) == 853


def test_a_restart_counts_only_the_missing_slices(tmp_path, monkeypatch):
    ledger = str(tmp_path / "ledger.jsonl")
    ran: list[int] = []
    real = cops_census.count_slice

    def counting(n, res, mod, geng=None, check=None):
        ran.append(res)
        return real(n, res, mod, geng, check)

    monkeypatch.setattr(cops_census, "count_slice", counting)
    with open(ledger, "w") as file:  # slices 0 and 3 of 4 were counted before a crash
        for res in (0, 3):
            file.write(json.dumps(real(8, res, 4)) + "\n")
    assert census(8, 4, ledger) == {1: 3791, 2: 7326}
    assert sorted(ran) == [1, 2]
    ran.clear()
    assert census(8, 4, ledger) == {1: 3791, 2: 7326}  # all recorded: nothing runs
    assert ran == []


def test_a_ledger_line_says_what_counted_the_slice(tmp_path):
    ledger = tmp_path / "l.jsonl"
    census(7, 3, str(ledger))
    lines = [json.loads(line) for line in ledger.read_text().splitlines()]
    assert sorted(line["res"] for line in lines) == [0, 1, 2]
    for line in lines:
        assert line["graphs"] == sum(line["counts"].values()) > 0
        assert line["seconds"] >= 0 and line["cpu_seconds"] >= 0
        assert line["geng_cpu_seconds"] is None or line["geng_cpu_seconds"] >= 0
        assert line["catmouse"].startswith(cops_census.__version__)
        assert "engine" in line["catmouse"]
        assert "geng" in line["geng"]
        assert set(line["machine"]) == {"platform", "cpu", "cores"}
        assert line["three_cops"] == []
    assert sum(line["graphs"] for line in lines) == 853


def test_an_older_ledger_resumes(tmp_path):
    """Lines of 0.2 ledgers ({n, res, mod, counts}) are read as before."""
    ledger = tmp_path / "old.jsonl"
    old = {"n": 7, "res": 1, "mod": 2, "counts": census_slice(7, 1, 2)}
    ledger.write_text(json.dumps(old) + "\n")
    assert census(7, 2, str(ledger)) == {1: 403, 2: 450}
    assert len(ledger.read_text().splitlines()) == 2
    assert ledger_mods(str(ledger), 7) == {2}


def test_a_torn_last_line_is_counted_again(tmp_path):
    """A kill while a line was written leaves a part of it: the resume cuts it off and counts
    its slice again (issue 36, item 8), and the ledger is whole afterwards."""
    ledger = tmp_path / "torn.jsonl"
    whole = json.dumps(count_slice(7, 0, 3)) + "\n"
    torn = json.dumps(count_slice(7, 2, 3))[:40]  # no newline: the write was cut short
    ledger.write_text(whole + torn)
    assert sorted(read_ledger(str(ledger), 7, 3)) == [0]
    assert census(7, 3, str(ledger)) == {1: 403, 2: 450}
    lines = ledger.read_text().splitlines()
    assert sorted(json.loads(line)["res"] for line in lines) == [0, 1, 2]
    assert ledger.read_text().endswith("\n")


def test_a_file_that_is_not_a_ledger_is_named_and_left_as_it_was(tmp_path):
    """A last line without its newline is cut only when it is the beginning of a record: a
    file of something else (here one line of text, no newline) was once cut to nothing."""
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"my thesis, no final newline")
    for call in (lambda: census(5, 1, str(notes)), lambda: read_ledger(str(notes), 5, 1)):
        with pytest.raises(ValueError, match=r"notes.txt: line 1: not a census record"):
            call()
    assert notes.read_bytes() == b"my thesis, no final newline"
    # A record, then the same text: still refused, still whole.
    whole = json.dumps(count_slice(5, 0, 1)) + "\n"
    notes.write_text(whole + "P.S. no newline")
    with pytest.raises(ValueError, match=r"line 2: not a census record"):
        census(5, 1, str(notes))
    assert notes.read_text() == whole + "P.S. no newline"


@pytest.mark.parametrize("cut", [1, 3, 6, 30])
def test_a_record_torn_anywhere_is_cut_off(tmp_path, cut):
    ledger = tmp_path / "torn.jsonl"
    ledger.write_text(json.dumps(count_slice(6, 0, 1))[:cut])
    assert census(6, 1, str(ledger)) == {1: 68, 2: 44}
    assert len(ledger.read_text().splitlines()) == 1 and ledger.read_text().endswith("\n")


def test_a_path_that_is_not_a_regular_file_is_no_ledger(tmp_path):
    """A folder, a device or a pipe: refused before it is read (``/dev/zero`` never ends)."""
    paths = [str(tmp_path)]
    paths += [p for p in ("/dev/null", "/dev/zero", "/dev/full") if Path(p).exists()]
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo")
        paths.append(str(tmp_path / "fifo"))
    for path in paths:
        for call in (lambda: census(5, 1, path), lambda: read_ledger(path, 5, 1),
                     lambda: ledger_mods(path, 5)):
            with pytest.raises(ValueError, match="not a regular file, so not a census ledger"):
                call()


def test_a_bad_line_inside_the_ledger_is_named(tmp_path):
    ledger = tmp_path / "bad.jsonl"
    ledger.write_text(json.dumps({"n": 7, "res": 0, "mod": 3, "counts": {"1": 1}}) + "\n"
                      + "{not json\n")
    with pytest.raises(ValueError, match=r"bad.jsonl: line 2: not a census record"):
        census(7, 3, str(ledger))
    ledger.write_text(json.dumps({"n": 7, "res": 5, "mod": 3, "counts": {"1": 1}}) + "\n")
    with pytest.raises(ValueError, match=r"line 1: slice 5/3 is not a slice"):
        census(7, 3, str(ledger))


def test_a_slice_recorded_twice_with_other_graphs_is_named(tmp_path):
    """Two records of one slice (two runs on one ledger write such pairs) must agree: the
    first was taken silently, so a wrong one, above or below, could make the totals, and at
    14 nodes and more no known total catches it.  The same graphs twice are read as one."""
    ledger = tmp_path / "twice.jsonl"
    line = {"n": 14, "res": 1, "mod": 3, "counts": {"1": 5, "2": 7}, "graphs": 12}
    other = dict(line, counts={"1": 6, "2": 7}, graphs=13)
    ledger.write_text("".join(json.dumps(r) + "\n" for r in (line, dict(line, seconds=2.5))))
    assert read_ledger(str(ledger), 14, 3)[1]["counts"] == {1: 5, 2: 7}
    for pair in ((line, other), (other, line)):
        ledger.write_text("".join(json.dumps(r) + "\n" for r in pair))
        for call in (lambda: read_ledger(str(ledger), 14, 3), lambda: census(14, 3, str(ledger))):
            with pytest.raises(ValueError, match=r"twice.jsonl: lines 1 and 2 both record "
                                                  r"slice 1/3, with other graphs"):
                call()
    assert ledger.read_text().count("\n") == 2  # (said, nothing cut or counted)
    three = dict(line, three_cops=["IsP@OkWHG"])
    ledger.write_text("".join(json.dumps(r) + "\n" for r in (three, dict(line, three_cops=[]))))
    with pytest.raises(ValueError, match="with other graphs"):
        read_ledger(str(ledger), 14, 3)


def test_a_record_whose_counts_are_not_its_graphs_is_named(tmp_path):
    """A record holds its graphs beside its counts (0.3 on): one changed without the other
    was read as it was, and its counts went into the totals."""
    ledger = tmp_path / "edited.jsonl"
    ledger.write_text(json.dumps({"n": 14, "res": 0, "mod": 1, "counts": {"1": 5, "2": 8},
                                  "graphs": 12}) + "\n")
    for call in (lambda: read_ledger(str(ledger), 14, 1), lambda: ledger_mods(str(ledger), 14)):
        with pytest.raises(ValueError, match=r"edited.jsonl: line 1: not a census record "
                                              r"\(its counts add up to 13 graphs, not its "
                                              r"graphs, 12\)"):
            call()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="flock is a POSIX lock")
def test_a_second_census_on_a_ledger_in_use_is_refused(tmp_path):
    """Two runs on one ledger (the command started again in another terminal) both counted
    every slice, each at half speed, and one's resume could cut a line the other was
    writing as torn: the second is refused, the ledger as it was; once the first has let go
    the census resumes."""
    import fcntl

    ledger = tmp_path / "busy.jsonl"
    ledger.write_text(json.dumps(count_slice(6, 0, 2)) + "\n")
    before = ledger.read_text()
    with open(ledger, "a") as first:  # a census counting into it
        fcntl.flock(first.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(ValueError, match=r"busy.jsonl: another census is counting into "
                                              "this ledger now"):
            census(6, 2, str(ledger))
        assert ledger.read_text() == before
    assert census(6, 2, str(ledger)) == {1: 68, 2: 44}
    assert census(6, 2, str(ledger)) == {1: 68, 2: 44}  # (let go at its end)


def test_slices_run_in_worker_processes(tmp_path):
    with ProcessPoolExecutor(2) as pool:
        assert census(7, 6, str(tmp_path / "l.jsonl"), map=pool.map) == {1: 403, 2: 450}


def test_progress_is_told_each_slice(tmp_path):
    told = []
    census(7, 4, str(tmp_path / "l.jsonl"), progress=lambda r, done, slices: told.append(
        (r["res"], done, slices)))
    assert sorted(res for res, _, _ in told) == [0, 1, 2, 3]
    assert [(done, slices) for _, done, slices in told] == [(1, 4), (2, 4), (3, 4), (4, 4)]


def test_bad_slices_are_refused():
    with pytest.raises(ValueError, match="res must be 0 to mod - 1"):
        census_slice(5, 3, 3)


def test_a_ledger_shared_by_other_censuses_gives_only_this_ones_slices(tmp_path):
    ledger = tmp_path / "ledger.jsonl"
    # Slices of another node count and of another split, with counts no census has.
    ledger.write_text(json.dumps({"n": 5, "res": 0, "mod": 2, "counts": {"1": 99}}) + "\n"
                      + json.dumps({"n": 6, "res": 0, "mod": 1, "counts": {"1": 77}}) + "\n")
    assert census(5, 1, str(ledger)) == {1: 16, 2: 5}  # A220840(5), A220841(5)


def test_without_geng_the_census_says_how_to_get_it(monkeypatch):
    monkeypatch.setattr(cops_census.shutil, "which", lambda name: None)
    with pytest.raises(OSError, match="^nauty's geng is not installed"):
        census_slice(5, 0, 1)


@pytest.mark.skipif(LABELG is None, reason="nauty's labelg is missing")
def test_the_petersen_graph_is_the_three_cop_graph_of_its_slice(tmp_path):
    """The smallest graph that needs 3 cops (Baird et al.) is in slice 429 of 1000 of 10 nodes
    (46,063 graphs; 29 of 100 has 148,206); the ledger keeps it and the file has it in
    nauty's canonical labelling."""
    record = count_slice(10, 429, 1000)
    assert record["counts"].get("3") == 1 and len(record["three_cops"]) == 1
    path = tmp_path / "three.g6"
    assert write_three_cop_graphs(str(path), {429: record}) == 1
    assert path.read_text() == PETERSEN + "\n"
    with pytest.raises(ValueError, match="before ledgers kept their 3-cop graphs"):
        write_three_cop_graphs(str(path), {0: {"counts": {1: 1}}})


@pytest.mark.skipif(COMPILER is None, reason="no C compiler here")
def test_the_independent_check_reads_the_same_slice(tmp_path):
    """benchmarks/dismantlable.c counts the cop-win graphs of the same geng output."""
    if not DISMANTLABLE.exists():
        pytest.skip(f"{DISMANTLABLE} is not here (tests run outside a checkout or sdist)")
    program = tmp_path / "dismantlable"
    subprocess.run([COMPILER, "-O2", str(DISMANTLABLE), "-o", str(program)], check=True)
    ledger = str(tmp_path / "l.jsonl")
    assert census(8, 3, ledger, check=str(program)) == {1: 3791, 2: 7326}
    records = read_ledger(ledger, 8, 3)
    assert all(r["dismantlable"] == r["counts"][1] for r in records.values())
    assert sum(r["dismantlable"] for r in records.values()) == 3791
    with pytest.raises(OSError, match="stopped reading its graph6 input"):
        count_slice(9, 0, 1, check=shutil.which("true"))
    silent = tmp_path / "silent"
    silent.write_text("#!/bin/sh\ncat > /dev/null\n")
    silent.chmod(0o755)
    with pytest.raises(OSError, match="gave no 'dismantlable N' line"):
        count_slice(6, 0, 1, check=str(silent))
