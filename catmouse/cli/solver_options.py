"""The options of the commands that solve a game: ``--threads`` and ``--max-memory`` (as the
API's ``threads=`` and ``max_memory=``), and analyze's ``--outcomes-only`` (``remoteness=False``).

>>> size_text("1.5G"), size_text("512k"), size_text("1000")
(1610612736, 524288, 1000)
"""

from __future__ import annotations

import argparse
import re
from fractions import Fraction
from typing import Any

from ..rules import MAX_THREADS

__all__ = ["add_solver_options", "size_text", "solver_kwargs", "threads_text"]

# Sizes as people write them: bytes, or K, M, G, T (binary: 1K = 1024 bytes), a B or iB after.
_SIZE = re.compile(r"(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?", re.IGNORECASE)
_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def threads_text(text: str) -> int:
    """argparse's type for ``--threads``: an int from 1 to MAX_THREADS."""
    try:
        count = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of threads, got {text!r}") from None
    if not 1 <= count <= MAX_THREADS:
        raise argparse.ArgumentTypeError(f"must be from 1 to {MAX_THREADS}, not {count}")
    return count


def size_text(text: str) -> int:
    """argparse's type for ``--max-memory``: bytes, or a size such as 500M or 8G (binary)."""
    match = _SIZE.fullmatch(text.strip())
    if match is None:
        raise argparse.ArgumentTypeError(
            f"expected a size in bytes such as 1000000, 500M or 8G, got {text!r}")
    number, unit = match.groups()
    if len(number) > 40:  # (past any memory: and int() refuses 4,300 digits)
        raise argparse.ArgumentTypeError(f"expected a size of at most 40 digits, got {text!r}")
    # Exact, where a float of 400 nines is infinity (an OverflowError, not a usage error).
    size = int(Fraction(number) * _UNITS[unit.lower()])
    if size < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1 byte, not {text!r}")
    return size


def add_solver_options(sub: argparse.ArgumentParser, outcomes_only: bool = False) -> None:
    """The solver's options, in a group of their own."""
    group = sub.add_argument_group("solver options (as catmouse.analyze's)")
    group.add_argument("--threads", type=threads_text, metavar="N",
                       help="threads for the search (default: one for a small graph, else "
                            "the CPUs free to this process)")
    group.add_argument("--max-memory", type=size_text, metavar="SIZE",
                       help="refuse to solve a graph whose tables would take more, e.g. 8G "
                            "(default: what the machine has free)")
    if outcomes_only:
        group.add_argument("--outcomes-only", action="store_true",
                           help="keep no remoteness: a byte a position, for the biggest graphs "
                                "(the file has no remoteness; best moves by outcome alone)")


def solver_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """The keywords of Game.analyze that the options give."""
    return {"threads": args.threads, "max_memory": args.max_memory,
            "remoteness": not getattr(args, "outcomes_only", False)}
