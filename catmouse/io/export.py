"""Writing a solved table: JSON, CSV (one row per position) and numpy's .npz.

Used by :meth:`Analysis.to_json` / :meth:`Analysis.save` and by ``catmouse
analyze -o``; the suffix of the path picks the format unless one is named, and
anything else is refused rather than written in the wrong format.
"""

from __future__ import annotations

import json
import math
import os
import zipfile
from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING, Any

from ..engine.facts import CAT_FORBIDDEN, CAT_GOAL, HOLE
from ..engine.optional import import_optional
from ..progress import as_callback, finish
from .atomic import replacing
from .table_text import csv_blocks, json_list_blocks

if TYPE_CHECKING:
    from ..analysis import Analysis

__all__ = ["FORMATS", "SUFFIXES", "csv_text", "format_of", "json_blocks", "json_label",
           "label_from_json", "positions_written", "save", "table_dict", "to_json",
           "write_csv", "write_table"]

SUFFIXES = (".json", ".npz", ".csv")
FORMATS = tuple(suffix[1:] for suffix in SUFFIXES)


def _nodes_with(analysis: Analysis, flag: int) -> list[int]:
    flags = analysis._rules.flags
    return [node for node in range(analysis.n) if flags[node] & flag]


def _moves(analysis: Analysis) -> tuple[bool, bool, list[list[int]] | None]:
    """The game's moves as it was given them: whether the mouse and the cat may stay, and the
    cat's own graph (adjacency lists of ids) where it is not the mouse's, else None."""
    rules = analysis._rules
    # (A player who may stay moves on a stay graph, which keeps the graph it was made from.)
    mouse = getattr(rules.mouse_graph, "_base", rules.mouse_graph)
    cat = getattr(rules.cat_graph, "_base", rules.cat_graph)
    own = cat is not mouse and cat._rows() != mouse._rows()
    return (mouse is not rules.mouse_graph, cat is not rules.cat_graph,
            cat.adjacency() if own else None)


def table_dict(analysis: Analysis, tables: bool = True) -> dict[str, Any]:
    """The table and its rules as plain JSON values (without the two big lists if not
    ``tables``)."""
    rules = analysis._rules
    holes = _nodes_with(analysis, HOLE)
    mouse_stays, cat_stays, cat_graph = _moves(analysis)
    data: dict[str, Any] = {
        "n": analysis.n,
        "hole": holes[0] if len(holes) == 1 else None,
        "holes": holes,
        "cat_forbidden": _nodes_with(analysis, CAT_FORBIDDEN),
        "cat_goals": _nodes_with(analysis, CAT_GOAL),
        "directed": analysis.graph.directed,
        "mouse_stays": mouse_stays,
        "cat_stays": cat_stays,
        "cat_graph": cat_graph,
        "first": analysis.first.name,
        "draw": rules.draw.name,
        "index": "[turn][mouse][cat], turn 0 = mouse to move, 1 = cat to move",
        "outcome_codes": {"0": "draw", "1": "mouse wins", "2": "cat wins",
                          "3": "no such position (the cat on a node it may not enter)"},
        "remoteness_codes": "moves to the end with optimal play; -1 = never ends / no position",
    }
    if tables:
        data["outcomes"] = analysis.outcomes.tolist()
        # None for an analysis made with remoteness=False.
        data["remoteness"] = (json.loads(b"".join(text for text, _ in json_list_blocks(
            None, analysis.n, analysis._remoteness_rows))) if analysis.has_remoteness else None)
    if analysis.graph._labels is not None:
        data["labels"] = [json_label(label) for label in analysis.graph._labels]
    return data


def json_label(label: Any) -> Any:
    """A label as JSON holds it, so that distinct labels stay distinct.

    A string, an int, a bool, None or a finite float is written as it is; a tuple as a JSON
    array of its items (so ``(1, 2)`` is ``[1, 2]``, never the string ``"(1, 2)"``: a list
    cannot be a label); anything else as an object, which no label is: ``{"float": "inf"}``
    for an infinite or NaN float (not JSON), ``{"repr": "frozenset({1})"}`` for the rest.

    >>> [json_label(x) for x in ("(1, 2)", (1, ("a", 2.5)), float("-inf"), frozenset({1}))]
    ['(1, 2)', [1, ['a', 2.5]], {'float': '-inf'}, {'repr': 'frozenset({1})'}]
    """
    if isinstance(label, float) and not math.isfinite(label):
        return {"float": repr(label)}
    if isinstance(label, (str, int, float)) or label is None:
        return label
    if isinstance(label, tuple):
        return [json_label(item) for item in label]
    return {"repr": repr(label)}


def label_from_json(value: Any) -> Any:
    """The label a JSON value names, json_label's way back for what JSON holds: a list is a
    tuple (of its items, likewise), anything else itself.

    >>> label_from_json([1, ["a", 2.5]])
    (1, ('a', 2.5))
    """
    if isinstance(value, list):
        return tuple(label_from_json(item) for item in value)
    return value


def to_json(analysis: Analysis) -> str:
    """The table as one line of JSON (see :func:`table_dict` for the keys)."""
    return b"".join(text for text, _ in json_blocks(analysis)).decode("utf-8")


def json_blocks(analysis: Analysis) -> Iterator[tuple[bytes, int]]:
    """The JSON text in blocks, ``(text, positions)``: what ``json.dumps(table_dict(a),
    separators=(",", ":"), allow_nan=False)`` writes, the big lists assembled block by block."""
    data = table_dict(analysis, tables=False)
    labels = data.pop("labels", None)
    # allow_nan=False: Infinity and NaN are not JSON, and strict readers refuse them.
    head = json.dumps(data, separators=(",", ":"), allow_nan=False)
    yield (head[:-1] + ',"outcomes":').encode("utf-8"), 0
    n = analysis.n
    yield from json_list_blocks(analysis._outcomes, n)
    yield b',"remoteness":', 0
    if analysis.has_remoteness:  # read from the planes, a block of rows at a time
        for text, _ in json_list_blocks(None, n, analysis._remoteness_rows):
            yield text, 0  # positions counted once, with the outcomes
    else:
        yield b"null", 0  # an analysis made with remoteness=False
    if labels is not None:
        yield (',"labels":' + json.dumps(labels, separators=(",", ":"),
                                         allow_nan=False)).encode("utf-8"), 0
    yield b"}", 0


def write_csv(analysis: Analysis, handle: IO[str], progress: Any = None) -> int:
    """One row per position: mouse, cat, turn, outcome, remoteness, best moves; rows written.

    Positions that do not exist (the cat on a node it may not enter) are left
    out; remoteness is empty for a game that never ends (and throughout for an
    analysis made with ``remoteness=False``); best moves are the optimal
    destinations separated by spaces, by id.  A labelled graph adds the columns
    ``mouse_label`` and ``cat_label``: the label of each row's ids.
    """
    callback = as_callback(progress, _rows(analysis), "save")
    done = 0
    for text, positions in csv_blocks(analysis):
        handle.write(text.decode("utf-8"))
        done += positions
        if callback is not None and positions:
            callback(done)
    return done


def _rows(analysis: Analysis) -> int:
    """The CSV's rows: the positions that exist."""
    return 2 * analysis.n * (analysis.n - len(_nodes_with(analysis, CAT_FORBIDDEN)))


def positions_written(analysis: Analysis, format: str) -> int:
    """What :func:`save`'s progress counts up to in ``format`` (one of FORMATS): a CSV's
    rows, else every table entry."""
    return _rows(analysis) if format == "csv" else 2 * analysis.n ** 2


def _write_blocks(blocks: Iterator[tuple[bytes, int]], handle: IO[bytes],
                  callback: Callable[[int], object] | None) -> int:
    """Write each block; report the positions done; return the positions written."""
    done = 0
    for text, positions in blocks:
        handle.write(text)
        if positions:
            done += positions
            if callback is not None:
                callback(done)
    return done


def csv_text(analysis: Analysis) -> str:
    """The CSV table as a string."""
    return b"".join(text for text, _ in csv_blocks(analysis)).decode("utf-8")


def _numpy() -> Any:
    numpy = import_optional("numpy")
    if numpy is None:
        raise ImportError("saving .npz needs numpy (pip install numpy); "
                          "save as .json or .csv instead")
    return numpy


def suffix_of(path: str | os.PathLike[str]) -> str:
    """The format a path asks for, or ValueError naming the suffixes understood."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix not in SUFFIXES:
        shown = suffix or "no suffix"
        raise ValueError(f"cannot save a table as {os.fspath(path)!r} ({shown}): "
                         f"use a name ending in {', '.join(SUFFIXES)}")
    return suffix


def format_of(path: str | os.PathLike[str], format: str | None = None) -> str:
    """``format`` when given (one of FORMATS), else the one the path's suffix names;
    ValueError naming what is understood."""
    if format is None:
        return suffix_of(path)[1:]
    if format not in FORMATS:
        raise ValueError(f"unknown table format {format!r}: use one of {', '.join(FORMATS)}")
    return format


def save(analysis: Analysis, path: str | os.PathLike[str], progress: Any = None,
         format: str | None = None) -> None:
    """Write the table to ``path`` in ``format``, by default the one its suffix names (.json,
    .npz, .csv).

    ``progress``: True for a bar on stderr, or a callable ``progress(positions)`` called as
    the table goes out.  The old file stays as it was until the new one is whole (see
    :mod:`catmouse.atomic`: a symlink is written through, a read-only file or folder refused).
    """
    path = os.fsdecode(path)  # (a bytes path too: its suffix compared as text)
    write, done = _writer(analysis, format_of(path, format), progress)
    with replacing(path, "wb") as handle:  # (the temporary file only once all is ready)
        write(handle)
    done()


def write_table(analysis: Analysis, handle: IO[bytes], format: str,
                progress: Any = None) -> None:
    """Write the table in ``format`` (one of FORMATS) to the binary stream ``handle``, which
    need not seek (standard output, a pipe); ``progress`` as :func:`save`'s."""
    write, done = _writer(analysis, format, progress)
    write(handle)
    done()


def _writer(analysis: Analysis, format: str, progress: Any
            ) -> tuple[Callable[[IO[bytes]], None], Callable[[], None]]:
    """What writes the table to a stream, and what ends its progress; made first, so that
    an ImportError (.npz without numpy) comes before anything is opened."""
    # Progress counts the positions written: a CSV row each, the cat on a node it may not
    # enter has none.
    total = positions_written(analysis, format)
    callback = as_callback(progress, total, "save")
    if format == "npz":
        numpy = _numpy()

        def write(handle: IO[bytes]) -> None:
            _write_npz(numpy, analysis, handle, callback)
    else:
        blocks = json_blocks(analysis) if format == "json" else csv_blocks(analysis)

        def write(handle: IO[bytes]) -> None:
            _write_blocks(blocks, handle, callback)
            if format == "json":
                handle.write(b"\n")

    return write, lambda: finish(callback, total)


def _write_npz(numpy: Any, analysis: Analysis, handle: IO[bytes],
               callback: Callable[[int], object] | None) -> None:
    """The arrays of a .npz, deflated at level 1 (a table of small codes packs tightly at
    once; numpy's savez_compressed, at level 6, wrote 20 MB/s)."""
    holes = _nodes_with(analysis, HOLE)
    mouse_stays, cat_stays, cat_graph = _moves(analysis)
    arrays = {
        "outcomes": numpy.asarray(analysis.outcomes),
        "hole": numpy.int32(holes[0] if len(holes) == 1 else -1),
        "holes": numpy.asarray(holes, dtype=numpy.int32),
        "cat_forbidden": numpy.asarray(_nodes_with(analysis, CAT_FORBIDDEN), dtype=numpy.int32),
        "cat_goals": numpy.asarray(_nodes_with(analysis, CAT_GOAL), dtype=numpy.int32),
        "directed": numpy.bool_(analysis.graph.directed),
        "mouse_stays": numpy.bool_(mouse_stays),
        "cat_stays": numpy.bool_(cat_stays),
        "first": numpy.int8(analysis.first),
        "draw": numpy.int8(analysis._rules.draw),
    }
    if cat_graph is not None:  # the cat's own moves, as CSR arrays of ids
        arrays["cat_indptr"] = numpy.cumsum([0] + [len(row) for row in cat_graph],
                                            dtype=numpy.int64)
        arrays["cat_indices"] = numpy.asarray([v for row in cat_graph for v in row],
                                              dtype=numpy.int32)
    n = analysis.n
    if analysis.has_remoteness:  # written in row blocks from the planes, below
        arrays["remoteness"] = None
    labels = analysis.graph._labels
    if labels is not None:
        # Each id's label as text (numpy.load needs no pickle for it), and as the JSON list
        # holds it: numpy's strings drop trailing NULs and str() makes 1 and "1" alike.  Not
        # ASCII-escaped: numpy pads each string to the longest, which "\u00e9" made 6 times it.
        arrays["labels"] = numpy.array([str(label) for label in labels], dtype=str)
        arrays["labels_json"] = numpy.array(
            [json.dumps(json_label(label), allow_nan=False, ensure_ascii=False)
             for label in labels], dtype=str)
    done = 0
    with zipfile.ZipFile(handle, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1,
                         allowZip64=True) as archive:
        for name, array in arrays.items():
            with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                if array is None:
                    _write_remoteness(numpy, analysis, member)
                else:
                    numpy.lib.format.write_array(member, numpy.asanyarray(array),
                                                 allow_pickle=False)
            if name in ("outcomes", "remoteness") and callback is not None:
                done += 2 * n * n // (2 if analysis.has_remoteness else 1)
                callback(done)


def _write_remoteness(numpy: Any, analysis: Analysis, member: IO[bytes]) -> None:
    """The int32 ``(2, n, n)`` remoteness array as .npy, a block of rows at a time."""
    n = analysis.n
    header = {"descr": numpy.lib.format.dtype_to_descr(numpy.dtype(numpy.int32)),
              "fortran_order": False, "shape": (2, n, n)}
    numpy.lib.format.write_array_header_2_0(member, header)
    for block in analysis._remoteness_blocks():
        member.write(block)
