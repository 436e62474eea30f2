"""The independent check of a census ledger's cop-win counts, slice by slice.

A connected graph is cop-win exactly when it is dismantlable (Nowakowski and Winkler;
Quilliot); ``benchmarks/dismantlable.c`` counts dismantlable graphs and shares no code with
catmouse.  The cheap way is to count both on the same geng output while the census runs
(``catmouse census 11 --check ./dismantlable``: geng runs once a slice, and each ledger line
gets ``dismantlable``).  This script reads a ledger and, for each slice of the census:

- with a ``dismantlable`` field, checks it equals the slice's cop-win count;
- without one (a census run without ``--check``), runs ``geng -cq N res/mod | dismantlable
  -c`` (geng a second time) and compares.

::

    PYTHONPATH=. python benchmarks/census_check.py benchmarks/results/census-11.jsonl 11 1000

Prints one line per disagreement and a summary (slices agreeing, graphs, the CPU seconds of
geng and of the check where it ran them); exit status 1 on any disagreement or missing slice.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from catmouse.cops.census import find_geng, read_ledger

HERE = Path(__file__).resolve().parent


def build(folder: str) -> str:
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        raise OSError("no C compiler to build benchmarks/dismantlable.c")
    program = os.path.join(folder, "dismantlable")
    subprocess.run([compiler, "-O2", "-o", program, str(HERE / "dismantlable.c")], check=True)
    return program


def recount(geng: str, program: str, n: int, res: int, mod: int) -> tuple[int, float, float]:
    """(dismantlable graphs, geng CPU s, check CPU s) of slice res/mod."""
    source = subprocess.Popen([geng, "-cq", str(n), f"{res}/{mod}"], stdout=subprocess.PIPE)
    check = subprocess.Popen([program, "-c"], stdin=source.stdout, stdout=subprocess.PIPE)
    assert source.stdout is not None and check.stdout is not None
    source.stdout.close()
    said = check.stdout.read().decode()
    check.stdout.close()
    _, geng_status, geng_usage = os.wait4(source.pid, 0)
    _, check_status, check_usage = os.wait4(check.pid, 0)
    source.returncode, check.returncode = geng_status, check_status
    if geng_status or check_status:
        raise OSError(f"slice {res}/{mod}: geng or the check failed")
    count = int(said.split("dismantlable")[1].split()[0])
    return (count, geng_usage.ru_utime + geng_usage.ru_stime,
            check_usage.ru_utime + check_usage.ru_stime)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ledger")
    parser.add_argument("n", type=int)
    parser.add_argument("mod", type=int)
    parser.add_argument("--program", help="dismantlable.c built (default: built here)")
    args = parser.parse_args()
    records = read_ledger(args.ledger, args.n, args.mod)
    missing = sorted(set(range(args.mod)) - set(records))
    bad = 0
    ran = graphs = 0
    geng_cpu = check_cpu = 0.0
    with tempfile.TemporaryDirectory() as folder:
        program = args.program or None
        for res in sorted(records):
            record = records[res]
            cop_win = record["counts"].get(1, 0)
            graphs += sum(record["counts"].values())
            if "dismantlable" in record:
                count = record["dismantlable"]
            else:
                program = program or build(folder)
                count, g, c = recount(find_geng(), program, args.n, res, args.mod)
                ran += 1
                geng_cpu += g
                check_cpu += c
            if count != cop_win:
                bad += 1
                print(f"slice {res}/{args.mod}: dismantlable {count}, cop-win {cop_win}")
    print(f"{len(records) - bad} of {args.mod} slices agree ({len(missing)} missing, "
          f"{bad} differ) over {graphs:,} graphs; counted again here: {ran} slices, "
          f"geng {geng_cpu:.1f} CPU s, check {check_cpu:.1f} CPU s")
    return 1 if bad or missing else 0


if __name__ == "__main__":
    sys.exit(main())
