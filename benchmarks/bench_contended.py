"""The ``contended`` family of bench.py: the default thread count against one thread, on free
cores and on shared ones.

Three conditions, each measured in a fresh child process (``--child-contended``) so that
the cgroup one can hold the child alone:

- free: nothing else started by the benchmark (other load on the machine shows here);
- spinner: a second process spinning (``while 1: pass``), pinned to the last CPU where
  ``taskset`` is there, started before the child and stopped after it;
- quota: the child in a cgroup of 1.2 CPUs (cgroup v2 ``cpu.max`` "120000 100000", else
  cgroup v1 ``cpu.cfs_quota_us`` 120000 a period of 100000, else ``systemd-run --scope -p
  CPUQuota=120%``); skipped, with the reason printed, when none can be had (it needs root).

In each: ``analyze`` of the sparse 3000-node graph, ``threads=None`` against ``threads=1``,
timed in pairs (best of each, wall time), and ``solve_many`` of 20,000 random LeetCode-size
graphs (2,000 with ``--quick``) the same way.  The capacity, two spinning processes'
throughput over one's, is measured at the start and the end of the family, in the same run:
the figure the default's ratios are read against.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bench_tools import Table, big_family, capacity, fmt, random_graph

SPIN = "while 1: pass"
QUOTA = "120000 100000"


def child_contended(quick: bool) -> None:
    """Time the calls in this process and print them as JSON (the parent reads the line)."""
    import catmouse
    from catmouse.engine import bits_c
    from catmouse.engine.cpus import usable_cpus

    wall = time.perf_counter
    pairs = 3 if quick else 7
    graph = catmouse.Graph(big_family()["sparse n=3000 deg 4"]())
    rng = random.Random(913)
    count = 2000 if quick else 20000
    lists = [random_graph(rng, rng.randint(3, 50), rng.choice([0.1, 0.2, 0.4]))
             for _ in range(count)]

    def timed(call):
        start = wall()
        call()
        return wall() - start

    out = {"cpus": usable_cpus(), "restarts": 0, "first_cpus": []}
    catmouse.analyze(graph, threads=1)
    one, default = [], []
    for _ in range(pairs):
        one.append(timed(lambda: catmouse.analyze(graph, threads=1)))
        default.append(timed(lambda: catmouse.analyze(graph, threads=None)))
        restarts, _, _, first = bits_c._pace_counts()
        out["restarts"] += restarts
        out["first_cpus"].append(round(first, 2))
    out["analyze"] = [min(one), min(default), sorted(a / b for a, b in zip(one, default))]
    one, default = [], []
    for _ in range(pairs):
        one.append(timed(lambda: catmouse.solve_many(lists, threads=1)))
        default.append(timed(lambda: catmouse.solve_many(lists, threads=None)))
    out["batch"] = [min(one), min(default), sorted(a / b for a, b in zip(one, default))]
    print(json.dumps(out), flush=True)


def run_child(args: argparse.Namespace, prefix: list[str] | None = None,
              setup=None) -> dict:
    """Start the child (after ``prefix``), call ``setup(pid)`` before it starts timing."""
    here = Path(__file__).resolve().parent
    command = [sys.executable, str(here / "bench.py"), "--child-contended"]
    if args.quick:
        command.append("--quick")
    child = subprocess.Popen([*(prefix or []), *command], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    try:
        if setup is not None:
            setup(child.pid)
        out, _ = child.communicate("go\n", timeout=1800)
    finally:
        child.kill()
        child.wait()
    if child.returncode:
        raise RuntimeError(f"the timing child failed ({child.returncode})")
    return json.loads(out.strip().splitlines()[-1])


def cgroup_quota() -> tuple[Path | None, str, str]:
    """A fresh cgroup of 1.2 CPUs: (its folder or None, how it was made, why not)."""
    name = f"catmouse-bench-{os.getpid()}"
    reasons = []
    for root in (Path("/sys/fs/cgroup"), Path("/sys/fs/cgroup/unified")):
        controllers = root / "cgroup.controllers"
        if controllers.exists() and "cpu" in controllers.read_text().split():
            folder = root / name
            try:
                subtree = root / "cgroup.subtree_control"
                if "cpu" not in subtree.read_text().split():
                    subtree.write_text("+cpu")
                folder.mkdir()
                (folder / "cpu.max").write_text(QUOTA)
                return folder, f"cgroup v2 {folder}/cpu.max {QUOTA!r}", ""
            except OSError as error:
                reasons.append(f"cgroup v2 at {root}: {error}")
                _remove(folder)
    v1 = Path("/sys/fs/cgroup/cpu")
    if (v1 / "cpu.cfs_quota_us").exists():
        folder = v1 / name
        try:
            folder.mkdir()
            (folder / "cpu.cfs_period_us").write_text("100000")
            (folder / "cpu.cfs_quota_us").write_text("120000")
            return folder, f"cgroup v1 {folder} cfs_quota_us 120000 / period 100000", ""
        except OSError as error:
            reasons.append(f"cgroup v1: {error}")
            _remove(folder)
    return None, "", "; ".join(reasons) or "no cgroup cpu controller found"


def _remove(folder: Path) -> None:
    try:
        folder.rmdir()
    except OSError:
        pass


def bench_contended(args: argparse.Namespace, refs: object) -> Table:
    table = Table("contended: threads=None against threads=1 (speedup: time of threads=1 / "
                  "time of the default; goal >= 0.95 everywhere)",
                  ["condition", "CPUs seen", "analyze 1 ms", "default ms", "speedup",
                   "restarts", "batch 1 ms", "default ms", "speedup"])
    start_capacity = capacity()

    def add(name: str, got: dict) -> None:
        a1, ad, a_pairs = got["analyze"]
        b1, bd, b_pairs = got["batch"]
        table.add(name, str(got["cpus"]), fmt(a1 * 1e3, ".0f"), fmt(ad * 1e3, ".0f"),
                  fmt(a1 / ad, ".2f", "x"), f"{got['restarts']}/{len(a_pairs)}",
                  fmt(b1 * 1e3, ".0f"), fmt(bd * 1e3, ".0f"), fmt(b1 / bd, ".2f", "x"))
        table.note(f"{name}: pairs' own speedups, analyze {a_pairs[0]:.2f}-{a_pairs[-1]:.2f}, "
                   f"batch {b_pairs[0]:.2f}-{b_pairs[-1]:.2f}; CPUs the first window saw "
                   f"(the default's calls): {got['first_cpus']}")

    add("free", run_child(args))
    pin = ["taskset", "-c", str(os.cpu_count() - 1)] if shutil.which("taskset") else []
    spinner = subprocess.Popen([*pin, sys.executable, "-c", SPIN])
    try:
        add("spinner" + (" (pinned)" if pin else ""), run_child(args))
    finally:
        spinner.kill()
        spinner.wait()
    folder, how, why = cgroup_quota()
    if folder is not None:
        procs = folder / "cgroup.procs"
        try:
            add("quota 1.2 CPUs", run_child(args, setup=lambda pid: procs.write_text(str(pid))))
            table.note(f"quota: {how}")
        finally:
            _remove(folder)
    elif shutil.which("systemd-run"):
        try:
            add("quota 1.2 CPUs", run_child(args, ["systemd-run", "--scope", "--quiet", "-p",
                                                   "CPUQuota=120%"]))
            table.note("quota: systemd-run --scope -p CPUQuota=120%")
        except (OSError, RuntimeError) as error:
            table.note(f"quota skipped: {why}; systemd-run failed: {error}")
    else:
        table.note(f"quota skipped: {why}; no systemd-run")
    table.note(f"capacity (two spinning processes' throughput / one's): {start_capacity:.2f} "
               f"at the start, {capacity():.2f} at the end")
    table.note(f"{os.cpu_count()} CPUs; wall time, best of each in pairs")
    return table


def wait_for_go() -> None:
    """The child waits until the parent has placed it (a cgroup) before timing anything."""
    sys.stdin.readline()
