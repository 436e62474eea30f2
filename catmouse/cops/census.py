"""The census of cop numbers over all connected graphs of n nodes, in slices any worker takes.

nauty's ``geng -c n res/mod`` writes slice ``res`` of ``mod`` of the connected graphs on ``n``
nodes; the slices partition them, so their counts add up exactly.  :func:`census_slice`
counts one slice; :func:`census` counts every slice not yet recorded in a ledger file (one
JSON line a slice, appended as each finishes, so a restart skips what is done) through any
``map``: the built-in one, a process pool's, or a Dask client's (see docs/cops.rst).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from typing import Any

from .. import engine

__all__ = ["find_geng", "census_slice", "census"]

_BLOCK = 1 << 20


def find_geng() -> str:
    """The path of nauty's ``geng`` (Debian calls it ``nauty-geng``); OSError if missing."""
    found = shutil.which("geng") or shutil.which("nauty-geng")
    if found is None:
        raise OSError("nauty's geng is not installed (Debian: apt-get install nauty)")
    return found


def census_slice(n: int, res: int, mod: int, geng: str | None = None) -> dict[int, int]:
    """Cop number -> how many connected graphs of slice ``res``/``mod`` on ``n`` nodes have it.

    ``census_slice(5, 0, 1)``, all 21 connected graphs on 5 nodes, is ``{1: 16, 2: 5}``
    (OEIS A220840 and A220841); needs ``geng``, hence no doctest here.
    """
    if not 0 <= res < mod:
        raise ValueError(f"slice {res}/{mod}: res must be 0 to mod - 1")
    command = [geng or find_geng(), "-cq", str(n), f"{res}/{mod}"]
    counts: Counter[int] = Counter()
    with subprocess.Popen(command, stdout=subprocess.PIPE) as process:
        assert process.stdout is not None
        while True:
            lines = process.stdout.readlines(_BLOCK)
            if not lines:
                break
            counts.update(engine.current.cop_numbers_graph6(b"".join(lines), 254))
    if process.returncode:
        raise OSError(f"{command[0]} exited with status {process.returncode}")
    return dict(sorted(counts.items()))


def _numbered_slice(n: int, mod: int, res: int) -> tuple[int, dict[int, int]]:
    """``(res, counts)`` of one slice: a picklable job for process pools and Dask."""
    return res, census_slice(n, res, mod)


def _recorded(ledger: str, n: int, mod: int) -> Iterator[tuple[int, dict[int, int]]]:
    if not os.path.exists(ledger):
        return
    with open(ledger, encoding="utf-8") as file:
        for line in file:
            entry = json.loads(line)
            if entry["n"] == n and entry["mod"] == mod:
                yield entry["res"], {int(k): v for k, v in entry["counts"].items()}


def census(n: int, mod: int, ledger: str,
           map: Callable[..., Iterable[Any]] = map) -> dict[int, int]:
    """The whole census of ``n`` nodes in ``mod`` slices, resuming from ``ledger``.

    Each finished slice is appended to ``ledger`` at once; slices already there are not
    counted again.  ``map(function, residues)`` runs the slices (in any order it likes).
    ``census(6, 4, "census.jsonl")`` is ``{1: 68, 2: 44}`` (A220840(6), A220841(6)).
    """
    done = dict(_recorded(ledger, n, mod))
    todo = [res for res in range(mod) if res not in done]
    with open(ledger, "a", encoding="utf-8") as file:
        for res, counts in map(partial(_numbered_slice, n, mod), todo):
            file.write(json.dumps({"n": n, "res": res, "mod": mod, "counts": counts}) + "\n")
            file.flush()
            done[res] = counts
    total: Counter[int] = Counter()
    for counts in done.values():
        total.update(counts)
    return dict(sorted(total.items()))
