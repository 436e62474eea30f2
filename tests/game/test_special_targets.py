"""Writes to what is not a regular file: written in place or refused, never replaced.

A FIFO, a character device and one of the process's own descriptors (``/dev/stdout``) are
written where they are; a socket is refused in one line; names up to the file system's limit
work.  The devices here are made in ``tmp_path`` (a node with /dev/full's numbers); the real
``/dev/null`` is only written after checking that the write goes in place.
"""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import catmouse
from catmouse.io import atomic
from catmouse.io.export import csv_text

SQUARE = [[1, 3], [0, 2], [1, 3], [0, 2]]
ROOT = Path(__file__).resolve().parents[2]
# The catmouse under test (installed, or this checkout's): children import the same one.
INSTALLED = str(Path(catmouse.__file__).resolve().parent.parent)
posix = pytest.mark.skipif(os.name != "posix", reason="FIFOs, sockets and /dev are POSIX")


def run_cli(*args: str, **how) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=INSTALLED)
    return subprocess.run([sys.executable, "-m", "catmouse", *args], env=env, timeout=120,
                          **how)


def board(tmp_path: Path) -> Path:
    path = tmp_path / "square.json"
    path.write_text(str(SQUARE))
    return path


@posix
def test_a_fifo_is_written_in_place_and_stays_a_fifo(use_engine, tmp_path):
    fifo = tmp_path / "out.csv"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    analysis = catmouse.analyze(SQUARE)
    analysis.save(fifo)
    reader.join(30)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert got == [csv_text(analysis).encode()]
    assert sorted(os.listdir(tmp_path)) == ["out.csv"]


@posix
def test_the_cli_writes_a_fifo_in_place(tmp_path):
    fifo = tmp_path / "out.json"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    done = run_cli("analyze", str(board(tmp_path)), "-o", str(fifo), capture_output=True)
    reader.join(30)
    assert done.returncode == 0, done.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and got[0].startswith(b'{"n":4')


@posix
def test_a_socket_is_refused_in_one_line_and_stays_a_socket(tmp_path):
    path = tmp_path / "s.csv"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        with pytest.raises(OSError, match="is a socket"):
            catmouse.analyze(SQUARE).save(path)
        done = run_cli("analyze", str(board(tmp_path)), "-o", str(path), capture_output=True,
                       text=True)
    finally:
        server.close()
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert f"cannot write {path}" in done.stderr and "socket" in done.stderr
    assert stat.S_ISSOCK(os.stat(path).st_mode)


def device(tmp_path: Path, name: str, minor: int) -> Path:
    """A character device node in tmp_path with the numbers of /dev/null (3) or /dev/full
    (7), or skip where nodes cannot be made or opened (not root, a nodev mount)."""
    path = tmp_path / name
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
        os.close(os.open(path, os.O_WRONLY))
    except (OSError, AttributeError) as error:
        pytest.skip(f"cannot make a device node here: {error}")
    return path


@posix
def test_a_character_device_is_written_in_place(tmp_path):
    null = device(tmp_path, "null.csv", 3)
    catmouse.analyze(SQUARE).save(null)
    assert stat.S_ISCHR(os.stat(null).st_mode) and sorted(os.listdir(tmp_path)) == ["null.csv"]


@posix
def test_a_full_device_says_no_space_and_stays_a_device(tmp_path):
    full = device(tmp_path, "full.html", 7)
    for args in (["cop-play", str(ROOT / "examples" / "petersen.g6"), "--html", str(full)],
                 ["analyze", str(board(tmp_path)), "-o", str(full.with_suffix(".csv"))]):
        if args[0] == "analyze":
            os.rename(full, full.with_suffix(".csv"))
            full = full.with_suffix(".csv")
        done = run_cli(*args, capture_output=True, text=True)
        assert done.returncode == 1
        assert done.stderr == f"catmouse: error: cannot write {full}: No space left on device\n"
        assert stat.S_ISCHR(os.stat(full).st_mode)


@posix
def test_dev_null_is_written_in_place_and_stays_a_device():
    if not os.path.exists("/dev/null"):
        pytest.skip("no /dev/null")
    # Checked before anything is written: a regression must not replace the real device.
    assert atomic.where("/dev/null") == atomic.Target("/dev/null", True, None)
    before = os.stat("/dev/null")
    with atomic.replacing("/dev/null") as handle:
        handle.write("nothing")
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and (after.st_ino, after.st_rdev) == (before.st_ino,
                                                                             before.st_rdev)


@posix
@pytest.mark.parametrize("stdout_is", ["pipe", "file"])
def test_dev_stdout_is_written_through_the_descriptor(tmp_path, stdout_is):
    if not os.path.exists("/proc/self/fd"):
        pytest.skip("no /proc")
    args = ("play", str(board(tmp_path)), "--html", "/dev/stdout")
    if stdout_is == "pipe":
        done = run_cli(*args, capture_output=True, text=True)
        written = done.stdout
    else:
        out = tmp_path / "out.txt"
        with open(out, "w") as handle:
            inode = os.fstat(handle.fileno()).st_ino
            done = run_cli(*args, stdout=handle, stderr=subprocess.PIPE, text=True)
        written = out.read_text()
        assert out.stat().st_ino == inode  # the same file, not a new one
    assert done.returncode == 0, done.stderr
    # The page alone on stdout; the "wrote" line goes to stderr, so as not to join it.
    assert written.startswith("<!DOCTYPE html>") and written.rstrip().endswith("</html>")
    assert written.count("<!DOCTYPE") == 1
    assert done.stderr.startswith("wrote /dev/stdout: open it in a browser")


@posix
def test_a_bsd_style_dev_fd_is_written_through_the_descriptor(tmp_path, monkeypatch):
    """macOS and the BSDs have no /proc: /dev/fd is a folder of its own, where /dev/fd/N
    stats as whatever descriptor N holds (a regular file when stdout is one).  Stood in for
    by a folder here, named as atomic's /dev/fd: the write must go through the descriptor,
    after what was written there, not replace the file or make a temporary one beside it."""
    stand_in = tmp_path / "fd"
    stand_in.mkdir()
    out = tmp_path / "out.txt"
    with open(out, "w") as handle:
        handle.write("before\n")
        handle.flush()
        number = handle.fileno()
        (stand_in / str(number)).write_text("")  # a regular file, as fdescfs shows it
        monkeypatch.setattr(atomic, "_DEV_FD", str(stand_in), raising=False)
        named = stand_in / str(number)
        assert atomic.where(named) == atomic.Target(str(named), True, number)
        with atomic.replacing(named) as written:
            written.write("after\n")
    assert out.read_text() == "before\nafter\n"
    assert os.listdir(stand_in) == [str(number)]  # no temporary file, nothing replaced
    # Another process's descriptors are not listed there: a /proc folder of another pid is
    # still not this process's.
    assert not atomic._descriptor_folder(f"/proc/{os.getpid() + 1}/fd")
    assert atomic._descriptor_folder(f"/proc/{os.getpid()}/fd")


@pytest.mark.parametrize("exists", [False, True])
def test_a_name_at_the_file_systems_limit_is_written(tmp_path, exists):
    limit = atomic._name_limit(str(tmp_path))
    target = tmp_path / ("t" * (limit - 4) + ".csv")
    if exists:
        target.write_text("old")
    catmouse.analyze(SQUARE).save(target)
    assert target.read_text().startswith("mouse,") and os.listdir(tmp_path) == [target.name]


def test_a_name_past_the_limit_is_refused_as_too_long(tmp_path):
    limit = atomic._name_limit(str(tmp_path))
    with pytest.raises(OSError, match="too long"):
        catmouse.analyze(SQUARE).save(tmp_path / ("t" * (limit - 3) + ".csv"))
