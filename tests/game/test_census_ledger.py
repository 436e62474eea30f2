"""The committed census of 11 nodes stays reproducible: two of its slices are counted again
here and must match their ledger lines, and its 3-cop-win file must be those lines' graphs.

The ledger (``benchmarks/results/census-11.jsonl``) and the file of 3-cop-win graphs
(``benchmarks/results/census-11-three-cops.g6``) are made by ``catmouse census 11`` (see
docs/cops.rst); until they are committed these tests skip and say so.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import catmouse.engine
from catmouse.cops.census import CONNECTED, canonical_graph6, count_slice, read_ledger, totals

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"
LEDGER = RESULTS / "census-11.jsonl"
THREE_COPS = RESULTS / "census-11-three-cops.g6"
MOD = 1000

pytestmark = [
    pytest.mark.skipif(not (shutil.which("geng") or shutil.which("nauty-geng")),
                       reason="nauty's geng is missing"),
    pytest.mark.skipif(not LEDGER.is_file(),
                       reason=f"{LEDGER.name} is not committed yet (catmouse census 11 makes it)"),
]


@pytest.fixture(scope="module")
def records():
    found = read_ledger(str(LEDGER), 11, MOD)
    assert len(found) == MOD, f"{LEDGER.name} has {len(found)} of the {MOD} slices"
    return found


def test_the_ledger_adds_up_to_every_connected_graph(records):
    assert sum(totals(records.values()).values()) == CONNECTED[11] == 1006700565
    assert all(r["graphs"] == sum(r["counts"].values()) for r in records.values())
    checked = [r for r in records.values() if "dismantlable" in r]
    assert all(r["dismantlable"] == r["counts"][1] for r in checked)


def test_two_slices_counted_again_match_their_lines(records):
    if catmouse.engine.current.name != "cython":
        pytest.skip("a slice of 11 nodes takes minutes on the pure engine")
    smallest = min(records, key=lambda res: records[res]["graphs"])
    with_three = [res for res in sorted(records) if records[res]["three_cops"]]
    for res in {smallest, *with_three[:1]}:
        again = count_slice(11, res, MOD)
        line = records[res]
        assert {int(c): k for c, k in again["counts"].items()} == line["counts"], res
        assert again["graphs"] == line["graphs"]
        assert sorted(again["three_cops"]) == sorted(line["three_cops"])


def test_the_three_cop_file_holds_the_ledgers_graphs(records):
    if not THREE_COPS.is_file():
        pytest.skip(f"{THREE_COPS.name} is not committed yet")
    if not (shutil.which("labelg") or shutil.which("nauty-labelg")):
        pytest.skip("nauty's labelg is missing")
    lines = THREE_COPS.read_text().split()
    assert lines == sorted(lines) and len(set(lines)) == len(lines)
    assert len(lines) == totals(records.values()).get(3, 0)
    assert lines == canonical_graph6(g for r in records.values() for g in r["three_cops"])
    numbers = catmouse.engine.current.cop_numbers_graph6("".join(g + "\n" for g in lines)
                                                         .encode(), 4)
    assert set(numbers) <= {3}
