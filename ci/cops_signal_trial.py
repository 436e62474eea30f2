"""A trial of the k-cops paths under signals: RUNS runs, each a SIGINT (or SIGTERM, for the
command line) at a random moment of a long search, on both engines and both thread counts.

    PYTHONPATH=. python ci/cops_signal_trial.py [RUNS] [SEED]

Each run is one of: ``cop_number`` or ``CopsGame.analyze`` in Python (SIGINT), ``catmouse
cop-number`` (SIGINT or SIGTERM) or ``catmouse cop-play`` while it solves (SIGINT).  It prints
every run's stop time and, at the end, the worst per engine; the exit status is 1 if any run
passed its bound (1 s compiled, 2 s pure; the command line's runs get 0.5 s more for the
interpreter's exit) or did not stop as it should.  The searches are those of
tests/engine/test_cops_interrupt.py, whose helpers this script runs.
"""

from __future__ import annotations

import importlib.util
import random
import signal
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location(
    "cops_interrupt", HERE.parent / "tests" / "engine" / "test_cops_interrupt.py")
trial = importlib.util.module_from_spec(spec)
spec.loader.exec_module(trial)


def one_run(rng: random.Random, twin: str, threads: int, folder: Path) -> tuple[str, float,
                                                                                bool]:
    """(what ran, seconds to stop, within its bound and as it should)."""
    kind = rng.choice(["number", "analyze", "cli-int", "cli-term", "play"])
    if kind in ("number", "analyze"):
        latency, left = trial.interrupt_api(twin, kind, threads, rng.uniform(*trial.MOMENTS))
        return f"{kind} threads={threads}", latency, latency < trial.BOUND[twin] and left == 0
    moment = rng.uniform(*trial.CLI_MOMENTS)
    if kind == "play":
        spent, code, err = trial.interrupt_cli(twin, trial.play_case(folder, twin),
                                               signal.SIGINT, moment)
        ok = code == 130
    else:
        path = trial.cli_case(folder, twin)
        number = signal.SIGINT if kind == "cli-int" else signal.SIGTERM
        spent, code, err = trial.interrupt_cli(
            twin, ["cop-number", "--jobs", str(threads), str(path)], number, moment)
        ok = code == (130 if number == signal.SIGINT else 143)
    ok = ok and "Traceback" not in err and spent < trial.BOUND[twin] + 0.5
    return f"{kind} jobs={threads}", spent, ok


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 36)
    worst: dict[str, float] = defaultdict(float)
    failed = 0
    with tempfile.TemporaryDirectory() as folder:
        for k in range(runs):
            twin = ("cython", "python")[k % 2]
            threads = (1, 2)[k // 2 % 2]
            try:
                what, spent, ok = one_run(rng, twin, threads, Path(folder))
            except AssertionError as error:  # the search ended, or did not stop, unasked
                what, spent, ok = f"error: {error}", 0.0, False
            worst[twin] = max(worst[twin], spent)
            failed += not ok
            print(f"{k + 1:3} {twin:6} {what:22} {spent * 1000:7.1f} ms"
                  f"{'' if ok else '  FAILED'}", flush=True)
    for twin, spent in sorted(worst.items()):
        print(f"worst {twin}: {spent * 1000:.1f} ms")
    print(f"{failed} of {runs} runs failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
