"""The census in slices: geng's res/mod slices add up exactly, and a restart skips done ones."""

from __future__ import annotations

import json
import shutil
from concurrent.futures import ProcessPoolExecutor

import pytest

from catmouse import cops_census
from catmouse.cops.census import census, census_slice

pytestmark = pytest.mark.skipif(
    not (shutil.which("geng") or shutil.which("nauty-geng")), reason="nauty's geng is missing")


def test_slices_add_up_to_the_oeis_terms():
    parts = [census_slice(7, res, 5) for res in range(5)]
    total = {k: sum(p.get(k, 0) for p in parts) for k in (1, 2)}
    assert total == {1: 403, 2: 450}  # A220840(7), A220841(7)
    assert sum(sum(p.values()) for p in parts) == 853


def test_a_restart_counts_only_the_missing_slices(tmp_path, monkeypatch):
    ledger = str(tmp_path / "ledger.jsonl")
    ran: list[int] = []
    real = cops_census.census_slice

    def counting(n, res, mod, geng=None):
        ran.append(res)
        return real(n, res, mod, geng)

    monkeypatch.setattr(cops_census, "census_slice", counting)
    with open(ledger, "w") as file:  # slices 0 and 3 of 4 were counted before a crash
        for res in (0, 3):
            file.write(json.dumps({"n": 8, "res": res, "mod": 4,
                                   "counts": real(8, res, 4)}) + "\n")
    assert census(8, 4, ledger) == {1: 3791, 2: 7326}
    assert sorted(ran) == [1, 2]
    ran.clear()
    assert census(8, 4, ledger) == {1: 3791, 2: 7326}  # all recorded: nothing runs
    assert ran == []


def test_slices_run_in_worker_processes(tmp_path):
    with ProcessPoolExecutor(2) as pool:
        assert census(7, 6, str(tmp_path / "l.jsonl"), map=pool.map) == {1: 403, 2: 450}


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
