"""The census of cop numbers over all connected graphs of n nodes, in slices any worker takes.

nauty's ``geng -c n res/mod`` writes slice ``res`` of ``mod`` of the connected graphs on ``n``
nodes; the slices partition them, so their counts add up exactly.  :func:`count_slice`
counts one slice; :func:`census` counts every slice not yet recorded in a ledger file (one
JSON line a slice, appended as each finishes, so a run killed at any moment loses only the
slices in flight and a restart skips what is done) through any ``map``: the built-in one, a
process pool's, or a Dask client's (see docs/cops.rst).

A ledger line holds the slice (``n``, ``res``, ``mod``), its ``counts`` (cop number ->
graphs), and since 0.3 also its ``graphs``, its wall ``seconds``, the CPU seconds of the
counting process and of ``geng``, the graphs needing 3 or more cops (``three_cops``, graph6
as geng wrote them), and which ``catmouse``, ``geng`` and ``machine`` counted it.  Lines of
older ledgers (``n``, ``res``, ``mod``, ``counts`` only) are read the same way.
"""

from __future__ import annotations

import bisect
import json
import os
import platform
import shutil
import stat
import subprocess
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache, partial
from typing import Any, overload

from .. import engine
from ..io.atomic import replacing
from ..version import __version__

__all__ = ["CONNECTED", "MOST_SLICES", "find_geng", "find_labelg", "census_slice",
           "count_slice", "census", "read_ledger", "ledger_mods", "totals", "canonical_graph6",
           "write_three_cop_graphs"]

_BLOCK = 1 << 20
# The engine's most cops a graph6 line is searched for (255 marks a graph past it).
_MOST = 254
# The connected graphs on n nodes (OEIS A001349): what the slices of a census add up to.
CONNECTED = {1: 1, 2: 1, 3: 2, 4: 6, 5: 21, 6: 112, 7: 853, 8: 11117, 9: 261080,
             10: 11716571, 11: 1006700565, 12: 164059830476, 13: 50335907869219}
#: The most slices geng cuts: it reads ``res/mod`` as C ints, and past this it counts another
#: slice than the one asked for, silently (``0/4294967297`` is every graph).
MOST_SLICES = 2**31 - 1


def _find(names: tuple[str, str]) -> str:
    for name in names:
        found = shutil.which(name)
        if found is not None:
            return found
    raise OSError(f"nauty's {names[0]} is not installed (Debian: apt-get install nauty)")


def find_geng() -> str:
    """The path of nauty's ``geng`` (Debian calls it ``nauty-geng``); OSError if missing."""
    return _find(("geng", "nauty-geng"))


def find_labelg() -> str:
    """The path of nauty's ``labelg`` (Debian: ``nauty-labelg``); OSError if missing."""
    return _find(("labelg", "nauty-labelg"))


@cache
def _provenance(geng: str) -> dict[str, Any]:
    """Which catmouse, geng and machine count: the same for every slice of one process."""
    return {"catmouse": _catmouse_version(), "geng": _geng_version(geng),
            "machine": {"platform": platform.platform(), "cpu": _cpu_model(),
                        "cores": os.cpu_count()}}


def _catmouse_version() -> str:
    here = os.path.dirname(os.path.abspath(__file__))
    words = [__version__, f"{engine.current.name} engine"]
    try:
        commit = subprocess.run(["git", "-C", here, "rev-parse", "--short=12", "HEAD"],
                                capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(["git", "-C", here, "status", "--porcelain",
                                "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return ", ".join(words)
    if commit.returncode == 0 and commit.stdout.strip():
        changed = " with local changes" if dirty.returncode == 0 and dirty.stdout else ""
        words.insert(1, f"git {commit.stdout.strip()}{changed}")
    return ", ".join(words)


def _geng_version(geng: str) -> str:
    try:
        said = subprocess.run([geng, "--version"], capture_output=True, text=True, timeout=10)
        version = (said.stdout or said.stderr).strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        version = "version unknown"
    return f"{version} ({geng})"


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as file:
            for line in file:
                if line.startswith("model name"):
                    return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _counts_of(numbers: bytes, counts: dict[int, int]) -> None:
    """Add the cop numbers of a block to ``counts`` (bytes.count: no Python loop a graph)."""
    if not numbers:
        return
    for c in range(min(numbers), max(numbers) + 1):
        found = numbers.count(c)
        if found:
            counts[c] = counts.get(c, 0) + found


def count_slice(n: int, res: int, mod: int, geng: str | None = None,
                check: str | None = None) -> dict[str, Any]:
    """The ledger record of slice ``res``/``mod`` of the connected graphs on ``n`` nodes.

    ``check``, the path of a program such as ``benchmarks/dismantlable.c`` built, is fed the
    same graph6 lines with ``-c`` (geng runs once for both) and the number after
    ``dismantlable`` in its answer is recorded as the record's ``dismantlable``.
    """
    if not 0 <= res < mod:
        raise ValueError(f"slice {res}/{mod}: res must be 0 to mod - 1")
    _check_mod(mod)
    geng = geng or find_geng()
    command = [geng, "-cq", str(n), f"{res}/{mod}"]
    counts: dict[int, int] = {}
    three: list[str] = []
    made_by = _provenance(geng)  # before the clock: git and geng --version run once
    began, cpu = time.monotonic(), time.process_time()
    checker = None if check is None else subprocess.Popen(
        [check, "-c"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    process = subprocess.Popen(command, stdout=subprocess.PIPE)
    assert process.stdout is not None
    try:
        while True:
            lines = process.stdout.readlines(_BLOCK)
            if not lines:
                break
            block = b"".join(lines)
            if checker is not None:
                _feed(checker, block, check or "")
            numbers = engine.current.cop_numbers_graph6(block, _MOST)
            _counts_of(numbers, counts)
            if max(numbers) >= 3:
                three.extend(lines[i].rstrip(b"\r\n").decode("ascii")
                             for i, c in enumerate(numbers) if c >= 3)
    except BaseException:
        process.kill()
        if checker is not None:
            checker.kill()
            checker.wait()
        raise
    finally:
        process.stdout.close()
        geng_cpu = _reap(process)
    if process.returncode:
        raise OSError(f"{geng} exited with status {process.returncode} on slice {res}/{mod}")
    record: dict[str, Any] = {
        "n": n, "res": res, "mod": mod, "counts": {str(c): counts[c] for c in sorted(counts)},
        "graphs": sum(counts.values()), "seconds": round(time.monotonic() - began, 3),
        "cpu_seconds": round(time.process_time() - cpu, 3),
        "geng_cpu_seconds": None if geng_cpu is None else round(geng_cpu, 3),
        "three_cops": three}
    if checker is not None:
        record["dismantlable"], checker_cpu = _checked(checker, check or "")
        record["check_cpu_seconds"] = None if checker_cpu is None else round(checker_cpu, 3)
    record.update(made_by)
    return record


def _reap(process: subprocess.Popen) -> float | None:
    """Wait for ``process``; its CPU seconds (user + system) where the system says them."""
    if not hasattr(os, "wait4"):
        process.wait()
        return None
    try:
        _, status, usage = os.wait4(process.pid, 0)
    except ChildProcessError:
        # Reaped already: Popen.kill() polls first, and after a terminal's Ctrl-C (geng is
        # in the same process group) it found geng dead.  Its usage is gone with it; the
        # error replaced the KeyboardInterrupt (exit 1, "No child processes", not 130).
        process.wait()
        return None
    process.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime


def _feed(checker: subprocess.Popen, block: bytes, check: str) -> None:
    assert checker.stdin is not None
    try:
        checker.stdin.write(block)
    except BrokenPipeError:
        raise OSError(f"{check} stopped reading its graph6 input "
                      f"(status {checker.wait()})") from None


def _checked(checker: subprocess.Popen, check: str) -> tuple[int, float | None]:
    """The checker's dismantlable count and its CPU seconds."""
    assert checker.stdin is not None and checker.stdout is not None
    try:
        checker.stdin.close()  # (the last of the input goes now: a checker gone is said here)
    except BrokenPipeError:
        raise OSError(f"{check} stopped reading its graph6 input "
                      f"(status {checker.wait()})") from None
    said = checker.stdout.read()
    checker.stdout.close()
    cpu = _reap(checker)
    for line in said.decode("ascii", "replace").splitlines():
        word, _, number = line.partition(" ")
        if word == "dismantlable" and number.strip().isdigit() and checker.returncode == 0:
            return int(number), cpu
    raise OSError(f"{check} gave no 'dismantlable N' line (status {checker.returncode})")


def census_slice(n: int, res: int, mod: int, geng: str | None = None) -> dict[int, int]:
    """Cop number -> how many connected graphs of slice ``res``/``mod`` on ``n`` nodes have it.

    ``census_slice(5, 0, 1)``, all 21 connected graphs on 5 nodes, is ``{1: 16, 2: 5}``
    (OEIS A220840 and A220841); needs ``geng``, hence no doctest here.
    """
    return {int(c): k for c, k in count_slice(n, res, mod, geng)["counts"].items()}


def _slice_job(n: int, mod: int, check: str | None, res: int) -> dict[str, Any]:
    """The record of one slice: a picklable job for process pools and Dask."""
    return count_slice(n, res, mod, check=check)


def read_ledger(ledger: str, n: int, mod: int) -> dict[int, dict[str, Any]]:
    """The records of ``ledger`` for the census of ``n`` nodes in ``mod`` slices, by ``res``.

    A last line without its newline was torn by a kill: it is left out (its slice is counted
    again) if it is the beginning of a record.  Any other line that is not a record is an error
    naming it, and so is a path that is not a regular file, and a slice recorded twice with
    other graphs (the same graphs twice, as two runs on one ledger write them, are one).
    """
    return _read(ledger, n, mod)[0]


# How every record this module writes begins (json.dumps of a dict whose first key is "n"):
# a torn last line, cut off when the census resumes, is a piece of a record, so it begins so too.
_RECORD_START = b'{"n": '


def _exists(ledger: str) -> bool:
    """Whether ``ledger`` is there; a ValueError if it is there but not a regular file (a
    device, a pipe or a folder is no ledger: reading one could block, or never end)."""
    try:
        mode = os.stat(ledger).st_mode
    except FileNotFoundError:
        return False
    if not stat.S_ISREG(mode):
        raise ValueError(f"{ledger}: not a regular file, so not a census ledger")
    return True


def _read(ledger: str, n: int, mod: int) -> tuple[dict[int, dict[str, Any]], int | None]:
    """(records, the byte offset of a torn last line or None; the file's length where its
    last line is a whole record without its newline)."""
    records: dict[int, dict[str, Any]] = {}
    if not _exists(ledger):
        return records, None
    with open(ledger, "rb") as file:
        data = file.read()
    offset, number, cut = 0, 0, None
    first_line: dict[int, int] = {}  # the line each slice's record was read from
    while offset < len(data):
        end = data.find(b"\n", offset)
        if end < 0:
            if _whole_json(data[offset:]):
                # A whole record without its newline (or whole JSON that is no record: an
                # error below): kept; the census writes the newline before its own records.
                end, cut = len(data), len(data)
            else:
                torn = data[offset:offset + len(_RECORD_START)]
                if not _RECORD_START.startswith(torn):  # (torn: at most its length)
                    # Not a piece of a record: the file is something else, which census
                    # would cut; said, not cut.
                    raise ValueError(f"{ledger}: line {number + 1}: not a census record "
                                     "(and no newline after it)")
                return records, offset
        number += 1
        line = data[offset:end]
        offset = end + 1
        if not line.strip():
            continue
        entry = _record(line, ledger, number)
        if entry["n"] == n and entry["mod"] == mod and entry["res"] not in records:
            if not 0 <= entry["res"] < mod:
                raise ValueError(f"{ledger}: line {number}: slice {entry['res']}/{mod} "
                                 "is not a slice of the census")
            records[entry["res"]] = entry
            first_line[entry["res"]] = number
        elif entry["n"] == n and entry["mod"] == mod and _differ(records[entry["res"]], entry):
            # A slice twice (two runs on one ledger count alike) with other graphs: one line
            # is wrong, and taking the first silently could total wrong counts.
            res = entry["res"]
            raise ValueError(f"{ledger}: lines {first_line[res]} and {number} both record "
                             f"slice {res}/{mod}, with other graphs: one of them is wrong; "
                             "remove both to count the slice again")
    return records, cut


def _differ(one: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether two records of one slice disagree on its graphs (their counts, or the 3-cop
    graphs where both kept them); their times and machines may differ."""
    if one["counts"] != other["counts"]:
        return True
    return ("three_cops" in one and "three_cops" in other
            and sorted(one["three_cops"]) != sorted(other["three_cops"]))


def _whole_json(text: bytes) -> bool:
    try:
        json.loads(text)
    except ValueError:  # (a torn record, or bytes that are not UTF-8)
        return False
    return True


def ledger_mods(ledger: str, n: int) -> set[int]:
    """The slice counts (``mod``) of the censuses of ``n`` nodes recorded in ``ledger``."""
    mods: set[int] = set()
    if _exists(ledger):
        with open(ledger, "rb") as file:
            for number, line in enumerate(file, 1):
                if line.strip() and (line.endswith(b"\n") or _whole_json(line)):
                    entry = _record(line, ledger, number)
                    if entry["n"] == n:
                        mods.add(entry["mod"])
    return mods


def _record(line: bytes, ledger: str, number: int) -> dict[str, Any]:
    try:
        entry = json.loads(line.decode("utf-8"))
        if not isinstance(entry, dict):
            raise TypeError(type(entry).__name__)
        for key in ("n", "res", "mod"):
            if type(entry[key]) is not int:
                raise TypeError(f"{key} is not an int")
        counts = entry["counts"]
        if not isinstance(counts, dict) or not all(
                type(k) is int and k >= 0 and c.isdigit() for c, k in counts.items()):
            raise TypeError("counts are not graphs (whole numbers) by cop number")
        entry["counts"] = {int(c): k for c, k in counts.items()}
        # (0.3's records say their graphs too: a count changed by hand shows here)
        if "graphs" in entry and entry["graphs"] != sum(entry["counts"].values()):
            raise TypeError(f"its counts add up to {sum(entry['counts'].values())} graphs, "
                            f"not its graphs, {entry['graphs']!r}")
        three = entry.get("three_cops", [])
        if not isinstance(three, list) or not all(
                isinstance(g, str) and g and all(63 <= ord(ch) <= 126 for ch in g)
                for g in three):
            raise TypeError("three_cops is not a list of graph6 lines")
    except KeyError as error:
        raise ValueError(f"{ledger}: line {number}: not a census record (no {error})") from None
    except (ValueError, TypeError, AttributeError) as error:
        raise ValueError(f"{ledger}: line {number}: not a census record ({error})") from None
    return entry


def census(n: int, mod: int, ledger: str, map: Callable[..., Iterable[Any]] = map, *,
           check: str | None = None,
           progress: Callable[[dict[str, Any], int, int], None] | None = None,
           ) -> dict[int, int]:
    """The whole census of ``n`` nodes in ``mod`` slices, resuming from ``ledger``.

    Each finished slice is appended to ``ledger`` at once (a torn last line from a kill is
    cut off first and its slice counted again); slices already there are not counted again.
    ``map(function, residues)`` runs the slices, in any order it likes: give one that yields
    each slice as it finishes, so a kill loses only the slices still running.  ``check`` is
    passed to :func:`count_slice`; ``progress(record, slices_done, slices)`` is called after
    each slice is written.  ``census(6, 4, "census.jsonl")`` is ``{1: 68, 2: 44}``
    (A220840(6), A220841(6)).
    """
    _check_mod(mod)
    _exists(ledger)  # (a folder, a device or a pipe is refused before it is opened)
    with open(ledger, "a", encoding="utf-8") as file:
        # Held until the census ends: a second run would count every slice again beside
        # this one, and its resume could cut off a line this one is writing as torn.
        _hold(file, ledger)
        done, torn = _read(ledger, n, mod)
        if torn is not None:
            with open(ledger, "r+b") as whole:
                if torn == whole.seek(0, os.SEEK_END):  # a whole last record: its newline
                    whole.write(b"\n")
                else:
                    whole.truncate(torn)
        todo = _Left(mod, done)
        for record in map(partial(_slice_job, n, mod, check), todo):
            file.write(json.dumps(record) + "\n")
            file.flush()
            record["counts"] = {int(c): k for c, k in record["counts"].items()}
            done[record["res"]] = record
            if progress is not None:
                progress(record, len(done), mod)
    return totals(done.values())


def _hold(file: Any, ledger: str) -> None:
    """Lock the open ``ledger`` for one census (flock: the system lets go when the file is
    closed or the process dies, however it dies), or ValueError if another census holds it.
    Where there are no such locks (Windows, some network file systems) nothing is held."""
    try:
        import fcntl
    except ImportError:
        return
    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise ValueError(f"{ledger}: another census is counting into this ledger now; wait "
                         "for it to end (it keeps every finished slice), or give another "
                         "ledger") from None
    except OSError:
        return  # (a file system without locks: counted as before)


def _check_mod(mod: int) -> None:
    if mod < 1:
        raise ValueError(f"mod must be at least 1, not {mod}")
    if mod > MOST_SLICES:
        raise ValueError(f"mod must be at most {MOST_SLICES} (geng reads it as a C int, and "
                         f"past that counts other slices), not {mod}")


class _Left(Sequence[int]):
    """The residues ``0..mod-1`` not in ``done``, in order: what ``map`` is given, without a
    list of them all (a list of 10^9 slices' residues took 36 GB before the first was counted).

    >>> left = _Left(6, {1, 2, 5})
    >>> list(left), len(left), left[1], left[-1]
    ([0, 3, 4], 3, 3, 4)
    """

    def __init__(self, mod: int, done: Iterable[int]):
        self._mod = mod
        self._done = sorted(done)  # (each below mod: the ledger's reader checks)

    def __len__(self) -> int:
        return self._mod - len(self._done)

    def __iter__(self) -> Iterator[int]:
        done = set(self._done)
        return (res for res in range(self._mod) if res not in done)

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> list[int]: ...

    def __getitem__(self, index: int | slice) -> int | list[int]:
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(len(self)))]
        if not -len(self) <= index < len(self):
            raise IndexError("residue index out of range")
        index %= len(self)
        # The least res with index + (done residues <= res) == res: it is not done itself.
        res = index
        while (after := index + bisect.bisect_right(self._done, res)) != res:
            res = after
        return res


def totals(records: Iterable[dict[str, Any]]) -> dict[int, int]:
    """Cop number -> graphs, summed over ``records`` (as :func:`read_ledger` gives them)."""
    total: dict[int, int] = {}
    for record in records:
        for c, k in record["counts"].items():
            total[int(c)] = total.get(int(c), 0) + k
    return dict(sorted(total.items()))


def canonical_graph6(lines: Iterable[str], labelg: str | None = None) -> list[str]:
    """``lines`` (graph6) in nauty's canonical labelling (``labelg -q``), sorted."""
    text = "".join(line + "\n" for line in lines)
    if not text:
        return []
    said = subprocess.run([labelg or find_labelg(), "-q"], input=text.encode("ascii"),
                          capture_output=True, check=True)
    return sorted(said.stdout.decode("ascii").split())


def write_three_cop_graphs(path: str, records: dict[int, dict[str, Any]],
                           labelg: str | None = None) -> int:
    """Write the graphs of ``records`` that need 3 or more cops to ``path``: graph6 in nauty's
    canonical labelling, sorted, one a line.  Returns how many; ValueError if a record (of
    an older ledger) did not keep them."""
    without = sorted(res for res, record in records.items() if "three_cops" not in record)
    if without:
        raise ValueError(f"{len(without)} slices of the ledger (the first {without[0]}) were "
                         "counted before ledgers kept their 3-cop graphs: count them again")
    graphs = canonical_graph6((g for res in sorted(records) for g in records[res]["three_cops"]),
                              labelg)
    with replacing(path) as file:
        file.write("".join(g + "\n" for g in graphs))
    return len(graphs)

