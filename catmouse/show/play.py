"""Playing against the solver: a game in progress, and the terminal front end.

:class:`Match` is the game: positions so far, legal moves, the solver's reply,
hints, undo and the end (the cat on the mouse, the mouse in a hole, the cat on
a goal, a player who cannot move, or a repeated position).  :func:`play_terminal`
is ``catmouse play`` in a terminal, plain ``input()`` and ``print()``.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TextIO

from ..analysis import Position
from ..io.export import json_label, label_from_json
from ..outcome import Outcome, Turn, as_turn
from .draw import Setup, place_ending
from .words import PLAYER, counted, ending, outcome_words, verdict

__all__ = ["Match", "clashing_names", "clashing_texts", "play_terminal", "shown_text",
           "typed_node"]


# Boards up to this many nodes are listed whole; bigger ones show the rows of the players,
# the holes and the goals.
_LIST_NODES = 40


class Match:
    """A game from a start, the human playing one side and the solver the other.

    Nodes are named as the graph names them (labels on a labelled graph, else ids), in the
    arguments and in what the methods give; the game itself is kept in node ids.

    >>> from catmouse.show.draw import Setup
    >>> match = Match(Setup.of([[1, 3], [0], [3], [0, 2]]), 1, 2, human=Turn.CAT)
    >>> match.reply()                 # the solver's mouse goes straight to the hole
    0
    >>> match.result()
    (<Outcome.MOUSE_WIN: 1>, 'the mouse reaches the hole (node 0)')
    """

    def __init__(self, setup: Setup, mouse: Hashable, cat: Hashable, *, human: Turn,
                 first: Turn | None = None):
        self.setup = setup
        self.human = as_turn(human, "human")
        turn = setup.first if first is None else as_turn(first, "first")
        # ValueError for a start that does not exist (a node not in the graph, the cat on
        # the hole).
        _, mouse_id, cat_id, turn = setup.analysis._where(mouse, cat, turn)
        self._history: list[Position] = [(mouse_id, cat_id, turn)]
        self._clashes = clashing_texts(setup.graph)

    def name(self, node: int) -> Hashable:
        """How the graph names node id ``node``."""
        return self.setup.graph._name(node)

    def text(self, label: Hashable) -> str:
        """How the terminal shows the node named ``label``, the text that types it: its
        ``str``, or its JSON where that is no unique, printable, typeable text (a label
        another reads alike, one holding a newline, with spaces round it, or empty).

        >>> match = Match(Setup.of({1: ["1"], "1": [1, "c"], "c": ["1"]}, 1), "1", "c",
        ...               human=Turn.MOUSE)
        >>> match.text(1), match.text("1"), match.text("c")
        ('1', '"1"', 'c')
        """
        return shown_text(self.setup.graph, self._clashes, label)

    def _named(self, position: Position) -> Position:
        mouse, cat, turn = position
        return (self.name(mouse), self.name(cat), turn)

    @property
    def history(self) -> list[Position]:
        """The positions so far, the start first (nodes named as the graph names them)."""
        return [self._named(p) for p in self._history]

    @property
    def position(self) -> Position:
        return self._named(self._history[-1])

    @property
    def mover(self) -> Turn:
        return self._history[-1][2]

    def moves(self) -> list[Hashable]:
        """The mover's legal destinations, in node order (none once the game is over)."""
        if self.result() is not None:
            return []
        return [self.name(d) for d in self._legal(self._history[-1])]

    def _legal(self, position: Position) -> list[int]:
        return sorted(dest for dest, _ in self.setup.analysis._rules.moves(*position))

    def _after(self, dest: int) -> Position:
        mouse, cat, turn = self._history[-1]
        return (dest, cat, Turn.CAT) if turn == Turn.MOUSE else (mouse, dest, Turn.MOUSE)

    def _value(self, position: Position) -> tuple[Outcome, int | None]:
        a = self.setup.analysis
        mouse, cat, turn = position
        s = (int(turn) * a.n + mouse) * a.n + cat
        outcome = Outcome(a._outcomes[s])
        if not a.has_remoteness:
            return outcome, None
        r = a._remoteness_at(s)
        return outcome, None if r < 0 else r

    def value(self, position: Position | None = None) -> tuple[Outcome, int | None]:
        """Outcome and remoteness (None without remoteness, or if the game never ends) of a
        position (default: the current one) with perfect play."""
        if position is None:
            return self._value(self._history[-1])
        _, mouse, cat, turn = self.setup.analysis._where(*position)
        return self._value((mouse, cat, turn))

    def hints(self) -> list[tuple[Hashable, Outcome, int | None, bool]]:
        """Each legal move: destination, outcome and remoteness after it, and whether it is best."""
        if self.result() is not None:
            return []
        best = set(self.setup.analysis._best_moves_at(*self._history[-1]))
        return [(self.name(d), *self._value(self._after(d)), d in best)
                for d in self._legal(self._history[-1])]

    def play(self, dest: Hashable) -> None:
        """The mover goes to ``dest``; ValueError if that is not a legal move."""
        legal = self._legal(self._history[-1]) if self.result() is None else []
        for d in legal:
            if self.name(d) == dest:
                self._history.append(self._after(d))
                return
        if not legal:
            raise ValueError("the game is over")
        raise ValueError(f"the {PLAYER[self.mover]} cannot move to {self.text(dest)}: its "
                         "moves are " + ", ".join(self.text(self.name(d)) for d in legal))

    def reply(self) -> Hashable:
        """The solver's move for the side to move: the first of its best moves in node order."""
        dest = self.setup.analysis._best_moves_at(*self._history[-1])[0]
        self._history.append(self._after(dest))
        return self.name(dest)

    def undo(self) -> bool:
        """Back to the human's previous turn; False if the human has not moved yet."""
        for k in range(len(self._history) - 2, -1, -1):
            if self._history[k][2] == self.human:
                del self._history[k + 1:]
                return True
        return False

    def restart(self) -> None:
        del self._history[1:]

    def result(self) -> tuple[Outcome, str] | None:
        """None while the game goes on, else who won and how it ended."""
        mouse, cat, turn = here = self._history[-1]
        setup = self.setup
        kind = place_ending(here, setup.holes, setup.goals)
        if kind is not None:
            winner = Outcome.MOUSE_WIN if kind == "hole" else Outcome.CAT_WIN
            node = cat if kind == "goal" else mouse
            return winner, ending(kind, node=self.text(self.name(node)))
        if not self._legal(here):
            winner = Outcome.CAT_WIN if turn == Turn.MOUSE else Outcome.MOUSE_WIN
            return winner, ending("stuck", player=turn)
        if here in self._history[:-1]:
            draw = setup.analysis._rules.draw
            if draw == Outcome.DRAW:
                return draw, ending("repeat draw")
            return draw, ending("repeat win", whose=draw)
        return None

    def node(self, text: str) -> Hashable | None:
        """The node typed as ``text``: a label whose text it is (exactly, else the one label
        it matches ignoring case), a label's JSON (``"1"`` for the string where ``1`` names
        two nodes, ``[1, 2]`` for a tuple), an id on a graph without labels; None if none
        is (or if ``text`` reads as several labels)."""
        return typed_node(self.setup.graph, text)

    def clash(self, text: str) -> list[str]:
        """How each node that ``text`` reads as is typed, when it reads as several."""
        return clashing_names(self.setup.graph, self._clashes, text)


def clashing_texts(graph: Any) -> set[str]:
    """The texts that several of ``graph``'s labels read as (``1`` and ``"1"``, ``(1, 2)`` and
    ``"(1, 2)"``): such a label is shown, and typed, as JSON."""
    if graph._labels is None:
        return set()
    counts = Counter(str(label) for label in graph._labels)
    return {text for text, count in counts.items() if count > 1}


def shown_text(graph: Any, clashes: set[str], label: Hashable, apart: str = "") -> str:
    """How a terminal shows the node named ``label``, the text that types it: its ``str``, or
    its JSON where that is no unique, printable, typeable text (a text in ``clashes``, from
    :func:`clashing_texts`; a newline, spaces round it, nothing, a character of ``apart``:
    what separates the names of a list typed on one line)."""
    text = str(label)
    if graph._labels is None or (text not in clashes and text.isprintable()
                                 and text == text.strip() and text
                                 and not any(ch in text for ch in apart)):
        return text
    shown = json.dumps(json_label(label), ensure_ascii=False)
    return shown if shown.isprintable() else json.dumps(json_label(label))


def typed_node(graph: Any, text: str) -> Hashable | None:
    """The node typed as ``text``: a label whose text it is (exactly, else the one label it
    matches ignoring case), a label's JSON (``"1"`` for the string where ``1`` names two
    nodes, ``[1, 2]`` for a tuple), an id on a graph without labels; None if none is (or if
    ``text`` reads as several labels)."""
    labels = graph._labels
    if labels is None:
        return _typed_id(text.strip())
    exact = [label for label in labels if str(label) == text]
    if len(exact) == 1:
        return exact[0]
    found = _json_label(graph, text)
    if found is not None or exact:
        return found
    folded = [label for label in labels if str(label).casefold() == text.casefold()]
    return folded[0] if len(folded) == 1 else None


def clashing_names(graph: Any, clashes: set[str], text: str) -> list[str]:
    """How each node that ``text`` reads as is typed, when it reads as several."""
    if text not in clashes:
        return []
    return [shown_text(graph, clashes, label) for label in graph._labels if str(label) == text]


def _json_label(graph: Any, text: str) -> Hashable | None:
    """The label ``text`` writes as JSON (a list a tuple), as the command line reads a node
    option; None if it is none (a bool only for a bool label: ``true`` is not 1)."""
    try:
        value = label_from_json(json.loads(text))
        at = graph._index.get(value)
    except (ValueError, TypeError, RecursionError):
        return None
    if at is None:
        return None
    label = graph._labels[at]
    return label if (type(value) is bool) == (type(label) is bool) else None


def _typed_id(text: str) -> int | None:
    """A node id typed on a graph of ids: ASCII digits, as the command line's node options
    take them (``str.isdigit`` passes ``²``, which int() refuses, and ``١``, which it reads
    as 1), and short enough for int() (past 20 digits no id is that large)."""
    if not (text.isascii() and text.isdigit()) or len(text.lstrip("0")) > 20:
        return None
    return int(text)


# -- the terminal game ------------------------------------------------------------------

HELP = """\
  a node          move there (its number, or its name on a graph of names)
  go NODE         move to NODE (a node named like one of the letters below)
  h               hints: each of your moves, who wins after it and in how many moves
  o               the outcome from here under perfect play
  b               the board
  u               undo your last move (and the reply)
  r               restart
  q               quit"""


def play_terminal(
    setup: Setup,
    mouse: Hashable,
    cat: Hashable,
    human: Turn,
    *,
    name: str = "the board",
    ask: Callable[[str], str] = input,
    out: TextIO | None = None,
) -> Outcome | None:
    """Play in the terminal until the game ends or the player quits; return the outcome.

    Nodes are named as the graph names them, in the starts, on the screen and as typed."""
    stream = sys.stdout if out is None else out

    def say(text: str = "") -> None:
        print(text, file=stream, flush=True)

    match = Match(setup, mouse, cat, human=human)
    graph = setup.graph
    robot = PLAYER[human.other]
    say(f"Cat and Mouse on {name}: {counted(graph.n, 'node')}, "
        f"{counted(graph.num_edges, 'edge')}, "
        + _holes_words(match) + ".")
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
            if answer is None:  # end of input: the next prompt (the shell's) on a line of its own
                say()
                return outcome
            while answer in ("?", "help"):  # (the opening offered "? for help": not a quit)
                say("  u  undo your last move (and the reply)\n  r  restart\n"
                    "  anything else quits")
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
            say(f"  {robot}: {match.text(src)} -> {match.text(dest)}")
            continue
        _state(say, match)
        while True:
            typed = _ask(ask, "> ", fold=False)
            if typed is None:
                say()  # (end of input: "bye" below the prompt, not after it)
            if typed is None or typed.lower() in ("q", "quit", "exit"):
                say("bye")
                return None
            answer = typed.lower()
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
            elif answer:
                text = typed[3:].strip() if answer.startswith("go ") else typed
                dest = match.node(text)
                if dest is None:
                    clash = match.clash(text)
                    if clash:
                        say(f"  {text!r} names several nodes: type one as shown, "
                            + " or ".join(clash))
                        continue
                    what = "a node number" if graph._labels is None else "a node's name"
                    say(f"  {text!r}? type {what}, or ? for help")
                    continue
                src = match.position[0] if human == Turn.MOUSE else match.position[1]
                try:
                    match.play(dest)
                except ValueError as error:
                    say(f"  {error}")
                    continue
                say(f"  you: {match.text(src)} -> {match.text(dest)}")
                break


def _ask(ask: Callable[[str], str], prompt: str, fold: bool = True) -> str | None:
    """The answer stripped (and lower-cased with ``fold``); None at the end of input."""
    try:
        answer = ask(prompt).strip()
    except EOFError:
        return None
    return answer.lower() if fold else answer


def _holes_words(match: Match) -> str:
    setup = match.setup

    def name(u: int) -> str:
        return match.text(match.name(u))

    holes = [name(u) for u in setup.holes]
    text = ("no hole" if not holes else f"hole {holes[0]}" if len(holes) == 1
            else "holes " + ", ".join(holes))
    if setup.goals:
        text += ", cat goals " + ", ".join(name(u) for u in setup.goals)
    return text


def _state(say: Callable[[str], None], match: Match) -> None:
    mouse, cat, turn = match.position
    number = len(match.history)
    say(f"move {number}: mouse on {match.text(mouse)}, cat on {match.text(cat)} - your move "
        f"({PLAYER[turn]})")
    say("  your moves: " + ", ".join(map(match.text, match.moves())))


def _state_after_restart(say: Callable[[str], None], match: Match) -> None:
    say("  restarted")


def _hints(say: Callable[[str], None], match: Match) -> None:
    mover = match.mover
    win = Outcome.MOUSE_WIN if mover == Turn.MOUSE else Outcome.CAT_WIN
    say("  your moves, and the outcome after each with perfect play:")
    for dest, outcome, remoteness, best in match.hints():
        mark = ("  <- best" if best else "")
        tag = "win " if outcome == win else "draw" if outcome == Outcome.DRAW else "lose"
        say(f"    {match.text(dest):>4}  {tag}  {outcome_words(outcome, remoteness)}{mark}")


def _board(say: Callable[[str], None], match: Match) -> None:
    """Each node with what stands on it and where it leads."""
    setup = match.setup
    mouse, cat, _ = match._history[-1]
    rows = setup.graph._rows()
    cat_rows = setup.analysis._rules.cat_graph._rows()
    n = len(rows)
    shown = range(n) if n <= _LIST_NODES else sorted({mouse, cat, *setup.holes, *setup.goals})

    def names(row: Sequence[int]) -> str:
        return ", ".join(match.text(match.name(v)) for v in row) or "-"

    say("  board (node: who is there -> neighbours):")
    for u in shown:
        marks = [word for word, here in (("MOUSE", u == mouse), ("CAT", u == cat),
                                         ("hole", u in setup.holes),
                                         ("cat goal", u in setup.goals)) if here]
        line = f"    {match.text(match.name(u)):>4} {', '.join(marks):<11} -> {names(rows[u])}"
        if setup.own_cat_graph:
            line += f"   (cat: {names(cat_rows[u])})"
        say(line)
    if n > _LIST_NODES:
        say(f"    ({n - len(shown)} more nodes not listed)")
