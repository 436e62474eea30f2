"""Check benchmarks/ref_bits.cpp against ci/bench/ref.cpp: the same answers, full and early stop.

    PYTHONPATH=. python benchmarks/check_ref_bits.py
"""
import ctypes
import random
import subprocess
import sys
import tempfile
from array import array
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from oracle import random_board  # noqa: E402

from catmouse._bench import random_graph  # noqa: E402


def load(source):
    out = Path(tempfile.mkdtemp()) / (Path(source).stem + ".so")
    subprocess.run(["g++", "-O2", "-shared", "-fPIC", "-o", str(out), str(source)], check=True)
    return ctypes.CDLL(str(out))


a = load(ROOT / "ci" / "bench" / "ref.cpp")
b = load(ROOT / "benchmarks" / "ref_bits.cpp")
for lib in (a, b):
    lib.cm_solve.restype = ctypes.c_int
    lib.cm_solve.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int64]
rng = random.Random(7); graphs = 0; calls = 0
for it in range(3000):
    n = rng.choice([rng.randint(2, 12), rng.randint(3, 70), rng.randint(60, 200)]) if it % 10 else rng.randint(100, 300)
    p = rng.choice([rng.random(), 2.0 / n, 0.5])
    adj = random_graph(rng, n, p) if n > 2 else [[1], [0]]
    ip = array('i', [0]); ix = array('i')
    for r in adj: ix.extend(r); ip.append(len(ix))
    ix.append(0)
    A, B = ip.buffer_info()[0], ix.buffer_info()[0]
    hole = 0
    for t in [-1] + [rng.randrange(2 * n * n) for _ in range(5)]:
        x = a.cm_solve(n, A, B, hole, t); y = b.cm_solve(n, A, B, hole, t)
        assert x == y, (it, n, t, x, y)
        calls += 1
    graphs += 1
print("graphs", graphs, "calls", calls, "all equal")
calls = 0
for it in range(2000):
    adj, hole = random_board(rng, 2, 40)
    n = len(adj)
    ip = array('i', [0]); ix = array('i')
    for r in adj: ix.extend(r); ip.append(len(ix))
    ix.append(0)
    A, B = ip.buffer_info()[0], ix.buffer_info()[0]
    for t in [-1] + [rng.randrange(2 * n * n) for _ in range(5)]:
        x = a.cm_solve(n, A, B, hole, t); y = b.cm_solve(n, A, B, hole, t)
        assert x == y, (it, n, t, x, y)
        calls += 1
print("random_board graphs 2000 calls", calls, "all equal")
