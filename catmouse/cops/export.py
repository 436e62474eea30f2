"""Writing a k-cops analysis out: JSON (the tables) and CSV (one row per position).

The old file stays as it was until the new one is whole (:mod:`catmouse.atomic`).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..io.atomic import replacing
from ..io.export import json_label
from ..io.table_text import label_cells
from .sides import CopsOutcome, CopsTurn

if TYPE_CHECKING:
    from .game import CopsAnalysis

__all__ = ["cops_csv", "cops_csv_blocks", "cops_dict", "cops_json_blocks", "save_cops"]

# Characters a piece of text, about: the writes' memory stays this size.
_BLOCK = 1 << 16

_SIDE = {CopsTurn.COPS: "cops", CopsTurn.ROBBER: "robber"}
_WINNER = {CopsOutcome.COPS_WIN: "cops", CopsOutcome.ROBBER_WIN: "robber"}


def cops_dict(analysis: CopsAnalysis) -> dict[str, Any]:
    """The tables as JSON data: ``outcomes[turn][row][robber]`` and ``remoteness`` alike,
    turn 0 the robber's and 1 the cops'; ``teams[row]`` the cops' node ids of each row;
    ``winning_starts`` as labels and ``winning_start_ids`` as ids (two labels may read
    alike, ids never do)."""
    data = _dict_around_tables(analysis)
    for key, values in (("outcomes", analysis._outcomes), ("remoteness", analysis._remoteness)):
        data[key] = [[list(row) for row in _rows(analysis, values, turn)] for turn in (0, 1)]
    return data


def _dict_around_tables(analysis: CopsAnalysis) -> dict[str, Any]:
    """cops_dict's keys in order, the two tables as None."""
    graph = analysis.game.graph
    data: dict[str, Any] = {
        "game": "cops and robber", "n": graph.n, "cops": analysis.game.cops,
        "teams": [list(team) for team in analysis._teams],
        "turns": ["robber", "cops"],
        "outcomes": None, "outcome_codes": {"1": "robber escapes", "2": "cops capture"},
        "remoteness": None,
        "winning_starts": [[json_label(c) for c in team] for team in analysis.winning_starts()],
        "winning_start_ids": [list(analysis._teams[row]) for row in analysis._winning_rows()],
    }
    if graph._labels is not None:
        data["labels"] = [json_label(label) for label in graph._labels]
    return data


def _rows(analysis: CopsAnalysis, values: Any, turn: int) -> Iterator[Any]:
    """The table rows (a team's robbers) of ``turn`` in ``values``, each a slice."""
    n, rows = analysis.game.graph.n, len(analysis._teams)
    for r in range(rows):
        yield values[(turn * rows + r) * n:(turn * rows + r + 1) * n]


def cops_json_blocks(analysis: CopsAnalysis) -> Iterator[str]:
    """``json.dumps(cops_dict(analysis), separators=(",", ":"))`` in pieces of about
    _BLOCK characters, a table row at a time: the tables are never whole as lists."""
    data = _dict_around_tables(analysis)
    tables = {"outcomes": analysis._outcomes, "remoteness": analysis._remoteness}
    head = "{"
    for key, value in data.items():
        yield head + json.dumps(key) + ":"
        head = ","
        if value is not None:
            yield json.dumps(value, separators=(",", ":"), allow_nan=False)
            continue
        for turn in (0, 1):
            parts, size = ["[[" if turn == 0 else ",["], 0
            for r, row in enumerate(_rows(analysis, tables[key], turn)):
                text = ("," if r else "") + "[" + ",".join(map(str, row)) + "]"
                parts.append(text)
                size += len(text)
                if size >= _BLOCK:
                    yield "".join(parts)
                    parts, size = [], 0
            parts.append("]]" if turn == 1 else "]")
            yield "".join(parts)
    yield "}"


def cops_csv(analysis: CopsAnalysis) -> str:
    """The CSV text of :func:`cops_csv_blocks`, whole."""
    return "".join(cops_csv_blocks(analysis))


def cops_csv_blocks(analysis: CopsAnalysis) -> Iterator[str]:
    """One row per position: ``cop1`` .. ``copk`` (a label each, the team in id order), robber,
    turn, winner, remoteness, then ``cop1_id`` .. ``copk_id`` and ``robber_id``: the node ids,
    the key of a position (two labels may print alike: ``1`` and ``'1'``).  A column per
    cop: a label may hold a space or a comma.  In pieces of about _BLOCK characters."""
    graph = analysis.game.graph
    k = analysis.game.cops
    cops_header = ",".join(f"cop{i + 1}" for i in range(k))
    ids_header = ",".join(f"cop{i + 1}_id" for i in range(k))
    yield f"{cops_header},robber,turn,winner,remoteness,{ids_header},robber_id\n"
    # Cells as the csv module quotes them (label_cells: a "\r" in a label is quoted too).
    cells = label_cells([graph._name(u) for u in range(graph.n)]) or []
    parts: list[str] = []
    size = 0
    for team in analysis._teams:
        cops = ",".join(cells[u] for u in team)
        ids = ",".join(map(str, team))
        for robber in range(graph.n):
            for turn in (CopsTurn.COPS, CopsTurn.ROBBER):
                at = analysis._index(team, robber, turn)
                r = analysis._remoteness[at]
                winner = _WINNER[CopsOutcome(analysis._outcomes[at])]
                line = (f"{cops},{cells[robber]},{_SIDE[turn]},{winner},"
                        f"{'' if r < 0 else r},{ids},{robber}\n")
                parts.append(line)
                size += len(line)
                if size >= _BLOCK:  # (within a team: a line holds its labels, long or not)
                    yield "".join(parts)
                    parts, size = [], 0
    yield "".join(parts)


def save_cops(analysis: CopsAnalysis, path: str | os.PathLike[str]) -> None:
    """Write ``path`` as its suffix says: ``.json`` or ``.csv`` (ValueError otherwise), a
    block at a time (the whole text is never in memory)."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix == ".json":
        blocks = cops_json_blocks(analysis)
        end = "\n"
    elif suffix == ".csv":
        blocks = cops_csv_blocks(analysis)
        end = ""
    else:
        raise ValueError(f"cannot save a cops table as {os.fspath(path)!r}: use a name ending "
                         "in .json or .csv")
    with replacing(path, "w", encoding="utf-8", newline="") as handle:
        for block in blocks:
            handle.write(block)
        handle.write(end)
