"""Ctrl-C and SIGTERM stop every k-cops search mid-round: Python API and command line.

A child process runs a search that takes far longer than the test waits (the cop number of
the incidence graph of PG(2, 5), 62 nodes and 6 cops; 4 cops on the 6-cube; smaller graphs
on the pure twin), the parent sends the signal at a moment inside it, and the child must
stop within the bound: 1 s on the compiled engine, 2 s on the pure one, on one thread and
two, with no helper thread left running (counted in /proc/self/task).
"""

from __future__ import annotations

import itertools
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import catmouse

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="POSIX signals, /proc")

ROOT = str(Path(catmouse.__file__).resolve().parent.parent)
BOUND = {"cython": 1.0, "python": 2.0}
# A signal at a moment drawn from this range after the child says "ready": inside the
# search on every graph below (each runs for many seconds).
MOMENTS = (0.3, 1.5)


def incidence_pg2(q: int) -> list[list[int]]:
    """The point-line incidence graph of the projective plane over GF(q), q prime."""
    points: list[tuple[int, ...]] = []
    for v in itertools.product(range(q), repeat=3):
        if any(v):
            inverse = pow(next(x for x in v if x), -1, q)
            normal = tuple(x * inverse % q for x in v)
            if normal not in points:
                points.append(normal)
    m = len(points)
    lists: list[list[int]] = [[] for _ in range(2 * m)]
    for i, p in enumerate(points):
        for j, line in enumerate(points):
            if sum(a * b for a, b in zip(p, line)) % q == 0:
                lists[i].append(m + j)
                lists[m + j].append(i)
    return lists


def hypercube(d: int) -> list[list[int]]:
    return [[u ^ (1 << i) for i in range(d)] for u in range(1 << d)]


CHILD = textwrap.dedent("""
    import json, os, signal, sys, time
    # A child of a script may start with SIGINT ignored: put Python's default back.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    import catmouse
    from catmouse import engine as selector
    selector.current = selector.load(sys.argv[1])
    what, k = sys.argv[2], int(sys.argv[4])
    threads = None if sys.argv[3] == "None" else int(sys.argv[3])
    graph = json.loads(sys.stdin.read())
    tasks = len(os.listdir("/proc/self/task"))
    print("ready", flush=True)
    try:
        if what == "number":
            catmouse.cop_number(graph, threads=threads)
        else:
            catmouse.CopsGame(graph, k).analyze(threads=threads)
        print("finished", flush=True)
    except KeyboardInterrupt:
        stopped = time.monotonic()
        # A helper has released its last lock when the search returns, and exits just
        # after: give it a moment to be gone.
        for _ in range(100):
            left = len(os.listdir("/proc/self/task")) - tasks
            if left <= 0:
                break
            time.sleep(0.01)
        print("interrupted", stopped, left, flush=True)
""")


def api_case(twin: str, what: str) -> tuple[list[list[int]], int]:
    """The graph and cops of a search that runs far longer than MOMENTS on ``twin``."""
    if twin == "cython":
        return (incidence_pg2(5), 0) if what == "number" else (hypercube(6), 4)
    return (incidence_pg2(3), 0) if what == "number" else (incidence_pg2(3), 4)


def env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))


def twin_of(engine) -> str:
    return "cython" if engine.__name__.endswith("bits_c") else "python"


def interrupt_api(twin: str, what: str, threads: int | None,
                  moment: float) -> tuple[float, int]:
    """Run the child, send SIGINT ``moment`` s into its search; (seconds to stop, threads
    left beyond those it began with)."""
    graph, k = api_case(twin, what)
    child = subprocess.Popen([sys.executable, "-c", CHILD, twin, what, str(threads), str(k)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             env=env())
    try:
        child.stdin.write(repr(graph))
        child.stdin.close()
        assert child.stdout.readline().split() == ["ready"]
        time.sleep(moment)
        sent = time.monotonic()
        child.send_signal(signal.SIGINT)
        word, *rest = child.stdout.readline().split()
        assert word == "interrupted", f"the search was not interrupted: {word} {rest}"
        assert child.wait(timeout=30) == 0
        return float(rest[0]) - sent, int(rest[1])
    finally:
        child.kill()
        child.wait()


@pytest.mark.parametrize("threads", [1, 2, None])
@pytest.mark.parametrize("what", ["number", "analyze"])
def test_ctrl_c_stops_a_python_search_mid_round(engine, what, threads):
    twin = twin_of(engine)
    if twin == "python" and threads == 2:
        pytest.skip("the pure twin runs one thread")
    moment = random.uniform(*MOMENTS)
    latency, left = interrupt_api(twin, what, threads, moment)
    assert latency < BOUND[twin], (twin, what, threads, moment, latency)
    assert left == 0, "a helper thread outlived the search"


def cli_case(tmp_path: Path, twin: str) -> Path:
    """A graph6 file whose cop numbers take far longer than MOMENTS on ``twin``."""
    graph = incidence_pg2(5 if twin == "cython" else 3)
    path = tmp_path / "pg.g6"
    path.write_text(graph6(graph) * (1 if twin == "cython" else 20))
    return path


def graph6(lists: list[list[int]]) -> str:
    n = len(lists)
    bits = [int(i in lists[j]) for j in range(1, n) for i in range(j)]
    bits += [0] * (-len(bits) % 6)
    body = "".join(chr(63 + int("".join(map(str, bits[i:i + 6])), 2))
                   for i in range(0, len(bits), 6))
    size = chr(63 + n) if n < 63 else "~" + "".join(chr(63 + (n >> s & 63)) for s in (12, 6, 0))
    return size + body + "\n"


def interrupt_cli(twin: str, argv: list[str], number: int, moment: float) -> tuple[float, int,
                                                                                    str]:
    """Run ``catmouse argv`` on ``twin``, send signal ``number`` at ``moment`` s; (seconds
    to exit, exit status, stderr)."""
    variables = env()
    if twin == "python":  # the pure build's switch; the compiled session requires the other
        variables.pop("CATMOUSE_REQUIRE_EXTENSIONS", None)
        variables["CATMOUSE_NO_EXTENSIONS"] = "1"
    child = subprocess.Popen([sys.executable, "-c", "import signal; signal.signal("
                              "signal.SIGINT, signal.default_int_handler); import sys; "
                              "from catmouse.cli.commands import main; sys.exit(main())",
                              *argv], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=variables)
    try:
        time.sleep(moment)
        sent = time.monotonic()
        child.send_signal(number)
        _, err = child.communicate(timeout=30)
        return time.monotonic() - sent, child.returncode, err
    finally:
        child.kill()
        child.wait()


# The interpreter's start and catmouse's import come before the search: the moments are
# later here than in the Python API's tests.
CLI_MOMENTS = (1.0, 2.5)


@pytest.mark.parametrize("number, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_signal_stops_cop_number_mid_block(engine, tmp_path, jobs, number, status):
    twin = twin_of(engine)
    path = cli_case(tmp_path, twin)
    moment = random.uniform(*CLI_MOMENTS)
    spent, code, err = interrupt_cli(twin, ["cop-number", "--jobs", str(jobs), str(path)],
                                     number, moment)
    assert code == status, (code, err)
    # The interpreter's exit adds its own time (the threads' pools, atexit): a little slack.
    assert spent < BOUND[twin] + 0.5, (twin, jobs, moment, spent)
    assert "Traceback" not in err


def play_case(tmp_path: Path, twin: str) -> list[str]:
    """cop-play's arguments for a game whose solve takes far longer than CLI_MOMENTS."""
    graph, k = api_case(twin, "analyze")
    path = tmp_path / "play.g6"
    path.write_text(graph6(graph))
    return ["cop-play", str(path), "--cops", str(k)]


def test_ctrl_c_stops_cop_play_while_it_solves(engine, tmp_path):
    twin = twin_of(engine)
    spent, code, err = interrupt_cli(twin, play_case(tmp_path, twin), signal.SIGINT,
                                     random.uniform(*CLI_MOMENTS))
    assert code == 130, (code, err)
    assert spent < BOUND[twin] + 0.5, spent
    assert "interrupted" in err and "Traceback" not in err


def test_a_cancel_flag_stops_a_search_in_another_thread(engine):
    """A search in a worker thread (no signal reaches it) stops when its flag is set."""
    import threading
    from array import array

    twin = twin_of(engine)
    line = graph6(incidence_pg2(5 if twin == "cython" else 3)).encode() * 3
    cancel = array("i", [0])
    ended: list[object] = []

    def work():
        try:
            ended.append(engine.cop_numbers_graph6(line, 254, None, cancel=cancel))
        except KeyboardInterrupt as error:
            ended.append(error)

    worker = threading.Thread(target=work)
    worker.start()
    time.sleep(random.uniform(0.2, 1.0))
    sent = time.monotonic()
    cancel[0] = 1
    worker.join(timeout=10)
    assert not worker.is_alive() and time.monotonic() - sent < BOUND[twin]
    assert len(ended) == 1 and isinstance(ended[0], KeyboardInterrupt)


@pytest.mark.parametrize("flag, error", [(bytearray(4), ValueError), (b"\0\0\0\0", ValueError),
                                         ("x", TypeError), (memoryview(bytearray(0)).cast("i"),
                                                            ValueError)])
def test_a_cancel_flag_is_an_int_buffer(engine, flag, error):
    with pytest.raises(error, match="cancel must be"):
        engine.cop_number(3, [0, 1, 3, 4], [1, 0, 2, 1], 5, cancel=flag)
    with pytest.raises(error, match="cancel must be"):
        engine.cops_search(3, [0, 1, 3, 4], [1, 0, 2, 1], 1, cancel=flag)
