"""Writing a k-cops analysis out: JSON (the tables) and CSV (one row per position).

The old file stays as it was until the new one is whole (:mod:`catmouse.atomic`).
"""

from __future__ import annotations

import io
import json
import os
from typing import TYPE_CHECKING, Any

from ..io.atomic import replacing
from ..io.export import json_label
from ..io.table_text import label_cells
from .sides import CopsOutcome, CopsTurn

if TYPE_CHECKING:
    from .game import CopsAnalysis

__all__ = ["cops_dict", "cops_csv", "save_cops"]

_SIDE = {CopsTurn.COPS: "cops", CopsTurn.ROBBER: "robber"}
_WINNER = {CopsOutcome.COPS_WIN: "cops", CopsOutcome.ROBBER_WIN: "robber"}


def cops_dict(analysis: CopsAnalysis) -> dict[str, Any]:
    """The tables as JSON data: ``outcomes[turn][row][robber]`` and ``remoteness`` alike,
    turn 0 the robber's and 1 the cops'; ``teams[row]`` the cops' node ids of each row;
    ``winning_starts`` as labels and ``winning_start_ids`` as ids (two labels may read
    alike, ids never do)."""
    graph, n = analysis.game.graph, analysis.game.graph.n
    rows = len(analysis._teams)
    outcomes, remoteness = analysis._outcomes, analysis._remoteness

    def table(data: Any) -> list[list[list[int]]]:
        return [[list(data[(t * rows + r) * n:(t * rows + r + 1) * n]) for r in range(rows)]
                for t in (0, 1)]

    data: dict[str, Any] = {
        "game": "cops and robber", "n": n, "cops": analysis.game.cops,
        "teams": [list(team) for team in analysis._teams],
        "turns": ["robber", "cops"],
        "outcomes": table(outcomes), "outcome_codes": {"1": "robber escapes",
                                                       "2": "cops capture"},
        "remoteness": table(remoteness),
        "winning_starts": [[json_label(c) for c in team] for team in analysis.winning_starts()],
        "winning_start_ids": [list(analysis._teams[row]) for row in analysis._winning_rows()],
    }
    if graph._labels is not None:
        data["labels"] = [json_label(label) for label in graph._labels]
    return data


def cops_csv(analysis: CopsAnalysis) -> str:
    """One row per position: ``cop1`` .. ``copk`` (a label each, the team in id order), robber,
    turn, winner, remoteness, then ``cop1_id`` .. ``copk_id`` and ``robber_id``: the node ids,
    the key of a position (two labels may print alike: ``1`` and ``'1'``).  A column per
    cop: a label may hold a space or a comma."""
    graph = analysis.game.graph
    out = io.StringIO()
    k = analysis.game.cops
    cops_header = ",".join(f"cop{i + 1}" for i in range(k))
    ids_header = ",".join(f"cop{i + 1}_id" for i in range(k))
    out.write(f"{cops_header},robber,turn,winner,remoteness,{ids_header},robber_id\n")
    # Cells as the csv module quotes them (label_cells: a "\r" in a label is quoted too).
    cells = label_cells([graph._name(u) for u in range(graph.n)]) or []
    for team in analysis._teams:
        cops = ",".join(cells[u] for u in team)
        ids = ",".join(map(str, team))
        for robber in range(graph.n):
            for turn in (CopsTurn.COPS, CopsTurn.ROBBER):
                at = analysis._index(team, robber, turn)
                r = analysis._remoteness[at]
                winner = _WINNER[CopsOutcome(analysis._outcomes[at])]
                out.write(f"{cops},{cells[robber]},{_SIDE[turn]},{winner},"
                          f"{'' if r < 0 else r},{ids},{robber}\n")
    return out.getvalue()


def save_cops(analysis: CopsAnalysis, path: str | os.PathLike[str]) -> None:
    """Write ``path`` as its suffix says: ``.json`` or ``.csv`` (ValueError otherwise)."""
    suffix = os.path.splitext(os.fspath(path))[1].lower()
    if suffix == ".json":
        text = json.dumps(cops_dict(analysis), separators=(",", ":"), allow_nan=False) + "\n"
    elif suffix == ".csv":
        text = cops_csv(analysis)
    else:
        raise ValueError(f"cannot save a cops table as {os.fspath(path)!r}: use a name ending "
                         "in .json or .csv")
    with replacing(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
