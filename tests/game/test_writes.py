"""Writes that never destroy the old file: every writer works first, then replaces the file.

Interrupted (Ctrl-C, SIGTERM) or failing, a write leaves the old file as it was and no
temporary file behind; a symlink is written through; a read-only file or folder is refused in
one line.  Both engines; the interrupted writes run in child processes.
"""

from __future__ import annotations

import errno
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import catmouse
from catmouse.io.atomic import replacing

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


# -- the errors, the temporary file and the SIGTERM handler, one decision at a time ------------


def test_a_missing_folder_or_a_file_as_folder_is_refused_naming_the_folder(tmp_path):
    for folder in (tmp_path / "absent", tmp_path / "a_file"):
        if folder.name == "a_file":
            folder.write_text(OLD)
        with pytest.raises(FileNotFoundError) as caught, replacing(folder / "t.txt") as handle:
            handle.write("never")
        assert caught.value.errno == errno.ENOENT and caught.value.filename == str(folder)
    assert sorted(os.listdir(tmp_path)) == ["a_file"] and (tmp_path / "a_file").read_text() == OLD


@pytest.mark.parametrize("spelling", ["{}/", "{}/.", "{}//"])
def test_a_name_spelt_as_a_folder_is_never_a_file(tmp_path, spelling):
    """``notes.txt/`` names a folder, as the system reads it (opening it is ENOTDIR): the
    path was resolved without its slash, and the file notes.txt replaced by the table;
    ``new/`` made a file named new."""
    (tmp_path / "notes.txt").write_text(OLD)
    (tmp_path / "sub").mkdir()
    for name, error in (("notes.txt", FileNotFoundError), ("new", FileNotFoundError),
                        ("sub", IsADirectoryError)):
        target = spelling.format(tmp_path / name)
        with pytest.raises(error) as caught, replacing(target) as handle:
            handle.write("never")
        assert caught.value.filename == target
        with pytest.raises(error):
            catmouse.analyze(SQUARE).save(target, format="csv")
    assert sorted(os.listdir(tmp_path)) == ["notes.txt", "sub"] and leftovers(tmp_path) == []
    assert (tmp_path / "notes.txt").read_text() == OLD and os.listdir(tmp_path / "sub") == []


def test_a_folder_as_target_is_refused_as_a_folder(tmp_path):
    (tmp_path / "sub").mkdir()
    with pytest.raises(IsADirectoryError) as caught, replacing(tmp_path / "sub") as handle:
        handle.write("never")
    assert caught.value.errno == errno.EISDIR and caught.value.filename == str(tmp_path / "sub")
    assert leftovers(tmp_path) == []


def test_an_interrupt_before_the_first_name_is_drawn_propagates_as_itself(tmp_path, monkeypatch):
    from catmouse import atomic

    def interrupted(size):
        raise KeyboardInterrupt

    monkeypatch.setattr(atomic.secrets, "token_hex", interrupted)
    with pytest.raises(KeyboardInterrupt), replacing(tmp_path / "t.txt") as handle:
        handle.write("never")
    assert os.listdir(tmp_path) == []


def test_after_100_taken_names_the_write_gives_up_and_removes_none_of_them(tmp_path,
                                                                           monkeypatch):
    from catmouse import atomic

    drawn = []

    def always_the_same(size):
        drawn.append(size)
        return "aaaaaaaa"

    monkeypatch.setattr(atomic.secrets, "token_hex", always_the_same)
    other = tmp_path / ".table.csv.aaaaaaaa.part"
    other.write_text("another writer's")
    with pytest.raises(FileExistsError) as caught, replacing(tmp_path / "table.csv") as handle:
        handle.write("never")
    assert caught.value.errno == errno.EEXIST and caught.value.filename == str(tmp_path)
    assert len(drawn) == 100
    assert other.read_text() == "another writer's" and os.listdir(tmp_path) == [other.name]


@pytest.fixture
def umask_022():
    old = os.umask(0o022)
    yield
    os.umask(old)


def test_a_new_file_gets_the_umask_bits_and_stays_private_while_written(tmp_path, umask_022):
    from catmouse.io.atomic import replacing_path

    target = tmp_path / "new.txt"
    with replacing_path(target) as temporary:
        # Only its owner may read the half-written file, whatever the umask lets others.
        assert stat.S_IMODE(os.stat(temporary).st_mode) == 0o600
        Path(temporary).write_text("new")
    assert stat.S_IMODE(target.stat().st_mode) == 0o644 and target.read_text() == "new"


def _proc_umask() -> bool:
    try:
        with open("/proc/self/status") as status:
            return any(line.startswith("Umask:") for line in status)
    except OSError:
        return False


@pytest.mark.skipif(not _proc_umask(), reason="the system does not tell the umask")
def test_a_new_files_bits_are_read_without_setting_the_umask(tmp_path, umask_022, monkeypatch):
    """os.umask reads the mask only by setting another, for the whole process: a file any
    other thread created at that moment got the mask set (os.umask(0): 0o666, world-writable
    under the program's umask 0o077; 2 runs of 3 saving 3,000 files beside a thread that
    made files with open()).  Where the system tells the mask, it is read there."""
    from catmouse.io.atomic import replacing

    def umask(mask):
        raise AssertionError(f"os.umask({mask:#o}) sets the mask of every thread")

    monkeypatch.setattr(os, "umask", umask)
    target = tmp_path / "new.txt"
    with replacing(target) as handle:
        handle.write("new")
    assert stat.S_IMODE(target.stat().st_mode) == 0o644 and target.read_text() == "new"


def test_the_data_reaches_the_disk_before_the_rename(tmp_path, monkeypatch):
    from catmouse import atomic

    events = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        events.append(("fsync", os.fstat(fd).st_size))
        real_fsync(fd)

    def replace(source, target):
        events.append(("replace", os.path.basename(target)))
        real_replace(source, target)

    monkeypatch.setattr(atomic.os, "fsync", fsync)
    monkeypatch.setattr(atomic.os, "replace", replace)
    with replacing(tmp_path / "t.txt") as handle:
        handle.write("new")
    assert events == [("fsync", 3), ("replace", "t.txt")]


@pytest.mark.skipif(os.name != "posix", reason="SIGTERM handlers")
def test_the_default_sigterm_handling_is_back_after_a_write(tmp_path):
    from catmouse import atomic

    old = signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        with replacing(tmp_path / "t.txt") as handle:
            assert signal.getsignal(signal.SIGTERM) is atomic.terminated
            handle.write("new")
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
        with pytest.raises(RuntimeError), replacing(tmp_path / "t.txt"):
            raise RuntimeError("the work failed")
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGTERM, old)


@pytest.mark.skipif(os.name != "posix", reason="SIGTERM handlers")
def test_a_programs_own_sigterm_handler_is_left_in_place(tmp_path):
    def own(number, frame):
        pass

    old = signal.signal(signal.SIGTERM, own)
    try:
        with replacing(tmp_path / "t.txt") as handle:
            assert signal.getsignal(signal.SIGTERM) is own
            handle.write("new")
        assert signal.getsignal(signal.SIGTERM) is own
    finally:
        signal.signal(signal.SIGTERM, old)


def test_a_write_from_another_thread_leaves_the_sigterm_handling_alone(tmp_path):
    # Only the main thread may set a signal handler: a worker thread writes without one.
    before = signal.getsignal(signal.SIGTERM)
    errors = []

    def write():
        try:
            with replacing(tmp_path / "t.txt") as handle:
                handle.write("from a thread")
        except BaseException as error:  # noqa: BLE001 - handed to the main thread
            errors.append(error)

    worker = threading.Thread(target=write)
    worker.start()
    worker.join()
    assert errors == [] and (tmp_path / "t.txt").read_text() == "from a thread"
    assert signal.getsignal(signal.SIGTERM) is before and leftovers(tmp_path) == []
