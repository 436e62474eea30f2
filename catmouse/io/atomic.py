"""Writing a file so that a failure leaves the old one as it was.

Every writer of the package (``Analysis.save``, the command line's ``-o``, ``play --html``,
``draw -o x.png``) does its work first, then writes a temporary file in the target's folder
and renames it over the target (``os.replace``, atomic on one file system).  An error, Ctrl-C
or SIGTERM on the way leaves the old file untouched and no temporary file behind.

Decisions, the same for every writer:

- a symlink is written through: its target is replaced and the link kept;
- a target without write permission, or in a folder without it, is refused with one
  ``PermissionError`` naming it, read from the permission bits (so ``root``, whom the
  system lets write anyway, is refused too: a read-only file says "keep me");
- the new file keeps the old one's permission bits (a new one gets the umask's);
- while a file is written, a SIGTERM whose handling is still the default unwinds like an
  exception (exit status 143), so that the temporary file is removed too.
"""

from __future__ import annotations

import os
import secrets
import signal
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import IO, Any

__all__ = ["replacing", "replacing_path", "target_of", "terminated"]


def target_of(path: str | os.PathLike[str]) -> str:
    """The file that writing ``path`` replaces (a symlink's target), checked writable."""
    target = os.path.realpath(os.fspath(path))
    folder = os.path.dirname(target) or "."
    if not os.path.isdir(folder):
        raise FileNotFoundError(2, "no such folder", folder)
    writable = stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH
    if not os.stat(folder).st_mode & writable:
        raise PermissionError(13, "the folder is read-only", folder)
    if os.path.exists(target):
        if os.path.isdir(target):
            raise IsADirectoryError(21, "is a folder", target)
        if not os.stat(target).st_mode & writable:
            raise PermissionError(13, "the file is read-only", target)
    return target


@contextmanager
def replacing_path(path: str | os.PathLike[str]) -> Iterator[str]:
    """The name of a temporary file beside ``path``, renamed over it if the block ends
    normally and removed otherwise (for a program that writes a file by name)."""
    target = target_of(path)
    folder, name = os.path.split(target)
    temporary = None
    restore = _unwind_on_sigterm()
    try:
        # Named before it is made (tempfile.mkstemp names it on return): a signal landing
        # just after the file appears finds its name here, and the file is removed.
        for _ in range(100):
            temporary = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.part")
            if _created(temporary):
                break
            temporary = None  # another writer's name: never ours to remove
        else:
            raise FileExistsError(17, "no free temporary name", folder)
        yield temporary
        try:
            bits = stat.S_IMODE(os.stat(target).st_mode)
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            bits = 0o666 & ~umask
        os.chmod(temporary, bits)
        os.replace(temporary, target)
    except BaseException:
        if temporary is not None:
            with suppress(OSError):
                os.unlink(temporary)
        raise
    finally:
        if restore:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)


_CREATE = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
           | getattr(os, "O_BINARY", 0))


def _created(path: str) -> bool:
    """Make ``path`` a new empty file; False if the name is taken."""
    try:
        os.close(os.open(path, _CREATE, 0o600))
    except FileExistsError:
        return False
    return True


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
    """A file to write ``path`` anew: it replaces ``path`` only if the block ends normally.

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> with replacing(os.path.join(folder, "a.txt")) as handle:
    ...     _ = handle.write("new")
    >>> open(os.path.join(folder, "a.txt")).read(), os.listdir(folder)
    ('new', ['a.txt'])
    """
    with replacing_path(path) as temporary:
        with open(temporary, mode, **open_args) as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
