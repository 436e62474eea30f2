"""``catmouse play`` in a terminal: whole games typed into a pseudo-terminal.

The command runs as a child process on a pty (as in a real terminal: input() echoes, the
prompt waits), and each turn's board line, legal moves, hints, outcome and the solver's reply
are checked against the Python analysis (``Match``).
"""

from __future__ import annotations

import os
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

import catmouse
from catmouse import Outcome, Turn
from catmouse.io.graph_files import read_graph
from catmouse.show.draw import Setup
from catmouse.show.play import Match
from catmouse.show.words import outcome_words, verdict

pty = pytest.importorskip("pty", reason="pseudo-terminals need a POSIX system")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
BOARDS = [("chase.edges", 3, 7), ("leetcode1.json", 1, 2), ("leetcode2.json", 1, 2),
          ("petersen.g6", 9, 4)]
STATE = re.compile(r"move (\d+): mouse on (\d+), cat on (\d+) - your move \((mouse|cat)\)\n"
                   r"  your moves: ([\d, ]+)\n")
HINT = re.compile(r"^ +(\d+)  (win |draw|lose)  (.*?)(  <- best)?$", re.M)


class Terminal:
    """A child process on a pty: type a line, read what it prints up to its next prompt."""

    def __init__(self, *argv: str):
        master, slave = pty.openpty()
        env = dict(os.environ, PYTHONPATH=str(Path(catmouse.__file__).resolve().parent.parent))
        self.proc = subprocess.Popen([sys.executable, "-m", "catmouse", *argv], stdin=slave,
                                     stdout=slave, stderr=slave, env=env, close_fds=True)
        os.close(slave)
        self.master = master
        self.opening = self.read()

    def read(self, timeout: float = 30.0) -> str:
        data = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:  # the child closed the terminal
                    break
                if not chunk:
                    break
                data += chunk
            elif data.endswith(b"> ") or self.proc.poll() is not None:
                break
        else:
            raise AssertionError(f"no prompt within {timeout} s; got {data!r}")
        return data.decode().replace("\r\n", "\n")

    def type(self, line: str) -> str:
        os.write(self.master, line.encode() + b"\n")
        out = self.read()
        # The pty echoes what was typed; drop it, and the bare prompt "> " that ends a turn.
        out = out[len(line) + 1:] if out.startswith(line + "\n") else out
        return out[:-2] if out == "> " or out.endswith("\n> ") else out

    def close(self) -> int:
        try:
            return self.proc.wait(timeout=20)
        finally:
            os.close(self.master)


def setup_of(name):
    return Setup.of(read_graph(str(EXAMPLES / name)).graph)


def check_state(out: str, match: Match) -> None:
    """The last state block printed is the match's position and legal moves."""
    states = STATE.findall(out)
    assert states, f"no board state in {out!r}"
    number, mouse, cat, who, moves = states[-1]
    mouse_, cat_, turn = match.position
    assert (int(mouse), int(cat), who) == (mouse_, cat_, turn.name.lower())
    assert int(number) == len(match.history)
    assert [int(m) for m in moves.split(", ")] == match.moves()


def check_hints(out: str, match: Match) -> None:
    win = Outcome.MOUSE_WIN if match.mover == Turn.MOUSE else Outcome.CAT_WIN
    shown = [(int(d), tag.strip(), words, bool(best)) for d, tag, words, best in HINT.findall(out)]
    want = []
    for dest, outcome, remoteness, best in match.hints():
        tag = "win" if outcome == win else "draw" if outcome == Outcome.DRAW else "lose"
        want.append((dest, tag, outcome_words(outcome, remoteness), best))
    assert shown == want


def replies(out: str, match: Match) -> None:
    """Make the solver's replies in ``match`` and check the terminal printed the same."""
    robot = "cat" if match.human == Turn.MOUSE else "mouse"
    printed = re.findall(rf"^  {robot}: (\d+) -> (\d+)$", out, re.M)
    made = []
    while match.result() is None and match.mover != match.human:
        mouse, cat, turn = match.position
        src = mouse if turn == Turn.MOUSE else cat
        made.append((str(src), str(match.reply())))
    assert printed == made


def play_out(term: Terminal, match: Match, out: str, choose) -> str:
    """Type moves chosen by ``choose`` until the game ends; return the final output."""
    replies(out, match)
    for _ in range(4 * match.setup.analysis.n ** 2):
        if match.result() is not None:
            return out
        check_state(out, match)
        hints = term.type("h")
        check_hints(hints, match)
        assert term.type("o").strip() == (
            "with perfect play from here: " + outcome_words(*match.value()))
        dest = choose(match)
        out = term.type(str(dest))
        assert f"  you: {match.position[0 if match.human == Turn.MOUSE else 1]} -> {dest}" in out
        match.play(dest)
        replies(out, match)
    raise AssertionError("the game did not end")


def best_move(match):
    return min(d for d, _, _, best in match.hints() if best)


def worst_move(match):
    return min(match.hints(), key=lambda h: (h[3], h[0]))[0]  # a move that is not best


@pytest.mark.parametrize("side", ["mouse", "cat"])
@pytest.mark.parametrize("board", BOARDS, ids=[b[0] for b in BOARDS])
def test_whole_game_with_hints(board, side):
    name, mouse, cat = board
    human = Turn.MOUSE if side == "mouse" else Turn.CAT
    term = Terminal("play", str(EXAMPLES / name), "--mouse", str(mouse), "--cat", str(cat),
                    "--as", side)
    assert f"You play the {side}; the solver plays the" in term.opening
    assert "board (node: who is there -> neighbours):" in term.opening
    match = Match(setup_of(name), mouse, cat, human=human)
    promised = match.value()[0]
    out = play_out(term, match, term.opening, best_move)
    outcome, how = match.result()
    assert outcome == promised  # perfect play gets what the analysis promised
    assert f"game over: {how}. {verdict(outcome)}" in out
    assert out.endswith("u to undo, r to restart, anything else to quit > ")
    # Restart from the end, then lose on purpose, then leave.
    out = term.type("r")
    assert "  restarted" in out
    match.restart()
    out = play_out(term, match, out, worst_move)
    assert "game over: " in out
    assert term.type("q") == "" and term.close() == 0


def test_undo_hint_board_and_mistakes():
    term = Terminal("play", str(EXAMPLES / "chase.edges"), "--mouse", "3", "--cat", "7")
    match = Match(setup_of("chase.edges"), 3, 7, human=Turn.MOUSE)
    check_state(term.opening, match)
    assert "nothing to undo" in term.type("u")
    assert "the mouse cannot move to 6: its moves are 2, 4, 7" in term.type("6")
    assert "'fly'? type a node number" in term.type("fly")
    assert "undo your last move" in term.type("?")
    board = term.type("b")
    assert re.search(r"^ +3 MOUSE +-> 2, 4, 7$", board, re.M)
    assert re.search(r"^ +7 CAT +-> 0, 1, 3, 8$", board, re.M)
    assert re.search(r"^ +0 hole +-> 1, 7$", board, re.M)
    out = term.type("2")
    match.play(2)
    replies(out, match)
    check_state(out, match)
    out = term.type("3")
    match.play(3)
    replies(out, match)
    # Undo twice: back to the start; the hints there are the start's.
    out = term.type("u")
    assert "  undone" in out
    match.undo()
    check_state(out, match)
    out = term.type("u")
    match.undo()
    check_state(out, match)
    assert match.position == (3, 7, Turn.MOUSE)
    check_hints(term.type("h"), match)
    # Walk into the cat; undo from the end of the game; then quit mid-game.
    out = term.type("7")
    assert "game over: the cat catches the mouse on node 7. The cat wins.\nYou lose." in out
    out = term.type("u")
    check_state(out, match)
    assert term.type("q") == "bye\n" and term.close() == 0


def test_end_of_input_quits():
    term = Terminal("play", str(EXAMPLES / "petersen.g6"))
    os.write(term.master, b"\x04")  # Ctrl-D
    assert "bye" in term.read()
    assert term.close() == 0


def test_piped_input_plays_too():
    """Without a terminal, moves come from stdin: scriptable."""
    result = subprocess.run(
        [sys.executable, "-m", "catmouse", "play", str(EXAMPLES / "leetcode2.json")],
        input="0\n", capture_output=True, text=True, timeout=60,
        env=dict(os.environ, PYTHONPATH=str(Path(catmouse.__file__).resolve().parent.parent)))
    assert result.returncode == 0
    assert "game over: the mouse reaches the hole (node 0). The mouse wins." in result.stdout
    assert "You win!" in result.stdout
    # The end of input at the last prompt ends the line, where the shell's prompt followed it.
    assert result.stdout.endswith("anything else to quit > \n")
    result = subprocess.run(
        [sys.executable, "-m", "catmouse", "play", str(EXAMPLES / "leetcode2.json")],
        input="", capture_output=True, text=True, timeout=60,
        env=dict(os.environ, PYTHONPATH=str(Path(catmouse.__file__).resolve().parent.parent)))
    assert result.returncode == 0 and result.stdout.endswith("> \nbye\n")


def test_a_game_over_before_your_first_move():
    """leetcode2 as the cat: the mouse steps into the hole at once; undo has nothing to take."""
    term = Terminal("play", str(EXAMPLES / "leetcode2.json"), "--as", "cat")
    assert "  mouse: 1 -> 0\ngame over: the mouse reaches the hole (node 0)." in term.opening
    assert "You lose." in term.opening
    out = term.type("u")
    assert "nothing to undo" in out and out.endswith("anything else to quit > ")
    out = term.type("r")
    assert "  restarted\n  mouse: 1 -> 0\ngame over" in out
    # The opening offered "? for help": at the last prompt it quit without a word.
    out = term.type("?")
    assert "  anything else quits\n" in out and out.endswith("anything else to quit > ")
    assert term.type("q") == "" and term.close() == 0


def test_a_big_board_lists_only_the_rows_that_matter(tmp_path):
    edges = tmp_path / "cycle.edges"
    edges.write_text("".join(f"{i} {(i + 1) % 50}\n" for i in range(50)))
    result = subprocess.run(
        [sys.executable, "-m", "catmouse", "play", str(edges), "--mouse", "25", "--cat", "10"],
        input="b\nq\n", capture_output=True, text=True, timeout=60,
        env=dict(os.environ, PYTHONPATH=str(Path(catmouse.__file__).resolve().parent.parent)))
    assert result.returncode == 0
    rows = re.findall(r"^ +(\d+) (?:hole|CAT|MOUSE) +-> ", result.stdout, re.M)
    assert rows == ["0", "10", "25"] * 2  # at the start, and for "b"
    assert "(47 more nodes not listed)" in result.stdout


def play_piped(tmp_path, argv, typed):
    """``catmouse play`` with the moves on stdin; the whole output."""
    result = subprocess.run(
        [sys.executable, "-m", "catmouse", "play", *map(str, argv)], input=typed,
        capture_output=True, text=True, timeout=60, cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=str(Path(catmouse.__file__).resolve().parent.parent)))
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize(("side", "start", "ending"), [
    # One-way path 0 -> 1 -> 2 -> 3 -> 4 and no hole: whoever reaches 4 is stuck there.
    ("mouse", ["--mouse", 3, "--cat", 0],
     "  you: 3 -> 4\n  cat: 0 -> 1\n"
     "game over: the mouse cannot move, and loses. The cat wins.\nYou lose.\n"),
    ("cat", ["--mouse", 1, "--cat", 3, "--first", "cat"],
     "  you: 3 -> 4\n  mouse: 1 -> 2\n"
     "game over: the cat cannot move, and loses. The mouse wins.\nYou lose.\n"),
])
def test_a_player_who_cannot_move_loses(tmp_path, side, start, ending):
    (tmp_path / "path.edges").write_text("0 1\n1 2\n2 3\n3 4\n")
    out = play_piped(tmp_path, ["path.edges", "--directed", "--holes", "", "--as", side,
                                *start], "4\n")
    assert ending + "u to undo, r to restart, anything else to quit > " in out
    assert out.startswith("Cat and Mouse on path.edges: 5 nodes, 4 edges, no hole.\n")


def test_the_stuck_player_loses_in_a_match():
    path = catmouse.Graph([[1], [2], [3], [4], []], directed=True)  # 0 -> 1 -> 2 -> 3 -> 4
    setup = Setup.of(catmouse.Game(path, holes=()))
    for mouse, cat, turn, winner in [(4, 0, Turn.MOUSE, Outcome.CAT_WIN),
                                     (0, 4, Turn.CAT, Outcome.MOUSE_WIN)]:
        match = Match(setup, mouse, cat, human=Turn.MOUSE, first=turn)
        assert match.result() == (winner, f"the {turn.name.lower()} cannot move, and loses")
        assert match.moves() == []


def test_the_opening_names_the_cat_goals(tmp_path):
    (tmp_path / "g.json").write_text("[[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]")
    out = play_piped(tmp_path, ["g.json", "--cat-goals", "5"], "q\n")
    assert out.startswith("Cat and Mouse on g.json: 6 nodes, 7 edges, hole 0, cat goals 5.\n")
    out = play_piped(tmp_path, ["g.json", "--holes", "0,4", "--cat-goals", "3,5"], "q\n")
    assert out.startswith("Cat and Mouse on g.json: 6 nodes, 7 edges, holes 0, 4, "
                          "cat goals 3, 5.\n")


# Node ids in another order than the labels (networkx's node-link JSON lists node 2 first):
# the hole is labelled 2 and has id 0, so a mix-up of ids and labels shows.
PERMUTED = ('{"directed": false, "multigraph": false, "graph": {}, "nodes": [{"id": 2}, '
            '{"id": 1}, {"id": 0}, {"id": 3}], "links": [{"source": 2, "target": 1}, '
            '{"source": 1, "target": 0}, {"source": 0, "target": 3}]}')


def test_a_labelled_graph_is_played_in_its_labels(tmp_path):
    path = tmp_path / "permuted.json"
    path.write_text(PERMUTED)
    analysis = catmouse.analyze(read_graph(str(path)).graph, hole=2)
    assert analysis.best_moves(1, 3) == [2]  # the hole, next to the mouse
    term = Terminal("play", str(path), "--mouse", "1", "--cat", "3", "--hole", "2")
    assert "hole 2." in term.opening and "your moves: 2, 0" in term.opening
    board = term.type("b")
    assert re.search(r"^ +2 hole +-> 1$", board, re.M)
    assert re.search(r"^ +1 MOUSE +-> 2, 0$", board, re.M)
    hints = term.type("h")
    assert re.search(r"^ +2  win   the mouse wins at once  <- best$", hints, re.M)
    assert re.search(r"^ +0  lose  the cat wins in 1 move$", hints, re.M)
    out = term.type("2")
    assert "you: 1 -> 2" in out and "the mouse reaches the hole (node 2)" in out
    assert term.type("q") == "" and term.close() == 0


def test_nodes_with_names_are_typed_by_name(tmp_path):
    path = tmp_path / "names.edges"
    path.write_text('"New York" b\nb a\na "New York"\nb c\nc d\n')
    term = Terminal("play", str(path), "--hole", "a", "--mouse", "New York", "--cat", "c")
    assert "hole a." in term.opening
    assert "mouse on New York, cat on c - your move (mouse)" in term.opening
    assert "your moves: b, a" in term.opening
    assert "'z'? type a node's name" in term.type("z")
    assert "the mouse cannot move to c: its moves are b, a" in term.type("c")
    assert "board (node" in term.type("b")  # a command before a node of that name
    out = term.type("go b")                  # which "go" reaches
    assert "you: New York -> b" in out and "cat: c -> b" in out
    assert "the cat catches the mouse on node b" in out
    assert term.type("q") == "" and term.close() == 0
    # Typed in other letters' case: the one name it matches.
    term = Terminal("play", str(path), "--hole", "a", "--mouse", "b", "--cat", "c")
    assert "you: b -> New York" in term.type("new york")
    assert term.type("q") == "bye\n" and term.close() == 0


def test_the_match_takes_and_gives_labels():
    graph = catmouse.Graph({"hole": ["m"], "m": ["hole", "x"], "x": ["m", "c"], "c": ["x"]})
    match = Match(Setup.of(graph, hole="hole"), "m", "c", human=Turn.CAT)
    assert match.position == ("m", "c", Turn.MOUSE) and match.moves() == ["hole", "x"]
    assert match.reply() == "hole"
    assert match.result() == (Outcome.MOUSE_WIN, "the mouse reaches the hole (node hole)")
    assert match.history == [("m", "c", Turn.MOUSE), ("hole", "c", Turn.CAT)]


def test_a_mistyped_number_is_no_node_and_the_game_goes_on():
    """On a graph of ids a node is typed in ASCII digits, as the command line's options take
    it: '²' and a 5,000-digit number ended the game with int()'s error blamed on the graph
    file, and Arabic-Indic '١' moved to node 1."""
    match = Match(setup_of("chase.edges"), 3, 7, human=Turn.MOUSE)
    for typed in ("²", "١", "9" * 5000, "-2", "+2", "2_0"):
        assert match.node(typed) is None
    assert match.node(" 2 ") == 2 and match.node("002") == 2
    typed = "²\n١\n" + "9" * 5000 + "\nq\n"
    result = subprocess.run(
        [sys.executable, "-m", "catmouse", "play", str(EXAMPLES / "chase.edges"), "--mouse",
         "3", "--cat", "7"], input=typed, capture_output=True, text=True, timeout=60,
        env=dict(os.environ, PYTHONPATH=str(Path(catmouse.__file__).resolve().parent.parent)))
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout.count("? type a node number, or ? for help") == 3
    assert result.stdout.endswith("bye\n")
