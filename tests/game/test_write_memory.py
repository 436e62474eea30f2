"""Writing a big table holds a bounded piece of it: the peak memory of save() beyond the
tables themselves stays under 64 MB for CSV, JSON and npz (it was 779 MB for the CSV of a
2,000-node board).  Measured in a child process, from its peak resident size after the
solve (Linux: /proc/self/clear_refs resets the peak, so the solve's own peak is not seen).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import catmouse

ROOT = Path(__file__).resolve().parents[2]
# The catmouse under test (installed, or this checkout's): children import the same one.
INSTALLED = str(Path(catmouse.__file__).resolve().parent.parent)
LIMIT_MB = 64

CHILD = r"""
import json, os, random, sys
sys.path.insert(0, os.path.join(sys.argv[1], "benchmarks"))
from bench_tools import sparse_graph
import catmouse

def status(key):
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith(key):
                return int(line.split()[1]) / 1024

n, folder = int(sys.argv[2]), sys.argv[3]
analysis = catmouse.analyze(catmouse.Graph(sparse_graph(random.Random(913), n)))
found = {}
for suffix in (".csv", ".json", ".npz"):
    with open("/proc/self/clear_refs", "w") as handle:
        handle.write("5")  # the peak resident size starts again from here
    before = status("VmRSS:")
    path = os.path.join(folder, "table" + suffix)
    analysis.save(path)
    found[suffix] = [status("VmHWM:") - before, os.path.getsize(path) / 1e6]
    os.unlink(path)
print(json.dumps(found))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_save_of_a_big_board_stays_within_64_mb_beyond_the_tables(tmp_path):
    pytest.importorskip("numpy")
    if not os.access("/proc/self/clear_refs", os.W_OK):
        pytest.skip("cannot reset the peak resident size here")
    env = dict(os.environ, PYTHONPATH=INSTALLED)
    done = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), "1200", str(tmp_path)],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found[".csv"][1] > 90  # big enough to show a table held whole (~100 MB of CSV)
    for suffix, (peak, _) in found.items():
        assert peak <= LIMIT_MB, f"{suffix}: {peak:.0f} MB beyond the tables"


PEAK_CHILD = r"""
import json, os, random, sys
sys.path.insert(0, os.path.join(sys.argv[1], "benchmarks"))
from bench_tools import sparse_graph
import catmouse
from catmouse.rules import need_bytes

def status(key):
    with open("/proc/self/status") as handle:
        for line in handle:
            if line.startswith(key):
                return int(line.split()[1]) * 1024

n = int(sys.argv[2])
graph = catmouse.Graph(sparse_graph(random.Random(913), n))
catmouse.analyze(catmouse.Graph([[1], [0]]))  # imports and first-call caches
with open("/proc/self/clear_refs", "w") as handle:
    handle.write("5")
before = status("VmRSS:")
analysis = catmouse.analyze(graph, threads=1)
peak = status("VmHWM:") - before
guard = need_bytes(n, outcome=True, remoteness=True, target=False, threads=1)
kept = len(analysis._outcomes) + sum(map(len, analysis._layers))
print(json.dumps([peak, guard, kept]))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_the_guard_counts_what_analyze_really_takes():
    """analyze's measured peak stays within the memory guard's estimate (plus 24 MB for the
    interpreter's and numpy's passing blocks), the guard is not far above it, and the
    Analysis keeps a byte of outcome and about a byte of remoteness a position."""
    pytest.importorskip("numpy")
    if not os.access("/proc/self/clear_refs", os.W_OK):
        pytest.skip("cannot reset the peak resident size here")
    env = dict(os.environ, PYTHONPATH=INSTALLED)
    n = 1200
    done = subprocess.run([sys.executable, "-c", PEAK_CHILD, str(ROOT), str(n)],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    peak, guard, kept = json.loads(done.stdout)
    positions = 2 * n * n
    assert peak <= guard + 24 * 2**20, (peak / positions, guard / positions)
    assert guard <= 1.5 * peak + 24 * 2**20, (peak / positions, guard / positions)
    assert kept <= 2.05 * positions
