"""Writing a file so that a failure leaves the old one as it was.

Every writer of the package (``Analysis.save``, the command line's ``-o``, ``play --html``,
``draw -o x.png``) does its work first, then writes a temporary file in the target's folder
and renames it over the target (``os.replace``, atomic on one file system).  An error, Ctrl-C
or SIGTERM on the way leaves the old file untouched and no temporary file behind.

Decisions, the same for every writer:

- a symlink is written through: its target is replaced and the link kept;
- a path spelt as a folder (``out/``) is one: refused, never written as a file;
- a target without write permission, or in a folder without it, is refused with one
  ``PermissionError`` naming it, read from the permission bits (so ``root``, whom the
  system lets write anyway, is refused too: a read-only file says "keep me");
- the new file keeps the old one's permission bits (a new one gets the umask's);
- the temporary file's name is the target's with a random tail, or a short random name
  when that would pass the file system's longest name (so a 255-byte name works);
- what is not a regular file is never replaced (see docs/platforms.rst): a FIFO or a
  character device (``/dev/null``, a terminal) is written in place, as any program writes
  it; a path naming one of this process's open descriptors (``/dev/stdout``,
  ``/dev/fd/N``, ``/proc/self/fd/N``) is written through that descriptor, after what the
  process wrote there before; a socket or a block device (a disk) is refused in one line;
- while a file is written, a SIGTERM whose handling is still the default unwinds like an
  exception (exit status 143), so that the temporary file is removed too.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import shutil
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import IO, Any, NamedTuple

__all__ = ["Target", "in_place", "replacing", "replacing_path", "target_of", "terminated"]

_WRITABLE = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH


class Target(NamedTuple):
    """Where a write goes: ``path`` (a symlink's target), and how.

    ``descriptor``: the open descriptor of this process that the path names, else None;
    ``in_place``: True for what is written where it is (a FIFO, a character device, an
    open descriptor), False for a regular file (or none yet), replaced whole."""

    path: str
    in_place: bool
    descriptor: int | None


def target_of(path: str | os.PathLike[str]) -> str:
    """The file that writing ``path`` writes (a symlink's target), checked writable."""
    return where(path).path


def in_place(path: str | os.PathLike[str]) -> bool:
    """Whether a write to ``path`` goes in place (a FIFO, device or open descriptor)."""
    return where(path).in_place


def where(path: str | os.PathLike[str]) -> Target:
    """Where and how a write to ``path`` goes, or the OSError that refuses it (one line)."""
    descriptor = _own_descriptor(os.fspath(path))
    if descriptor is not None:
        try:
            kind = os.fstat(descriptor).st_mode
        except OSError:
            raise OSError(errno.EBADF, "the descriptor is not open", os.fspath(path)) from None
        _check_kind(kind, os.fspath(path))
        return Target(os.fspath(path), True, descriptor)
    _refuse_a_folder_name(os.fspath(path))
    _check_the_way(os.fspath(path))
    target = os.path.realpath(os.fspath(path))
    mode: int | None
    try:
        mode = os.stat(target).st_mode
    except (FileNotFoundError, NotADirectoryError):  # (a file named as a folder on the way)
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        _check_kind(mode, target)
        if not mode & _WRITABLE:
            raise PermissionError(errno.EACCES, "the file is read-only", target)
        return Target(target, True, None)
    folder = os.path.dirname(target) or "."
    if not os.path.isdir(folder):
        raise FileNotFoundError(errno.ENOENT, "no such folder", folder)
    if not os.stat(folder).st_mode & _WRITABLE:
        raise PermissionError(errno.EACCES, "the folder is read-only", folder)
    if mode is not None and not mode & _WRITABLE:
        raise PermissionError(errno.EACCES, "the file is read-only", target)
    return Target(target, False, None)


def _refuse_a_folder_name(path: str) -> None:
    """Refuse a path spelt as a folder (``out/``, ``x.csv/.``): the system never opens one as
    a file, but realpath drops the slash, and ``notes.txt/`` replaced the file notes.txt."""
    if not path or os.path.basename(path) not in ("", ".", ".."):
        return
    if os.path.isdir(path):
        raise IsADirectoryError(errno.EISDIR, "is a folder", path)
    raise FileNotFoundError(errno.ENOENT, "no such folder", path)


def _check_the_way(path: str) -> None:
    """Refuse a path whose folder part the system would not go through: ``x/../y.csv``
    passes through ``x``, which must be a folder, but realpath resolves the text and wrote
    y.csv where x was a file or missing (the shell's ``>`` refuses it).  As everywhere
    here, a folder that is not there or not a folder is "no such folder"."""
    folder = os.path.dirname(path)
    try:
        ok = not folder or stat.S_ISDIR(os.stat(folder).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        ok = False
    if not ok:
        raise FileNotFoundError(errno.ENOENT, "no such folder", folder)


def _check_kind(mode: int, path: str) -> None:
    """Refuse what a file is not written into: a folder, a socket, a block device."""
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "is a folder", path)
    if stat.S_ISSOCK(mode):
        raise OSError(errno.ENXIO, "is a socket, which is not written as a file", path)
    if stat.S_ISBLK(mode):
        raise OSError(errno.EPERM, "is a block device (a disk): refused, never written over",
                      path)


_FD_FOLDER = re.compile(r"/proc/(\d+)(?:/task/\d+)?/fd")
# macOS and the BSDs: /dev/fd is a folder of its own (fdescfs), each process seeing its own
# descriptors there, and /dev/stdout a link to fd/1.  On Linux it is a link into /proc, so
# its real path is /proc/<pid>/fd and this name never matches there.
_DEV_FD = "/dev/fd"


def _descriptor_folder(folder: str) -> bool:
    """Whether the folder ``folder`` (a real path) lists this process's own descriptors."""
    found = _FD_FOLDER.fullmatch(folder)
    return (found is not None and int(found.group(1)) == os.getpid()) or folder == _DEV_FD


def _own_descriptor(path: str) -> int | None:
    """The descriptor of this process that ``path`` names through /proc/<pid>/fd or, on
    macOS and the BSDs, /dev/fd (as ``/dev/stdout`` and ``/dev/fd/N`` do), else None.
    Followed link by link: the last link of such a path names a pipe or a file the process
    holds, not a path to reopen."""
    current = os.path.abspath(path)
    for _ in range(40):  # the kernel's own limit on a chain of links
        folder, name = os.path.split(current)
        if name.isdigit() and _descriptor_folder(os.path.realpath(folder)):
            return int(name)
        if not os.path.islink(current):
            return None
        current = os.path.normpath(os.path.join(folder, os.readlink(current)))
    return None


def _name_limit(folder: str) -> int:
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):  # (no pathconf on Windows)
        return 255


def _temporary_name(folder: str, name: str) -> str:
    tail = secrets.token_hex(4)
    long = f".{name}.{tail}.part"
    if len(os.fsencode(long)) <= _name_limit(folder):
        return os.path.join(folder, long)
    return os.path.join(folder, f".catmouse-{tail}.part")  # the name is at the limit already


@contextmanager
def replacing_path(path: str | os.PathLike[str]) -> Iterator[str]:
    """The name of a temporary file beside ``path``, renamed over it if the block ends
    normally and removed otherwise (for a program that writes a file by name).

    A target written in place (a FIFO, a device, an open descriptor) gets a temporary file
    in the system's temporary folder instead, copied into it once the block ends."""
    target = where(path)
    if target.in_place:
        with _staged(target) as staged:
            yield staged
        return
    folder, name = os.path.split(target.path)
    temporary: str | None = None
    restore = _unwind_on_sigterm()
    try:
        # Named before it is made (tempfile.mkstemp names it on return): a signal landing
        # just after the file appears finds its name here, and the file is removed.
        for _ in range(100):
            temporary = _temporary_name(folder, name)
            if _created(temporary):
                break
            temporary = None  # another writer's name: never ours to remove
        else:
            raise FileExistsError(17, "no free temporary name", folder)
        yield temporary
        try:
            bits = stat.S_IMODE(os.stat(target.path).st_mode)
        except FileNotFoundError:
            bits = 0o666 & ~_umask()
        os.chmod(temporary, bits)
        os.replace(temporary, target.path)
    except BaseException:
        if temporary is not None:
            with suppress(OSError):
                os.unlink(temporary)
        raise
    finally:
        if restore:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextmanager
def _staged(target: Target) -> Iterator[str]:
    """A temporary file elsewhere, copied into an in-place target if the block ends well."""
    handle, temporary = tempfile.mkstemp(prefix="catmouse-", suffix=".part")
    os.close(handle)
    try:
        yield temporary
        with open(temporary, "rb") as source, _open_in_place(target, "wb") as sink:
            shutil.copyfileobj(source, sink)
    finally:
        with suppress(OSError):
            os.unlink(temporary)


def _open_in_place(target: Target, mode: str, **open_args: Any) -> IO:
    """The target opened where it is: a duplicate of the process's own descriptor (so the
    bytes follow what it wrote there), else the FIFO or device opened for writing."""
    if target.descriptor is None:
        return open(target.path, mode, **open_args)
    for stream in (sys.stdout, sys.stderr):  # what the process printed there goes first
        with suppress(AttributeError, OSError, ValueError):
            if stream is not None and stream.fileno() == target.descriptor:
                stream.flush()
    return open(os.dup(target.descriptor), mode, **open_args)


_CREATE = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
           | getattr(os, "O_BINARY", 0))


def _created(path: str) -> bool:
    """Make ``path`` a new empty file; False if the name is taken."""
    try:
        os.close(os.open(path, _CREATE, 0o600))
    except FileExistsError:
        return False
    return True


_UMASK_LOCK = threading.Lock()


def _umask() -> int:
    """The process's umask, read without changing it where the system tells it (Linux's
    ``/proc/self/status``, since 4.7).

    ``os.umask`` reads the mask only by setting another: the mask is the process's, so for
    that moment every file any other thread creates gets the one set (``os.umask(0)`` made
    them 0o666, world-writable, whatever the program's umask).  Elsewhere the mask is set
    to 0o077 for the moment (a file made meanwhile is private, not open to all), and
    catmouse's own writers take turns.
    """
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _UMASK_LOCK:
        umask = os.umask(0o077)
        os.umask(umask)
    return umask


def terminated(number: int, frame: object) -> None:
    """A SIGTERM handler that unwinds: SystemExit with the shell's status (143)."""
    raise SystemExit(128 + number)


def _unwind_on_sigterm() -> bool:
    """Make SIGTERM raise SystemExit while a file is written; True if it was set here."""
    if threading.current_thread() is not threading.main_thread():
        return False
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        return False  # the program handles it (the command line does the same)
    signal.signal(signal.SIGTERM, terminated)
    return True


@contextmanager
def replacing(path: str | os.PathLike[str], mode: str = "w", **open_args: Any) -> Iterator[IO]:
    """A file to write ``path`` anew: it replaces ``path`` only if the block ends normally
    (a FIFO, a device or an open descriptor is written in place: see the module's notes).

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> with replacing(os.path.join(folder, "a.txt")) as handle:
    ...     _ = handle.write("new")
    >>> open(os.path.join(folder, "a.txt")).read(), os.listdir(folder)
    ('new', ['a.txt'])
    """
    target = where(path)
    if target.in_place:
        with _open_in_place(target, mode, **open_args) as handle:
            yield handle
        return
    with replacing_path(path) as temporary:
        with open(temporary, mode, **open_args) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
