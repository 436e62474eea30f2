"""Count a C compiler's warnings in a build log: ours apart from Cython's generated code.

Usage: python ci/c_warnings.py LOG [--generated FILE.c ...] [--label NAME] [--fail-on-ours]

A warning (gcc or clang, "FILE:LINE:COL: warning: ...") is put in one of four groups:

ours        in a file of ours (under a ``catmouse/`` folder: a header, a .c written by hand),
            or in a generated C file on
            a line that Cython emitted for a statement of the .pyx: the nearest marker
            comment above it (``/* "catmouse/engine/rounds.pxi":123``: the .pyx or the
            .pxi it includes) lies in the same
            function, the C line uses a name of ours (a .pyx variable ``__pyx_v_NAME``, cdef
            function ``__pyx_f_...`` or enum ``__pyx_e_...``) and the warning names no
            Cython-made identifier (``__pyx_t_3``, ``__pyx_self``, ``__Pyx_...``).
generated   anywhere else in a generated C file: Cython's utility code and boilerplate.
headers     in Python's or the system's headers (/usr/include, a python include folder).
others      in another package's sources, built in the same log (pip builds the test
            dependencies from source where no wheel exists, as on i386).

Each warning of ours is printed with its .pyx line.  The last line is the summary
"<label>: N warnings (N ours, N generated, N headers, N other packages)".  Exit status 1
with --fail-on-ours when any is ours, else 0.
"""

from __future__ import annotations

import argparse
import os
import re
import sys

WARNING = re.compile(
    r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?:(?P<col>\d+):)? warning: (?P<msg>.*)$"
)
PYX_MARKER = re.compile(r'^\s*/\* "(?P<pyx>[^"]+\.px[id])":(?P<line>\d+)')
# Where the code of one .pyx statement certainly ends: a function's closing brace at column 0,
# its exit code, or the start of a new section of Cython's output.
BOUNDARY = re.compile(r"^(\}|\s*/\* function exit code \*/|/\* #### Code section)")
OUR_NAME = re.compile(r"__pyx_[vfe]_\w")
CYTHON_NAME = re.compile(r"['‘](__Pyx\w*|__pyx_(?!v_)\w*|__PYX\w*)['’]")
HEADER_DIRS = ("/usr/include/", "/usr/local/include/", "/include/python")


def pyx_origin(lines: list[str], number: int) -> str | None:
    """The .pyx line whose code holds C line ``number`` (1-based), or None."""
    for index in range(min(number, len(lines)) - 1, -1, -1):
        text = lines[index]
        marker = PYX_MARKER.match(text)
        if marker:
            return f"{marker['pyx']}:{marker['line']}"
        if index != number - 1 and BOUNDARY.match(text):
            return None
    return None


def classify(log: str, generated: list[str]) -> dict[str, list[str]]:
    sources = {os.path.basename(path): path for path in generated}
    cache: dict[str, list[str]] = {}
    groups: dict[str, list[str]] = {"ours": [], "generated": [], "headers": [], "others": []}
    seen = set()
    for raw in log.splitlines():
        found = WARNING.match(raw.strip())
        if not found:
            continue
        path, line, message = found["file"], int(found["line"]), found["msg"]
        key = (path, line, found["col"], message)
        if key in seen:  # the same header warning repeats for each file that includes it
            continue
        seen.add(key)
        where = f"{path}:{line}: {message}"
        base = os.path.basename(path)
        if base in sources:
            if base not in cache:
                with open(sources[base], encoding="utf-8", errors="replace") as source:
                    cache[base] = source.read().splitlines()
            origin = pyx_origin(cache[base], line)
            text = cache[base][line - 1] if line <= len(cache[base]) else ""
            if origin and OUR_NAME.search(text) and not CYTHON_NAME.search(message):
                groups["ours"].append(f"{origin} (C line {line}): {message}")
            else:
                groups["generated"].append(where)
        elif any(part in path for part in HEADER_DIRS):
            groups["headers"].append(where)
        elif "catmouse/" in path.replace(os.sep, "/") or not os.path.dirname(path):
            groups["ours"].append(where)
        else:
            groups["others"].append(where)
    return groups


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("log")
    parser.add_argument("--generated", action="append", default=[],
                        help="a C file Cython generated (repeatable)")
    parser.add_argument("--label", default="C warnings")
    parser.add_argument("--fail-on-ours", action="store_true")
    options = parser.parse_args()
    with open(options.log, encoding="utf-8", errors="replace") as log:
        groups = classify(log.read(), options.generated)
    for group in ("ours", "generated", "headers"):  # (other packages' are not listed)
        for entry in groups[group]:
            print(f"  [{group}] {entry}")
    total = sum(len(entries) for entries in groups.values())
    print(f"{options.label}: {total} warnings ({len(groups['ours'])} ours, "
          f"{len(groups['generated'])} generated, {len(groups['headers'])} headers, "
          f"{len(groups['others'])} other packages)")
    return 1 if options.fail_on_ours and groups["ours"] else 0


if __name__ == "__main__":
    sys.exit(main())
