"""Playing against the solver: a game in progress, and the terminal front end.

:class:`Match` is the game: positions so far, legal moves, the solver's reply,
hints, undo and the end (the cat on the mouse, the mouse in a hole, the cat on
a goal, a player who cannot move, or a repeated position).  :func:`play_terminal`
is ``catmouse play`` in a terminal, plain ``input()`` and ``print()``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TextIO

from ..analysis import Position
from ..outcome import Outcome, Turn
from .draw import Setup
from .words import PLAYER, ending, outcome_words, verdict

__all__ = ["Match", "play_terminal"]


# Boards up to this many nodes are listed whole; bigger ones show the rows of the players,
# the holes and the goals.
_LIST_NODES = 40


class Match:
    """A game from a start, the human playing one side and the solver the other.

    >>> from catmouse.show.draw import Setup
    >>> match = Match(Setup.of([[1, 3], [0], [3], [0, 2]]), 1, 2, human=Turn.CAT)
    >>> match.reply()                 # the solver's mouse goes straight to the hole
    0
    >>> match.result()
    (<Outcome.MOUSE_WIN: 1>, 'the mouse reaches the hole (node 0)')
    """

    def __init__(self, setup: Setup, mouse: int, cat: int, *, human: Turn,
                 first: Turn | None = None):
        self.setup = setup
        self.human = Turn(human)
        turn = setup.first if first is None else Turn(first)
        setup.analysis.outcome(mouse, cat, turn)  # ValueError for a start that does not exist
        self.history: list[Position] = [(int(mouse), int(cat), turn)]

    @property
    def position(self) -> Position:
        return self.history[-1]

    @property
    def mover(self) -> Turn:
        return self.position[2]

    def moves(self) -> list[int]:
        """The mover's legal destinations, sorted (none once the game is over)."""
        if self.result() is not None:
            return []
        return self._legal(self.position)

    def _legal(self, position: Position) -> list[int]:
        return sorted(dest for dest, _ in self.setup.analysis._rules.moves(*position))

    def after(self, dest: int) -> Position:
        mouse, cat, turn = self.position
        return (dest, cat, Turn.CAT) if turn == Turn.MOUSE else (mouse, dest, Turn.MOUSE)

    def value(self, position: Position | None = None) -> tuple[Outcome, int | None]:
        """Outcome and remoteness of a position (default: the current one) with perfect play."""
        a = self.setup.analysis
        p = self.position if position is None else position
        return a.outcome(*p), a.remoteness(*p)

    def hints(self) -> list[tuple[int, Outcome, int | None, bool]]:
        """Each legal move: destination, outcome and remoteness after it, and whether it is best."""
        mouse, cat, turn = self.position
        best = set(self.setup.analysis.best_moves(mouse, cat, turn))
        return [(d, *self.value(self.after(d)), d in best) for d in self.moves()]

    def play(self, dest: int) -> None:
        """The mover goes to ``dest``; ValueError if that is not a legal move."""
        legal = self.moves()
        if dest not in legal:
            who = PLAYER[self.mover]
            if not legal:
                raise ValueError("the game is over")
            raise ValueError(f"the {who} cannot move to {dest}: its moves are "
                             + ", ".join(map(str, legal)))
        self.history.append(self.after(dest))

    def reply(self) -> int:
        """The solver's move for the side to move: the smallest of its best moves."""
        mouse, cat, turn = self.position
        dest = self.setup.analysis.best_moves(mouse, cat, turn)[0]
        self.play(dest)
        return dest

    def undo(self) -> bool:
        """Back to the human's previous turn; False if the human has not moved yet."""
        for k in range(len(self.history) - 2, -1, -1):
            if self.history[k][2] == self.human:
                del self.history[k + 1:]
                return True
        return False

    def restart(self) -> None:
        del self.history[1:]

    def result(self) -> tuple[Outcome, str] | None:
        """None while the game goes on, else who won and how it ended."""
        mouse, cat, turn = self.position
        setup = self.setup
        if mouse == cat:
            return Outcome.CAT_WIN, ending("caught", node=mouse)
        if mouse in setup.holes:
            return Outcome.MOUSE_WIN, ending("hole", node=mouse)
        if cat in setup.goals:
            return Outcome.CAT_WIN, ending("goal", node=cat)
        if not self._legal(self.position):
            winner = Outcome.CAT_WIN if turn == Turn.MOUSE else Outcome.MOUSE_WIN
            return winner, ending("stuck", player=turn)
        if self.position in self.history[:-1]:
            draw = setup.analysis._rules.draw
            if draw == Outcome.DRAW:
                return draw, ending("repeat draw")
            return draw, ending("repeat win", whose=draw)
        return None


# -- the terminal game ------------------------------------------------------------------

HELP = """\
  a node number   move there
  h               hints: each of your moves, who wins after it and in how many moves
  o               the outcome from here under perfect play
  b               the board
  u               undo your last move (and the reply)
  r               restart
  q               quit"""


def play_terminal(
    setup: Setup,
    mouse: int,
    cat: int,
    human: Turn,
    *,
    name: str = "the board",
    ask: Callable[[str], str] = input,
    out: TextIO | None = None,
) -> Outcome | None:
    """Play in the terminal until the game ends or the player quits; return the outcome."""
    stream = sys.stdout if out is None else out

    def say(text: str = "") -> None:
        print(text, file=stream, flush=True)

    match = Match(setup, mouse, cat, human=human)
    graph = setup.graph
    robot = PLAYER[human.other]
    say(f"Cat and Mouse on {name}: {graph.n} nodes, {graph.num_edges} edges, "
        + _holes_words(setup) + ".")
    say(f"You play the {PLAYER[human]}; the solver plays the {robot} perfectly. "
        f"The {PLAYER[match.mover]} moves first.")
    say("Type a node to move there; h for hints, o for the outcome, b for the board,")
    say("u to undo, r to restart, q to quit, ? for help.")
    say()
    _board(say, match)
    while True:
        ended = match.result()
        if ended is not None:
            outcome, how = ended
            say(f"game over: {how}. {verdict(outcome)}")
            if outcome == Outcome.DRAW:
                say("Nobody wins.")
            else:
                winner = Turn.MOUSE if outcome == Outcome.MOUSE_WIN else Turn.CAT
                say("You win!" if winner == human else "You lose.")
            answer = _ask(ask, "u to undo, r to restart, anything else to quit > ")
            if answer == "u":
                if match.undo():
                    _state(say, match)
                else:
                    say("  nothing to undo: you have not moved yet")
                continue
            if answer == "r":
                match.restart()
                _state_after_restart(say, match)
                continue
            return outcome
        if match.mover != human:
            src = match.position[1] if match.mover == Turn.CAT else match.position[0]
            dest = match.reply()
            say(f"  {robot}: {src} -> {dest}")
            continue
        _state(say, match)
        while True:
            answer = _ask(ask, "> ")
            if answer is None or answer in ("q", "quit", "exit"):
                say("bye")
                return None
            if answer in ("?", "help"):
                say(HELP)
            elif answer in ("h", "hint", "hints"):
                _hints(say, match)
            elif answer in ("o", "outcome"):
                mouse, cat, turn = match.position
                say(f"  with perfect play from here: {setup.words(mouse, cat, turn)}")
            elif answer in ("b", "board"):
                _board(say, match)
            elif answer in ("u", "undo"):
                if match.undo():
                    say("  undone")
                    _state(say, match)
                else:
                    say("  nothing to undo: you have not moved yet")
            elif answer in ("r", "restart"):
                match.restart()
                _state_after_restart(say, match)
                break
            elif answer.lstrip("-").isdigit():
                src = match.position[0] if human == Turn.MOUSE else match.position[1]
                try:
                    match.play(int(answer))
                except ValueError as error:
                    say(f"  {error}")
                    continue
                say(f"  you: {src} -> {answer}")
                break
            elif answer:
                say(f"  {answer!r}? type a node number, or ? for help")


def _ask(ask: Callable[[str], str], prompt: str) -> str | None:
    try:
        return ask(prompt).strip().lower()
    except EOFError:
        return None


def _holes_words(setup: Setup) -> str:
    holes = setup.holes
    text = ("no hole" if not holes else f"hole {holes[0]}" if len(holes) == 1
            else "holes " + ", ".join(map(str, holes)))
    if setup.goals:
        text += ", cat goals " + ", ".join(map(str, setup.goals))
    return text


def _state(say: Callable[[str], None], match: Match) -> None:
    mouse, cat, turn = match.position
    number = len(match.history)
    say(f"move {number}: mouse on {mouse}, cat on {cat} - your move ({PLAYER[turn]})")
    say("  your moves: " + ", ".join(map(str, match.moves())))


def _state_after_restart(say: Callable[[str], None], match: Match) -> None:
    say("  restarted")


def _hints(say: Callable[[str], None], match: Match) -> None:
    mover = match.mover
    win = Outcome.MOUSE_WIN if mover == Turn.MOUSE else Outcome.CAT_WIN
    say("  your moves, and the outcome after each with perfect play:")
    for dest, outcome, remoteness, best in match.hints():
        mark = ("  <- best" if best else "")
        tag = "win " if outcome == win else "draw" if outcome == Outcome.DRAW else "lose"
        say(f"    {dest:>4}  {tag}  {outcome_words(outcome, remoteness)}{mark}")


def _board(say: Callable[[str], None], match: Match) -> None:
    """Each node with what stands on it and where it leads."""
    setup = match.setup
    mouse, cat, _ = match.position
    rows = setup.graph._rows()
    cat_rows = setup.analysis._rules.cat_graph._rows()
    n = len(rows)
    shown = range(n) if n <= _LIST_NODES else sorted({mouse, cat, *setup.holes, *setup.goals})
    say("  board (node: who is there -> neighbours):")
    for u in shown:
        marks = [word for word, here in (("MOUSE", u == mouse), ("CAT", u == cat),
                                         ("hole", u in setup.holes),
                                         ("cat goal", u in setup.goals)) if here]
        line = f"    {u:>4} {', '.join(marks):<11} -> {', '.join(map(str, rows[u])) or '-'}"
        if setup.own_cat_graph:
            line += f"   (cat: {', '.join(map(str, cat_rows[u])) or '-'})"
        say(line)
    if n > _LIST_NODES:
        say(f"    ({n - len(shown)} more nodes not listed)")
