"""Benchmark: the census's throughput per core, and the plan for n = 12 from a sample of slices.

Run from a checkout against the engine built in place, on a quiet machine::

    PYTHONPATH=. python benchmarks/census_bench.py 9 --mod 10 --slices 10     # every slice
    PYTHONPATH=. python benchmarks/census_bench.py 10 --mod 100 --slices 10   # 10 spread
    PYTHONPATH=. python benchmarks/census_bench.py 11 --mod 1000 --slices 20
    PYTHONPATH=. python benchmarks/census_bench.py 12 --mod 100000 --slices 24 --night 8

For each slice (``--slices`` of them, spread evenly over 0..mod-1) it times ``geng -c N
res/mod`` alone into /dev/null, then the census of the slice in one process (geng piped into
the engine, as ``catmouse census`` does it, with ``--check PROGRAM`` also fed to the
independent dismantlable count), all as CPU seconds from the kernel (wait4), so other jobs on
the machine do not count.  It prints one line a slice, then graphs a second per core with
and without geng's own time, and the whole census projected from the sample: the mean CPU
seconds a slice times ``mod``, with the spread of the slices (min, max, and a 95% interval of
the mean), and the cores needed to finish in ``--night`` hours.  ``--out FILE`` appends the
report to FILE too (``benchmarks/results/census.txt``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

from catmouse.cops.census import CONNECTED, count_slice, find_geng


def geng_alone(geng: str, n: int, res: int, mod: int) -> float:
    """CPU seconds of ``geng -cq n res/mod`` writing into /dev/null."""
    with open(os.devnull, "wb") as sink:
        process = subprocess.Popen([geng, "-cq", str(n), f"{res}/{mod}"], stdout=sink)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise OSError(f"{geng} exited with status {process.returncode}")
    return usage.ru_utime + usage.ru_stime


def spread(mod: int, count: int) -> list[int]:
    """``count`` residues spread evenly over 0..mod-1 (all of them if count >= mod)."""
    if count >= mod:
        return list(range(mod))
    return sorted({round(i * (mod - 1) / (count - 1)) for i in range(count)}) if count > 1 else [0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("--mod", type=int, required=True)
    parser.add_argument("--slices", type=int, default=20)
    parser.add_argument("--check", metavar="PROGRAM", help="dismantlable.c built")
    parser.add_argument("--night", type=float, default=8.0, help="hours for the cluster plan")
    parser.add_argument("--out", metavar="FILE")
    args = parser.parse_args()
    geng = find_geng()
    lines = [f"# census_bench n={args.n} mod={args.mod} slices={args.slices} "
             f"check={'yes' if args.check else 'no'} load={os.getloadavg()[0]:.2f} "
             f"at {time.strftime('%Y-%m-%d %H:%M')}",
             "res graphs geng_alone_cpu census_cpu(catmouse+geng) check_cpu wall"]
    print(lines[0], file=sys.stderr)
    rows = []
    for res in spread(args.mod, args.slices):
        alone = geng_alone(geng, args.n, res, args.mod)
        record = count_slice(args.n, res, args.mod, geng, args.check)
        census_cpu = record["cpu_seconds"] + (record["geng_cpu_seconds"] or 0.0)
        check_cpu = record.get("check_cpu_seconds") or 0.0
        rows.append((res, record["graphs"], alone, census_cpu, check_cpu))
        lines.append(f"{res} {record['graphs']} {alone:.3f} {census_cpu:.3f} {check_cpu:.3f} "
                     f"{record['seconds']:.3f}")
        print(lines[-1], file=sys.stderr)
    graphs = sum(r[1] for r in rows)
    geng_cpu = sum(r[2] for r in rows)
    census_cpu = sum(r[3] for r in rows)
    check_cpu = sum(r[4] for r in rows)
    lines.append(f"graphs a second per core: {graphs / census_cpu:,.0f} with geng, "
                 f"{graphs / max(census_cpu - geng_cpu, 1e-9):,.0f} without geng's own time "
                 f"(geng alone: {graphs / max(geng_cpu, 1e-9):,.0f})"
                 + (f"; the check adds {check_cpu / graphs * 1e6:.3f} us a graph"
                    if args.check else ""))
    per_slice = [r[3] + r[4] for r in rows]
    mean = statistics.fmean(per_slice)
    half = (1.96 * statistics.stdev(per_slice) / len(per_slice) ** 0.5
            if len(per_slice) > 1 else 0.0)
    total = mean * args.mod
    lines.append(f"slice CPU s: min {min(per_slice):.3f}, mean {mean:.3f}, "
                 f"max {max(per_slice):.3f}; projected census: {total:,.0f} CPU s "
                 f"(95% of the mean: {(mean - half) * args.mod:,.0f} to "
                 f"{(mean + half) * args.mod:,.0f})")
    known = CONNECTED.get(args.n)
    if known:
        lines.append(f"by graphs: {known:,} graphs x {(census_cpu + check_cpu) / graphs * 1e6:.3f}"
                     f" us = {known * (census_cpu + check_cpu) / graphs:,.0f} CPU s")
    cores = total / (args.night * 3600)
    lines.append(f"cores for {args.night:g} h: {cores:,.1f} (mean), "
                 f"{(mean + half) * args.mod / (args.night * 3600):,.1f} (upper end)")
    report = "\n".join(lines) + "\n"
    sys.stdout.write("\n".join(lines[len(rows) + 2:]) + "\n")
    if args.out:
        with open(args.out, "a", encoding="utf-8") as file:
            file.write(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
