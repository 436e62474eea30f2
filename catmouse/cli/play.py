"""``catmouse play``: the command that starts a game against the solver.

In the terminal (:func:`catmouse.show.play.play_terminal`), or ``--html FILE`` writes the
self-contained play page (:mod:`catmouse.show.page`).
"""

from __future__ import annotations

import argparse
import os

from ..atomic import replacing
from ..outcome import Turn
from ..show.draw import Setup
from ..show.play import PLAYER, play_terminal
from .commands import CliError, file_label, solved_game

__all__ = ["play"]


def play(args: argparse.Namespace) -> int:
    """``catmouse play``: in the terminal, or ``--html`` writes the page."""
    # The file, the Game options and the start, solved and checked as solve and draw do.
    _, game, (mouse, cat), analysis, _ = solved_game(args)
    setup = Setup.of_game(game, analysis)
    human = Turn.CAT if args.side == "cat" else Turn.MOUSE
    name = os.path.basename(file_label(args.file))
    if args.html:
        from ..show.page import page_html

        text = page_html(setup, mouse, cat, human, title=name)
        try:
            with replacing(args.html, "w", encoding="utf-8") as handle:
                handle.write(text)
        except OSError as error:
            raise CliError(f"cannot write {args.html}: {error.strerror or error}") from None
        print(f"wrote {args.html}: open it in a browser and play the {PLAYER[human]} "
              f"against the solver")
        return 0
    play_terminal(setup, mouse, cat, human, name=name)
    return 0
