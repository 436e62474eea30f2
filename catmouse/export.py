"""Writing a solved table: JSON, CSV (one row per position) and numpy's .npz.

Used by :meth:`Analysis.to_json` / :meth:`Analysis.save` and by ``catmouse
analyze -o``; the suffix of the path picks the format, and anything else is
refused rather than written in the wrong format.
"""

from __future__ import annotations

import csv
import importlib
import io
import json
import math
import os
from typing import IO, TYPE_CHECKING, Any

from .atomic import replacing
from .engine.facts import CAT_FORBIDDEN, CAT_GOAL, HOLE
from .outcome import Outcome, Turn

if TYPE_CHECKING:
    from .analysis import Analysis

__all__ = ["SUFFIXES", "save", "table_dict", "to_json", "write_csv"]

SUFFIXES = (".json", ".npz", ".csv")

CSV_COLUMNS = ("mouse", "cat", "turn", "outcome", "remoteness", "best_moves")


def _nodes_with(analysis: Analysis, flag: int) -> list[int]:
    flags = analysis._rules.flags
    return [node for node in range(analysis.n) if flags[node] & flag]


def table_dict(analysis: Analysis) -> dict[str, Any]:
    """The table and its rules as plain JSON values."""
    rules = analysis._rules
    holes = _nodes_with(analysis, HOLE)
    data: dict[str, Any] = {
        "n": analysis.n,
        "hole": holes[0] if len(holes) == 1 else None,
        "holes": holes,
        "cat_forbidden": _nodes_with(analysis, CAT_FORBIDDEN),
        "cat_goals": _nodes_with(analysis, CAT_GOAL),
        "directed": analysis.graph.directed,
        "first": analysis.first.name,
        "draw": rules.draw.name,
        "index": "[turn][mouse][cat], turn 0 = mouse to move, 1 = cat to move",
        "outcome_codes": {"0": "draw", "1": "mouse wins", "2": "cat wins",
                          "3": "no such position (the cat on a node it may not enter)"},
        "remoteness_codes": "moves to the end with optimal play; -1 = never ends / no position",
        "outcomes": analysis.outcomes.tolist(),
        # None for an analysis made with remoteness=False.
        "remoteness": (analysis.remoteness_table.tolist() if analysis.has_remoteness
                       else None),
    }
    if analysis.graph._labels is not None:
        data["labels"] = [_json_label(label) for label in analysis.graph._labels]
    return data


def _json_label(label: Any) -> Any:
    """A label as strict JSON holds it: str, int, bool, None and finite floats as they are;
    anything else (a tuple, inf, NaN) as its ``str``, which JSON readers all accept."""
    if isinstance(label, float):
        return label if math.isfinite(label) else str(label)
    return label if isinstance(label, (str, int, bool)) or label is None else str(label)


def to_json(analysis: Analysis) -> str:
    """The table as one line of JSON (see :func:`table_dict` for the keys)."""
    # allow_nan=False: Infinity and NaN are not JSON, and strict readers refuse them.
    return json.dumps(table_dict(analysis), separators=(",", ":"), allow_nan=False)


def write_csv(analysis: Analysis, handle: IO[str]) -> int:
    """One row per position: mouse, cat, turn, outcome, remoteness, best moves; rows written.

    Positions that do not exist (the cat on a node it may not enter) are left
    out; remoteness is empty for a game that never ends (and throughout for an
    analysis made with ``remoteness=False``); best moves are the optimal
    destinations separated by spaces.
    """
    writer = csv.writer(handle, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    n = analysis.n
    outcomes, remoteness = analysis._outcomes, analysis._remoteness
    forbidden = set(_nodes_with(analysis, CAT_FORBIDDEN))
    rows = 0
    for turn in Turn:
        base = turn * n * n
        for mouse in range(n):
            for cat in range(n):
                if cat in forbidden:
                    continue
                s = base + mouse * n + cat
                r = -1 if remoteness is None else remoteness[s]
                moves = analysis._best_moves_at(mouse, cat, turn)
                writer.writerow((mouse, cat, turn.name, Outcome(outcomes[s]).name,
                                 "" if r < 0 else r, " ".join(map(str, moves))))
                rows += 1
    return rows


def csv_text(analysis: Analysis) -> str:
    """The CSV table as a string."""
    buffer = io.StringIO()
    write_csv(analysis, buffer)
    return buffer.getvalue()


def _numpy() -> Any:
    try:
        # Imported by name: optional, and typed the same with or without numpy installed.
        return importlib.import_module("numpy")
    except ImportError:
        raise ImportError("saving .npz needs numpy (pip install numpy); "
                          "save as .json or .csv instead") from None


def suffix_of(path: str | os.PathLike[str]) -> str:
    """The format a path asks for, or ValueError naming the suffixes understood."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix not in SUFFIXES:
        shown = suffix or "no suffix"
        raise ValueError(f"cannot save a table as {os.fspath(path)!r} ({shown}): "
                         f"use a name ending in {', '.join(SUFFIXES)}")
    return suffix


def save(analysis: Analysis, path: str | os.PathLike[str]) -> None:
    """Write the table to ``path`` in the format its suffix names (.json, .npz, .csv).

    The old file stays as it was until the new one is whole (see :mod:`catmouse.atomic`:
    a symlink is written through, a read-only file or folder refused).
    """
    suffix = suffix_of(path)
    if suffix == ".npz":
        numpy = _numpy()
        holes = _nodes_with(analysis, HOLE)
        arrays = {
            "outcomes": numpy.asarray(analysis.outcomes),
            "hole": numpy.int32(holes[0] if len(holes) == 1 else -1),
            "holes": numpy.asarray(holes, dtype=numpy.int32),
            "directed": numpy.bool_(analysis.graph.directed),
            "first": numpy.int8(analysis.first),
        }
        if analysis.has_remoteness:
            arrays["remoteness"] = numpy.asarray(analysis.remoteness_table)
        # Through an open file: given a name, numpy appends ".npz" to one spelt ".NPZ".
        with replacing(path, "wb") as handle:
            numpy.savez_compressed(handle, **arrays)
    elif suffix == ".json":
        text = to_json(analysis)  # the work first: a failure leaves the old file alone
        with replacing(path, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.write("\n")
    else:
        with replacing(path, "w", encoding="utf-8", newline="") as handle:
            write_csv(analysis, handle)
