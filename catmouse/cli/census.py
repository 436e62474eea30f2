"""``catmouse census N``: every connected graph on N nodes by cop number, in geng's slices.

The command drives ``geng -c N res/mod`` itself, ``--jobs`` slices at a time in worker
processes, and appends each finished slice to the ledger (catmouse.cops.census), so a run
killed at any moment loses only the slices in flight and the same command resumes it.
A progress line on stderr gives the slices done, graphs a second and the time left.
"""

from __future__ import annotations

import argparse
import itertools
import math
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import Any

from ..cops import census as _census
from ..engine.cpus import usable_cpus
from .outputs import WriteFailed, check_target

__all__ = ["add_command", "run", "default_mod"]

PROGRESS_EVERY = 1.0
SLICE_GRAPHS = 1_000_000  # the default slice: about a second or two of one core


def default_mod(n: int) -> int:
    """Slices of about a million graphs, a power of ten: 1000 at n = 11, 100000 at 12; at most
    10^9, which geng takes (it cut 10^10 and 10^11, the defaults at 15 and 16, otherwise)."""
    graphs = _census.CONNECTED.get(n, 10 ** (n + 1))
    return min(max(1, 10 ** round(math.log10(graphs / SLICE_GRAPHS))), 10 ** 9)


def add_command(commands: argparse._SubParsersAction) -> None:
    """Register ``census`` on the CLI's subcommands."""
    help = "count every connected graph on N nodes by cop number (needs nauty's geng)"
    sub = commands.add_parser(name="census", help=help, description=help + (
        ": geng's res/mod slices are counted in worker processes and appended to a ledger "
        "as each finishes; the same command resumes a killed run. Prints 'k count' lines."))
    sub.add_argument("n", type=int, metavar="N", help="the number of nodes (1 to 16)")
    sub.add_argument("--mod", type=int, metavar="M",
                     help="slices (default: the ledger's, else about a million graphs each: "
                          "1000 at N = 11)")
    sub.add_argument("--ledger", metavar="PATH",
                     help="the ledger, one JSON line a slice (default: census-N.jsonl)")
    sub.add_argument("--jobs", type=int, metavar="J",
                     help="slices counted at once, in worker processes (default: usable CPUs)")
    sub.add_argument("--three-cops", metavar="FILE",
                     help="write the graphs needing 3 or more cops to FILE once all slices "
                          "are counted: graph6 in nauty's canonical labelling (labelg), sorted")
    sub.add_argument("--check", metavar="PROGRAM",
                     help="also feed each slice's graphs to PROGRAM -c (benchmarks/dismantlable.c "
                          "built): its dismantlable count must equal the cop-win count")
    sub.add_argument("--progress", action="store_true",
                     help="report progress on stderr (default: when stderr is a terminal)")


def _quiet_worker() -> None:
    # Ctrl-C is the parent's to handle (it ends the pool); SIGTERM ends a worker at once.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # A census killed outright (SIGKILL, the OOM killer) cannot end its pool: its workers
    # would wait for slices for ever, holding its output open.  They end with it.
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent.sentinel,), daemon=True).start()


def _end_with(sentinel: int) -> None:
    """End this worker once the process behind ``sentinel`` has ended."""
    multiprocessing.connection.wait([sentinel])
    os._exit(1)


def _pool_map(jobs: int) -> tuple[Callable[..., Iterable[Any]], Callable[[], None]]:
    """A map yielding each slice as it finishes (a kill loses only those running), and the
    pool's end: its workers stopped at once.

    concurrent.futures' process pool, not multiprocessing's Pool: a worker killed while it
    waited for a slice or handed one back (SIGTERM to the census' whole process group: kill
    -TERM -PGID, a batch system's stop) kept a lock of Pool's queues, and Pool's terminate
    then waited for that lock for ever.  This pool takes a dead worker for a broken pool and
    ends the others without taking their locks."""
    pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context(),
                               initializer=_quiet_worker)

    def unordered(job: Callable[[int], Any], residues: Iterable[int]) -> Iterator[Any]:
        left = iter(residues)  # (handed out as workers free up: never a list of them all)
        running = {pool.submit(job, res) for res in itertools.islice(left, 2 * jobs)}
        while running:
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                running |= {pool.submit(job, res) for res in itertools.islice(left, 1)}
                yield future.result()

    def close() -> None:
        # The slices being counted are stopped, not finished (Ctrl-C stops at once); the
        # pool then finds its workers gone and winds up.
        for worker in multiprocessing.active_children():
            worker.terminate()
        pool.shutdown(wait=True, cancel_futures=True)

    return unordered, close


class _Progress:
    """The progress line: slices done, graphs a second (this run), time left."""

    def __init__(self, n: int, records: dict[int, dict[str, Any]], show: bool) -> None:
        self.n, self.show = n, show
        self.began = self.shown = time.monotonic()
        self.counted = sum(sum(r["counts"].values()) for r in records.values())
        self.this_run = self.ran = 0

    def __call__(self, record: dict[str, Any], done: int, slices: int) -> None:
        graphs = sum(record["counts"].values())
        self.ran += 1
        self.counted += graphs
        self.this_run += graphs
        now = time.monotonic()
        if self.show and (now - self.shown >= PROGRESS_EVERY or done == slices):
            self.shown = now
            rate = self.this_run / max(now - self.began, 1e-9)
            total = _census.CONNECTED.get(self.n)
            if total is not None and rate > 0:
                left = _duration(max(total - self.counted, 0) / rate)
            else:  # no known total: by slices
                left = _duration((slices - done) * (now - self.began) / max(self.ran, 1))
            print(f"census {self.n}: {done:,}/{slices:,} slices, {self.counted:,} graphs, "
                  f"{rate:,.0f} a second, {left} left", file=sys.stderr, flush=True)


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


def _checks(n: int, args: argparse.Namespace) -> tuple[int, str, int]:
    if not 1 <= n <= 16:
        raise ValueError(f"N must be 1 to 16 nodes, not {n}")
    # '-' is no file for either: the counts go to stdout, and a ledger is read back to resume.
    if args.ledger == "-":
        raise ValueError("--ledger takes a file name, not '-': the census reads its ledger "
                         "again to resume")
    if args.three_cops == "-":
        raise ValueError("--three-cops takes a file name, not '-': standard output carries "
                         "the 'k count' lines")
    ledger = args.ledger or f"census-{n}.jsonl"
    mod = args.mod
    if mod is None:
        mods = _census.ledger_mods(ledger, n)
        if len(mods) > 1:
            raise ValueError(f"{ledger} holds censuses of {n} nodes in {sorted(mods)} slices: "
                             "give --mod")
        mod = mods.pop() if mods else default_mod(n)
    if not 1 <= mod <= _census.MOST_SLICES:
        raise ValueError(f"--mod must be 1 to {_census.MOST_SLICES} (geng reads it as a C "
                         f"int), not {mod}")
    jobs = usable_cpus() if args.jobs is None else args.jobs
    if not 1 <= jobs <= 1024:
        raise ValueError(f"--jobs must be 1 to 1024, not {jobs}")
    return mod, ledger, jobs


def run(args: argparse.Namespace) -> int:
    """The command: see the module docstring.  Returns the exit status."""
    try:
        mod, ledger, jobs = _checks(args.n, args)
        _census.find_geng()
        if args.three_cops:
            _census.find_labelg()
            # Before counting: a bad path, or the ledger itself (its slices would be replaced
            # by the 3-cop graphs' list once the census is done).
            check_target(args.three_cops, (ledger,), "the census keeps as its ledger")
        return _run(args, mod, ledger, jobs)
    except KeyboardInterrupt:
        print("catmouse: census interrupted: the ledger keeps every finished slice; "
              "the same command resumes", file=sys.stderr)
        return 130
    except (OSError, ValueError, WriteFailed) as error:
        print(f"catmouse: error: census {args.n}: {' '.join(str(error).split())}",
              file=sys.stderr)
        return 1


def _run(args: argparse.Namespace, mod: int, ledger: str, jobs: int) -> int:
    n = args.n
    show = args.progress or sys.stderr.isatty()
    before = _census.read_ledger(ledger, n, mod)
    if show:
        print(f"census {n}: {mod:,} slices, {len(before):,} in {ledger} already, "
              f"{jobs} jobs", file=sys.stderr, flush=True)
    progress = _Progress(n, before, show)
    began = time.monotonic()
    if jobs == 1 or len(before) >= mod - 1:
        totals = _census.census(n, mod, ledger, check=args.check, progress=progress)
    else:
        unordered, close = _pool_map(jobs)
        try:
            totals = _census.census(n, mod, ledger, map=unordered, check=args.check,
                                    progress=progress)
        finally:
            close()
    records = _census.read_ledger(ledger, n, mod)
    for c, count in totals.items():
        sys.stdout.write(f"{c} {count}\n")
    sys.stdout.flush()
    status = _verdict(n, mod, ledger, records, totals, args.check is not None)
    if show:
        print(f"census {n}: {time.monotonic() - began:.1f} s this run", file=sys.stderr)
    if args.three_cops:
        written = _census.write_three_cop_graphs(args.three_cops, records)
        print(f"census {n}: wrote {written} graphs needing 3 or more cops to {args.three_cops}",
              file=sys.stderr)
    return status


def _verdict(n: int, mod: int, ledger: str, records: dict[int, dict[str, Any]],
             totals: dict[int, int], checked: bool) -> int:
    """Check the totals against the known number of connected graphs and the independent
    count where the ledger has it; 0, or 1 after saying what disagrees."""
    status = 0
    known = _census.CONNECTED.get(n)
    graphs = sum(totals.values())
    if known is not None and graphs != known:
        slices = f"the {mod} slices" if mod != 1 else "the one slice"
        print(f"catmouse: error: census {n}: {slices} of {ledger} add up to {graphs:,} "
              f"graphs, not the {known:,} connected graphs on {n} nodes", file=sys.stderr)
        status = 1
    if checked:
        differ = [res for res, r in sorted(records.items())
                  if "dismantlable" in r and r["dismantlable"] != r["counts"].get(1, 0)]
        if differ:
            print(f"catmouse: error: census {n}: the dismantlable count differs from the "
                  f"cop-win count on {len(differ)} slices (the first {differ[0]}/{mod})",
                  file=sys.stderr)
            status = 1
    return status
