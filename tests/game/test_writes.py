"""Writes that never destroy the old file: every writer works first, then replaces the file.

Interrupted (Ctrl-C, SIGTERM) or failing, a write leaves the old file as it was and no
temporary file behind; a symlink is written through; a read-only file or folder is refused in
one line.  Both engines; the interrupted writes run in child processes.
"""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

import catmouse
from catmouse.atomic import replacing

OLD = "the old file\n"
SQUARE = [[1, 3], [0, 2], [1, 3], [0, 2]]


def leftovers(folder: Path) -> list[str]:
    return sorted(name for name in os.listdir(folder) if name.endswith(".part"))


@pytest.mark.parametrize("suffix", [".csv", ".json", ".npz"])
def test_save_replaces_the_file_whole(use_engine, tmp_path, suffix):
    if suffix == ".npz":
        pytest.importorskip("numpy")
    target = tmp_path / f"table{suffix}"
    target.write_text(OLD)
    catmouse.analyze(SQUARE).save(target)
    assert target.read_bytes() != OLD.encode() and leftovers(tmp_path) == []


def test_a_failing_write_leaves_the_old_file(tmp_path):
    target = tmp_path / "t.txt"
    target.write_text(OLD)
    with pytest.raises(RuntimeError), replacing(target) as handle:
        handle.write("half a table")
        raise RuntimeError("the work failed")
    assert target.read_text() == OLD and leftovers(tmp_path) == []


def test_a_symlink_is_written_through(tmp_path):
    real = tmp_path / "real.json"
    real.write_text(OLD)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    catmouse.analyze(SQUARE).save(link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text().startswith("{") and leftovers(tmp_path) == []


def test_a_read_only_file_or_folder_is_refused_and_left_alone(tmp_path):
    target = tmp_path / "kept.csv"
    target.write_text(OLD)
    target.chmod(0o444)
    with pytest.raises(PermissionError, match="read-only"):
        catmouse.analyze(SQUARE).save(target)
    assert target.read_text() == OLD
    folder = tmp_path / "locked"
    folder.mkdir()
    (folder / "kept.csv").write_text(OLD)
    folder.chmod(0o555)
    try:
        with pytest.raises(PermissionError, match="read-only"):
            catmouse.analyze(SQUARE).save(folder / "kept.csv")
        assert (folder / "kept.csv").read_text() == OLD and leftovers(folder) == []
    finally:
        folder.chmod(0o755)


def test_the_new_file_keeps_the_old_permissions(tmp_path):
    target = tmp_path / "shared.json"
    target.write_text(OLD)
    target.chmod(0o640)
    catmouse.analyze(SQUARE).save(target)
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_the_cli_refuses_a_read_only_target_in_one_line(tmp_path, capsys):
    from catmouse.cli import main

    board = tmp_path / "square.json"
    board.write_text("[[1, 3], [0, 2], [1, 3], [0, 2]]")
    target = tmp_path / "out.csv"
    target.write_text(OLD)
    target.chmod(0o444)
    assert main(["analyze", str(board), "-o", str(target)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "read-only" in err and target.read_text() == OLD


def test_a_failing_draw_leaves_the_old_picture(tmp_path):
    """An input name that is not UTF-8 fails the SVG's text: the old picture stays."""
    if sys.platform == "darwin":
        pytest.skip("macOS refuses file names that are not UTF-8")
    board = Path(os.fsdecode(bytes(tmp_path) + b"/b\xff.json"))
    board.write_text("[[1, 3], [0, 2], [1, 3], [0, 2]]")
    target = tmp_path / "picture.svg"
    target.write_text(OLD)
    done = subprocess.run([sys.executable, "-m", "catmouse", "draw", str(board), "-o",
                           str(target)], capture_output=True)
    assert done.returncode != 0 or target.read_text() != OLD
    if done.returncode != 0:
        assert target.read_text() == OLD
    assert leftovers(tmp_path) == []


def test_a_signal_just_after_the_temporary_file_appears_removes_it(tmp_path, monkeypatch):
    """The window the SIGTERM test once hit on a loaded machine: the file made, its name not
    yet known to the writer (tempfile.mkstemp names it on return).  Here the signal is
    simulated as a KeyboardInterrupt raised the moment the file exists."""
    from catmouse import atomic

    made = atomic._created

    def made_then_interrupted(path: str) -> bool:
        assert made(path) and os.path.exists(path)
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic, "_created", made_then_interrupted)
    target = tmp_path / "table.csv"
    target.write_text(OLD)
    with pytest.raises(KeyboardInterrupt), replacing(target) as handle:
        handle.write("new")
    assert target.read_text() == OLD and leftovers(tmp_path) == []


def test_a_taken_temporary_name_is_skipped_and_left_alone(tmp_path, monkeypatch):
    from catmouse import atomic

    names = iter(["aaaaaaaa", "aaaaaaaa", "bbbbbbbb"])
    monkeypatch.setattr(atomic.secrets, "token_hex", lambda size: next(names))
    other = tmp_path / ".table.csv.aaaaaaaa.part"
    with replacing(tmp_path / "table.csv") as handle:
        handle.write("first")
    other.write_text("another writer's")  # the first name, taken while the next one writes
    with replacing(tmp_path / "table.csv") as handle:
        handle.write("second")
    assert (tmp_path / "table.csv").read_text() == "second"
    assert other.read_text() == "another writer's"
    assert leftovers(tmp_path) == [other.name]


SAVE_SLOWLY = r"""
import sys, time, catmouse
n = int(sys.argv[2])
rows = [[(u - 1) % n, (u + 1) % n] for u in range(n)]
analysis = catmouse.analyze(rows)
print("ready", flush=True)
# Each progress report waits a little: the write lasts long enough for the signal to land
# inside it however fast the writer and however loaded the machine.
analysis.save(sys.argv[1], progress=lambda done: time.sleep(0.05))
print("finished", flush=True)
"""


def interrupt(command: list[str], target: Path, how: int, env: dict) -> subprocess.Popen:
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env=env)
    # Wait until the temporary file exists: the work is done and the write has begun.
    deadline = time.monotonic() + 120
    while not leftovers(target.parent) and child.poll() is None:
        if time.monotonic() > deadline:
            break
        time.sleep(0.01)
    child.send_signal(how)
    child.communicate(timeout=120)
    return child


@pytest.mark.skipif(os.name != "posix", reason="sends signals")
@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_save_interrupted_leaves_the_old_file(use_engine, tmp_path, how):
    target = tmp_path / "table.csv"
    target.write_text(OLD)
    env = dict(os.environ)
    if catmouse.engine.current.name == "python":
        env["CATMOUSE_NO_EXTENSIONS"], env["CATMOUSE_REQUIRE_EXTENSIONS"] = "1", "0"
    child = interrupt([sys.executable, "-c", SAVE_SLOWLY, str(target), "1500"], target, how, env)
    assert child.returncode != 0, "the write finished before the signal: make it longer"
    assert target.read_text() == OLD and leftovers(tmp_path) == []


@pytest.mark.skipif(os.name != "posix", reason="sends signals")
@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_the_cli_interrupted_leaves_the_old_file(tmp_path, how):
    # The signal goes out once the temporary file exists; on a loaded machine the CSV writer
    # (fast since it writes numpy blocks) can finish before it lands: then a longer write.
    for n in (1500, 3000):
        board = tmp_path / "ring.json"
        board.write_text(str([[(u - 1) % n, (u + 1) % n] for u in range(n)]))
        target = tmp_path / "table.csv"
        target.write_text(OLD)
        child = interrupt([sys.executable, "-m", "catmouse", "analyze", str(board), "-o",
                           str(target)], target, how, dict(os.environ))
        if child.returncode == 0:  # the write won the race: whole, and nothing left behind
            assert target.read_text(encoding="utf-8").startswith("mouse,") and not leftovers(
                tmp_path)
            continue
        assert child.returncode in (130, 143), child.returncode
        assert target.read_text() == OLD and leftovers(tmp_path) == []
        return
    pytest.fail("every write finished before the signal: make it longer")
