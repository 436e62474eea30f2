"""How many CPUs this process may use: what the default thread counts start from.

``os.cpu_count()`` counts the machine's CPUs.  A process pinned to fewer (``taskset``, a
container's cpuset) or given a share of CPU time (a container's ``--cpus``: its cgroup's
quota) that started a thread for each of the machine's CPUs would run them by turns, and
the engine's threads meet at a barrier every phase, so each waits for the others' time
slices: ``analyze`` of a 60x60 grid took 2.3 times as long with 64 threads on 2 CPUs as
with 2 threads (measured on a 2-vCPU VM).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from fractions import Fraction
from functools import cache
from pathlib import Path

__all__ = ["crew_cpus", "free_cpus", "quota_cpus", "quota_share", "running_elsewhere",
           "usable_cpus"]


def usable_cpus() -> int:
    """The CPUs this process can run threads on at once, at least 1.

    Its CPU affinity (``os.process_cpu_count()`` on Python 3.13 and later, which also
    honours ``PYTHON_CPU_COUNT``; ``os.sched_getaffinity`` before it, where there is one;
    else ``os.cpu_count()``), and no more than its cgroup CPU quota on Linux, rounded up.
    The affinity is read at each call (a program may change it); the quota once.

    Rounded up, not down: a batch's threads never wait for each other, so a quota of 1.2
    CPUs still gains from two; the general search's threads, which do, measure what they
    get and go on with one where two lose (pace.pxi).
    """
    count = _affinity_cpus()
    quota = _own_quota()
    if quota is not None and quota < count:
        count = quota
    return max(1, count)


def crew_cpus() -> int:
    """The CPUs for threads that meet at a barrier every phase (the general search's
    default count): usable_cpus, but the part of a CPU that a cgroup quota gives past its
    whole CPUs counts as a CPU only from half of one.

    Two threads of the search spend about 1.4 CPUs to run 1.2 times as fast as one (a
    sparse 3000-node graph on a 2-vCPU VM).  In a quota of 1.2 CPUs they are throttled
    within the quota's period, and a call took up to 1.33 times as long as on one thread
    (pairs of calls 0.75-1.47 times one thread's speed, 1.04-1.10 on average); in quotas
    of 1.5 and 1.8 none lost more than 1% (0.99-1.27).  A batch's threads, which never wait for each
    other, take usable_cpus as it is.
    """
    count = usable_cpus()
    share = _own_share()
    if share is not None:
        count = min(count, max(1, math.floor(share + Fraction(1, 2))))
    return count


def free_cpus(usable: int, loadavg: Path = Path("/proc/loadavg")) -> int:
    """Of ``usable`` CPUs, as many as other threads running right now leave (at least 1).

    A crew whose threads meet every phase loses to one thread when one of them has to share
    its CPU: beside one process spinning on the other of 2 CPUs, ``analyze`` of a sparse
    3000-node graph ran at 0.84-0.86 of one thread's speed, and at 0.93 with the crew's own
    pacing (whose restart repeats the start).  Linux's ``/proc/loadavg`` counts the threads
    running or ready to run, this one among them; the count is read only where this process
    may use every CPU of the machine (pinned to fewer, the machine's count says nothing of
    them).  Elsewhere, or where the file cannot be read, ``usable`` as it is.
    """
    machine = os.cpu_count() or usable
    if usable <= 1 or _affinity_cpus() != machine:
        return usable
    others = running_elsewhere(_read(loadavg))
    if others is None:
        return usable
    return max(1, min(usable, machine - others))


def running_elsewhere(loadavg: str) -> int | None:
    """Threads running or ready to run besides the caller, from ``/proc/loadavg``'s text
    (``0.57 1.14 1.38 2/345 12345``: 2 runnable, the reader one of them); None if unreadable.

    >>> running_elsewhere("0.57 1.14 1.38 2/345 12345")
    1
    """
    fields = loadavg.split()
    try:
        runnable = int(fields[3].split("/")[0])
    except (IndexError, ValueError):
        return None
    return max(0, runnable - 1)


def _affinity_cpus() -> int:
    process_cpu_count = getattr(os, "process_cpu_count", None)  # (Python 3.13 and later)
    if process_cpu_count is not None:
        return process_cpu_count() or 1
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # (no sched_getaffinity on macOS or Windows)
        return os.cpu_count() or 1


def _own_quota(own: Path = Path("/proc/self/cgroup"),
               root: Path = Path("/sys/fs/cgroup")) -> int | None:
    """This process's CPU quota in whole CPUs rounded up (quota_cpus), None if none."""
    share = _own_share(own, root)
    return None if share is None else math.ceil(share)


@cache
def _own_share(own: Path = Path("/proc/self/cgroup"),
               root: Path = Path("/sys/fs/cgroup")) -> Fraction | None:
    try:
        text = own.read_text(encoding="utf-8", errors="replace")
    except OSError:  # (not Linux, or no /proc)
        return None
    return quota_share(text, root)


def quota_cpus(own: str, root: Path) -> int | None:
    """quota_share in whole CPUs, rounded up; None if there is no quota."""
    share = quota_share(own, root)
    return None if share is None else math.ceil(share)


def quota_share(own: str, root: Path) -> Fraction | None:
    """The smallest CPU quota, in CPUs (exact: 150000 us a period of 100000 is 3/2), of the
    cgroups that ``own`` (the text of ``/proc/self/cgroup``) names under ``root`` and of
    every folder above them; None if none has one.

    cgroup v2 (lines ``0::path``) keeps the quota in ``cpu.max`` (``max 100000``: none;
    ``150000 100000``: 1.5 CPUs); v1 (a line whose controllers include ``cpu``) in
    ``cpu.cfs_quota_us`` (-1: none) and ``cpu.cfs_period_us``, under ``root/cpu``.  A
    container usually mounts its own cgroup at the root, so a named folder that is not
    there is passed over and its parents are read.  Files that cannot be read or make no
    sense are passed over too.
    """
    best: Fraction | None = None
    for line in own.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if controllers == "":
            base, read = root, _v2_quota
        elif "cpu" in controllers.split(","):
            base = root / "cpu"
            if not base.is_dir():
                base = root / controllers
            read = _v1_quota
        else:
            continue
        for folder in _upwards(base, path):
            cpus = read(folder)
            if cpus is not None and (best is None or cpus < best):
                best = cpus
    return best


def _upwards(base: Path, path: str) -> Iterator[Path]:
    """``base / path`` and each folder above it, up to ``base``."""
    names = [name for name in path.split("/") if name not in ("", ".", "..")]
    for depth in range(len(names), -1, -1):
        yield base.joinpath(*names[:depth])


def _v2_quota(folder: Path) -> Fraction | None:
    fields = _read(folder / "cpu.max").split()  # ("max" is no number: no quota)
    return _cpus(fields[0], fields[1]) if len(fields) == 2 else None


def _v1_quota(folder: Path) -> Fraction | None:
    return _cpus(_read(folder / "cpu.cfs_quota_us"), _read(folder / "cpu.cfs_period_us"))


def _cpus(quota: str, period: str) -> Fraction | None:
    try:
        q, p = int(quota), int(period)
    except ValueError:
        return None
    if q <= 0 or p <= 0:
        return None
    return Fraction(q, p)


def _read(file: Path) -> str:
    try:
        return file.read_text(encoding="ascii", errors="replace").strip()
    except (OSError, ValueError):
        return ""
