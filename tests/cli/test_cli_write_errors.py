"""The command line's writes: a failure names what could not be written, in one line.

``cannot write <path>`` for ``-o``/``--html`` (checked before any work), ``cannot write
<stdout>`` for standard output (a full disk), and one line when stdout is closed; the
"wrote" line says what its count of positions counts.
"""

from __future__ import annotations

import io
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import catmouse
from catmouse.cli import main

ROOT = Path(__file__).resolve().parents[2]
# The catmouse under test (installed, or this checkout's): children import the same one.
INSTALLED = str(Path(catmouse.__file__).resolve().parent.parent)
PETERSEN = str(ROOT / "examples" / "petersen.g6")
SQUARE = str(ROOT / "examples" / "square.json")
posix = pytest.mark.skipif(os.name != "posix", reason="/dev/full and closing fds are POSIX")


def run_cli(*args: str, **how) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=INSTALLED)
    return subprocess.run([sys.executable, "-m", "catmouse", *args], env=env, timeout=120,
                          text=True, **how)


@pytest.mark.parametrize("command", [["cop-play", PETERSEN, "--html"],
                                     ["play", SQUARE, "--html"],
                                     ["analyze", SQUARE, "-o"],
                                     ["draw", SQUARE, "-o"]])
def test_a_folder_or_a_missing_folder_as_output_cannot_be_written(tmp_path, capsys, command):
    suffix = {"cop-play": ".html", "play": ".html", "analyze": ".csv", "draw": ".svg"}
    folder = tmp_path / f"d{suffix[command[0]]}"
    folder.mkdir()
    missing = tmp_path / "nope" / f"x{suffix[command[0]]}"
    for target, why in ((folder, "is a folder"), (missing, "no such folder")):
        assert main([*command, str(target)]) == 1
        captured = capsys.readouterr()
        assert captured.err == f"catmouse: error: cannot write {target}: {why}\n"
        assert captured.out == ""  # refused before solving: no "solving" or "wrote"
    assert os.listdir(tmp_path) == ["d" + suffix[command[0]]]


@pytest.mark.parametrize("command, suffix", [(["cop-play", "{graph}", "--html"], ".html"),
                                             (["play", "{graph}", "--html"], ".html"),
                                             (["analyze", "{graph}", "-o"], ".json"),
                                             (["analyze", "{graph}", "--output-format", "json",
                                               "-o"], ".edges"),
                                             (["draw", "{graph}", "--format", "edges", "-o"],
                                              ".svg")])
def test_the_graph_file_being_read_is_not_written_over(tmp_path, capsys, command, suffix):
    # By its name, another spelling of it, or a link to it: refused before anything is done.
    text = "0 1\n1 2\n2 3\n3 0\n" if suffix in (".edges", ".svg") else Path(SQUARE).read_text()
    graph = tmp_path / f"graph{suffix}"
    graph.write_text(text)
    try:
        (tmp_path / f"link{suffix}").symlink_to(graph.name)
    except (OSError, NotImplementedError):  # (Windows without the right to make links)
        pass
    argv = [part.format(graph=graph) for part in command]
    for target in (graph, tmp_path / "." / graph.name, tmp_path / f"link{suffix}"):
        if not target.exists():
            continue
        assert main([*argv, str(target)]) == 1
        captured = capsys.readouterr()
        assert captured.err == (f"catmouse: error: cannot write {target}: it is the file "
                                f"{graph} that the graph is read from\n")
        assert captured.out == ""
    assert graph.read_text() == text


@pytest.mark.parametrize("command", [["analyze", "-", "--output-format", "csv", "-o"],
                                     ["play", "-", "--html"], ["cop-play", "-", "--html"],
                                     ["draw", "-", "--format", "edges", "-o"],
                                     ["analyze", SQUARE, "--cat-graph", "-", "--format", "edges",
                                      "--output-format", "csv", "-o"]])
def test_the_graph_file_on_standard_input_is_not_written_over(tmp_path, capsys, monkeypatch,
                                                             command):
    """``analyze - -o g.edges < g.edges`` replaced the graph with its table: '-' was never
    compared with the output, though it reads that very file."""
    graph = tmp_path / "g.svg"  # (a name draw writes; the text is an edge list)
    text = "0 1\n1 2\n2 3\n3 0\n"
    graph.write_text(text)
    argv = [*command, str(graph)]
    with open(graph) as stdin:
        monkeypatch.setattr(sys, "stdin", stdin)
        assert main(argv) == 1
    captured = capsys.readouterr()
    assert captured.err == (f"catmouse: error: cannot write {graph}: it is the file <stdin> "
                            "that the graph is read from\n")
    assert captured.out == "" and graph.read_text() == text
    # Standard input that is no regular file (a terminal, a pipe) is no file to keep.
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    assert main(["analyze", "-", "--output-format", "csv", "-o", str(tmp_path / "t.csv")]) == 0


def test_the_cat_s_graph_file_is_not_written_over(tmp_path, capsys):
    cat = tmp_path / "cat.json"
    cat.write_text(Path(SQUARE).read_text())
    assert main(["analyze", SQUARE, "--cat-graph", str(cat), "--output-format", "json",
                 "-o", str(cat)]) == 1
    assert "that the graph is read from" in capsys.readouterr().err
    assert cat.read_text() == Path(SQUARE).read_text()


@posix
@pytest.mark.parametrize("command", [["solve", SQUARE], ["solve", SQUARE, "--json"],
                                     ["cop-win", PETERSEN], ["cop-number", PETERSEN],
                                     ["--help"]])
def test_stdout_on_a_full_disk_cannot_be_written(command):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:  # only redirected to: never a write target by name
        done = run_cli(*command, stdout=full, stderr=subprocess.PIPE)
    if command == ["--help"]:  # argparse's own print; the status says it failed
        assert done.returncode != 0
        return
    assert done.returncode == 1
    assert done.stderr.splitlines()[-1] == ("catmouse: error: cannot write <stdout>: "
                                            "No space left on device")
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr


@posix
@pytest.mark.parametrize("command", [["cop-number", PETERSEN], ["solve", SQUARE]])
def test_a_closed_stdout_is_one_line(command):
    args = " ".join(shlex.quote(a) for a in [sys.executable, "-m", "catmouse", *command])
    done = subprocess.run(["sh", "-c", f"{args} >&-"], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=INSTALLED), timeout=120)
    assert done.returncode == 1
    assert done.stderr == "catmouse: error: cannot write <stdout>: standard output is closed\n"


def test_the_wrote_line_says_which_positions_it_leaves_out(tmp_path, capsys):
    assert main(["analyze", SQUARE, "-o", str(tmp_path / "t.csv")]) == 0
    out = capsys.readouterr().out
    # 2 turns x 4 x 4 = 32 table entries; the 8 with the cat on the hole are no positions.
    assert "24 positions of 4 nodes (2 x 4 x 4 less the 8 with the cat on a node it may not " \
           "enter)" in out
    assert main(["analyze", SQUARE, "--holes", "", "-o", str(tmp_path / "t.csv")]) == 0
    out = capsys.readouterr().out
    assert "32 positions of 4 nodes:" in out  # nothing left out, nothing to explain


def test_the_cat_and_mouse_guard_sees_ulimit_v_and_says_so(tmp_path):
    """Under ``ulimit -v`` a board too big for what the limit leaves is refused before
    allocating, naming the limit (it used to fail inside the engine with an empty
    "too large to solve here: ")."""
    if sys.platform != "linux":
        pytest.skip("RLIMIT_AS on Linux")
    import resource

    path = tmp_path / "path.edges"
    path.write_text("".join(f"{v} {v + 1}\n" for v in range(7999)))

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (400_000 * 1024, resource.RLIM_INFINITY))

    done = subprocess.run([sys.executable, "-m", "catmouse", "analyze", str(path), "-o",
                           str(tmp_path / "t.npz")],
                          capture_output=True, text=True, preexec_fn=limit, timeout=120,
                          env=dict(os.environ, PYTHONPATH=INSTALLED))
    assert done.returncode == 1, done.stderr
    assert "too large to solve here" in done.stderr
    assert "address-space limit (ulimit -v)" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("command", [["play", SQUARE], ["cop-play", PETERSEN]])
def test_a_page_to_dash_goes_to_standard_output(tmp_path, monkeypatch, capsysbinary, command):
    """``--html -`` wrote (or replaced) a file named '-' in the current folder, while ``-`` is
    standard input for every graph and standard output for ``analyze -o``."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "-").write_text("a file named -, kept")
    assert main([*command, "--html", "-"]) == 0
    out, err = capsysbinary.readouterr()
    assert out.startswith(b"<!DOCTYPE html>") and out.rstrip().endswith(b"</html>")
    assert err.decode().startswith("wrote <stdout>: open it in a browser")
    assert (tmp_path / "-").read_text() == "a file named -, kept"
    assert os.listdir(tmp_path) == ["-"]


@pytest.mark.parametrize("command", [["analyze", SQUARE, "--output-format", "csv", "-o"],
                                     ["play", SQUARE, "--html"],
                                     ["cop-play", PETERSEN, "--html"]])
def test_an_output_spelt_as_a_folder_keeps_the_file_of_that_name(tmp_path, capsys, command):
    """``-o notes.txt/`` replaced the file notes.txt (the slash was dropped), and ``-o new/``
    wrote a file named new."""
    notes = tmp_path / "notes.txt"
    notes.write_text("keep me\n")
    for target, folder in ((f"{notes}/", notes), (f"{tmp_path}/new/", tmp_path / "new")):
        assert main([*command, target]) == 1
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err == f"catmouse: error: cannot write {target}: no such folder\n"
    assert notes.read_text() == "keep me\n" and os.listdir(tmp_path) == ["notes.txt"]


@pytest.mark.parametrize("command", [["analyze", SQUARE, "--output-format", "csv", "-o"],
                                     ["play", SQUARE, "--html"]])
def test_an_output_through_a_file_or_a_missing_folder_is_refused(tmp_path, capsys, command):
    """``-o x/../y.csv`` passes through x, which the system refuses where x is a file or
    missing; realpath resolved the text and wrote over y.csv."""
    (tmp_path / "x").write_text("a file\n")
    kept = tmp_path / "y.csv"
    kept.write_text("keep me\n")
    for way in ("x", "gone"):
        target = f"{tmp_path}/{way}/../y.csv"
        assert main([*command, target]) == 1
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err == f"catmouse: error: cannot write {target}: no such folder\n"
    assert kept.read_text() == "keep me\n" and sorted(os.listdir(tmp_path)) == ["x", "y.csv"]
    # Through a folder it is the same file the system writes.
    (tmp_path / "sub").mkdir()
    assert main([*command, f"{tmp_path}/sub/../y.csv"]) == 0
    assert kept.read_text() != "keep me\n"
