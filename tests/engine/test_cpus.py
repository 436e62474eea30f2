"""The CPUs the default thread counts start from: affinity and cgroup quota (engine/cpus.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from catmouse.engine import cpus
from catmouse.engine.cpus import crew_cpus, quota_cpus, quota_share, usable_cpus


def write(folder: Path, **files: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name.replace("_", ".", 1)).write_text(text)


def test_v2_quota_rounds_up_and_takes_the_smallest_on_the_way_up(tmp_path):
    write(tmp_path / "a" / "b", cpu_max="250000 100000\n")  # 2.5 CPUs: 3
    assert quota_cpus("0::/a/b\n", tmp_path) == 3
    write(tmp_path / "a", cpu_max="100000 100000\n")  # a parent's quota binds too
    assert quota_cpus("0::/a/b\n", tmp_path) == 1
    write(tmp_path / "a", cpu_max="max 100000\n")
    assert quota_cpus("0::/a/b\n", tmp_path) == 3
    write(tmp_path / "a" / "b", cpu_max="max 100000\n")
    assert quota_cpus("0::/a/b\n", tmp_path) is None


def test_quotas_below_one_cpu_and_short_periods(tmp_path):
    for cpu_max, whole in [("1 100000", 1), ("3 1", 3), ("100000 100000", 1),
                          ("100001 100000", 2)]:
        write(tmp_path, cpu_max=cpu_max)
        assert quota_cpus("0::/\n", tmp_path) == whole, cpu_max


def test_a_path_may_hold_colons(tmp_path):
    write(tmp_path / "a:b", cpu_max="200000 100000")
    assert quota_cpus("0::/a:b\n", tmp_path) == 2


def test_the_process_s_own_files(tmp_path):
    write(tmp_path / "fs" / "job", cpu_max="200000 100000")
    (tmp_path / "cgroup").write_text("0::/job\n")
    assert cpus._own_quota(tmp_path / "cgroup", tmp_path / "fs") == 2
    assert cpus._own_quota(tmp_path / "none", tmp_path / "fs") is None


def test_a_container_s_own_cgroup_at_the_root(tmp_path):
    # /proc/self/cgroup names the host's path, which is not mounted in the container.
    write(tmp_path, cpu_max="50000 100000")
    assert quota_cpus("0::/docker/3bd43011\n", tmp_path) == 1


def test_v1_quota_under_the_cpu_controller(tmp_path):
    own = "4:memory:/x\n3:cpu,cpuacct:/job\n0::/\n"
    write(tmp_path / "cpu" / "job", cpu_cfs_quota_us="300000", cpu_cfs_period_us="100000")
    write(tmp_path / "cpu", cpu_cfs_quota_us="-1", cpu_cfs_period_us="100000")
    assert quota_cpus(own, tmp_path) == 3
    write(tmp_path / "cpu" / "job", cpu_cfs_quota_us="-1", cpu_cfs_period_us="100000")
    assert quota_cpus(own, tmp_path) is None


def test_v1_controller_folder_by_its_own_name(tmp_path):
    write(tmp_path / "cpu,cpuacct", cpu_cfs_quota_us="150000", cpu_cfs_period_us="100000")
    assert quota_cpus("2:cpu,cpuacct:/\n", tmp_path) == 2


@pytest.mark.parametrize("cpu_max", ["", "\n", "lots 100000", "100000", "100000 0",
                                     "-5 100000", "0 100000", "1e9 100000", "1 2 3",
                                     "\udcff 100000"])
def test_absurd_files_are_passed_over(tmp_path, cpu_max):
    (tmp_path / "cpu.max").write_text(cpu_max, errors="surrogateescape")
    assert quota_cpus("0::/\n", tmp_path) is None


def test_absurd_proc_lines_and_no_files(tmp_path):
    write(tmp_path / "b", cpu_max="100000 100000")
    assert quota_cpus("", tmp_path) is None
    assert quota_cpus("garbage\n1:cpuset:/\n::::\n", tmp_path) is None
    write(tmp_path.parent / "out", cpu_max="100000 100000")
    assert quota_cpus("0::/../out\n", tmp_path) is None  # (no climbing out of the root)
    assert quota_cpus("0::/nothing/here\n", tmp_path / "missing") is None


def test_the_share_is_exact_and_the_smallest(tmp_path):
    write(tmp_path / "a" / "b", cpu_max="150000 100000\n")
    assert quota_share("0::/a/b\n", tmp_path) == Fraction(3, 2)
    write(tmp_path / "a", cpu_max="120000 100000\n")
    assert quota_share("0::/a/b\n", tmp_path) == Fraction(6, 5)
    assert quota_cpus("0::/a/b\n", tmp_path) == 2
    write(tmp_path, cpu_max="max 100000\n")
    assert quota_share("0::/a/b\n", tmp_path) == Fraction(6, 5)
    (tmp_path / "cgroup").write_text("0::/a/b\n")
    assert cpus._own_share(tmp_path / "cgroup", tmp_path) == Fraction(6, 5)
    assert cpus._own_quota(tmp_path / "cgroup", tmp_path) == 2


@pytest.mark.parametrize("share, affinity, crew", [
    (None, 2, 2), (Fraction(6, 5), 2, 1), (Fraction(3, 2), 2, 2), (Fraction(149, 100), 2, 1),
    (Fraction(9, 5), 2, 2), (Fraction(1, 10), 2, 1), (Fraction(5, 2), 8, 3),
    (Fraction(12, 5), 8, 2), (Fraction(7, 2), 2, 2), (Fraction(1), 2, 1)])
def test_the_crew_counts_a_quota_s_part_cpu_from_half_a_cpu(monkeypatch, share, affinity, crew):
    # A batch's threads (usable_cpus) take the quota rounded up; the general search's crew,
    # whose threads wait for each other every phase, only where the part is half a CPU.
    monkeypatch.setattr(cpus, "_affinity_cpus", lambda: affinity)
    monkeypatch.setattr(cpus, "_own_share", lambda: share)
    monkeypatch.setattr(cpus, "_own_quota", lambda: None if share is None else -(-share // 1))
    assert crew_cpus() == crew
    assert usable_cpus() == min(affinity, affinity if share is None else -(-share // 1))


def test_the_quota_caps_the_affinity(monkeypatch):
    monkeypatch.setattr(cpus, "_affinity_cpus", lambda: 8)
    monkeypatch.setattr(cpus, "_own_quota", lambda: 3)
    assert usable_cpus() == 3
    monkeypatch.setattr(cpus, "_own_quota", lambda: 16)
    assert usable_cpus() == 8
    monkeypatch.setattr(cpus, "_own_quota", lambda: None)
    assert usable_cpus() == 8


def test_the_affinity_s_sources_in_order(monkeypatch):
    monkeypatch.setattr(cpus, "_own_quota", lambda: None)
    monkeypatch.setattr(os, "process_cpu_count", lambda: 5, raising=False)
    assert usable_cpus() == 5
    monkeypatch.setattr(os, "process_cpu_count", lambda: None, raising=False)
    assert usable_cpus() == 1
    monkeypatch.delattr(os, "process_cpu_count", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity",  # (pid 0: this process)
                        lambda pid: {0, 3} if pid == 0 else set(range(64)), raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 64)
    assert usable_cpus() == 2
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(), raising=False)
    assert usable_cpus() == 1

    def refused(pid):
        raise OSError("no")

    monkeypatch.setattr(os, "sched_getaffinity", refused, raising=False)
    assert usable_cpus() == 64
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)
    assert usable_cpus() == 64
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert usable_cpus() == 1


PINNED = """
import os, catmouse
from catmouse import batch, rules
from catmouse.engine.facts import THREADS_FROM_NODES
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
ring = [[(v - 1) % 400, (v + 1) % 400] for v in range(400)]
print(rules.check_threads(None, THREADS_FROM_NODES), batch._threads(None, [ring]),
      catmouse.analyze(catmouse.Graph(ring)).outcome(1, 2))
"""


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity here")
def test_a_process_pinned_to_one_cpu_defaults_to_one_thread():
    env = dict(os.environ)
    env.pop("PYTHON_CPU_COUNT", None)  # (Python 3.13's override of the count)
    done = subprocess.run([sys.executable, "-c", PINNED], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "1", "MOUSE_WIN"]


def test_other_running_threads_leave_fewer_cpus_to_the_default(tmp_path, monkeypatch):
    """/proc/loadavg's runnable count, the reader among them: on 2 CPUs beside one busy thread
    the default is one thread; with none it is both; pinned to fewer CPUs than the machine's,
    or with nothing to read, the count is left alone."""
    from catmouse import rules
    from catmouse.engine import cpus

    loadavg = tmp_path / "loadavg"
    monkeypatch.setattr(cpus.os, "cpu_count", lambda: 2)
    monkeypatch.setattr(cpus, "_affinity_cpus", lambda: 2)
    for text, free in [("0.50 0.40 0.30 1/200 99", 2), ("1.00 0.90 0.80 2/201 99", 1),
                       ("3.00 2.00 1.00 7/300 99", 1), ("0 0 0 0/10 9", 2), ("", 2),
                       ("0.1 0.1 0.1 x/10 9", 2)]:
        loadavg.write_text(text)
        assert cpus.free_cpus(2, loadavg) == free, text
    assert cpus.free_cpus(1, loadavg) == 1
    loadavg.write_text("1.00 0.90 0.80 2/201 99")
    monkeypatch.setattr(cpus, "_affinity_cpus", lambda: 1)
    assert cpus.free_cpus(2, loadavg) == 2  # (pinned: the machine's count says nothing)
    # The default thread count of a big game goes through it; explicit counts do not.
    monkeypatch.setattr(rules, "free_cpus", lambda usable: 1)
    monkeypatch.setattr(rules, "crew_cpus", lambda: 2)
    assert rules.check_threads(None, 5000) == 1
    assert rules.check_threads(2, 5000) == 2
    assert cpus.running_elsewhere("0.57 1.14 1.38 2/345 12345") == 1
    assert cpus.running_elsewhere("garbage") is None
