"""The play pages' common text: one HTML shell that each game's page fills.

``shell.html`` (package data beside this module) holds what the Cat and Mouse page and the
cops and robber page share: the head, the layout's CSS, the panel and the script element.
Where the two differ it says ``%NAME%``, and each game's parts file (``page.html``,
``cops_page.html``) holds its own text for it: the lines under a line ``<!-- %NAME% -->``, up
to the next such line.  A ``%NAME%`` on a line of its own takes the part's lines (an empty
part takes the line away); one within a line takes the part's one line.  What is left are the
page's values (title, board, data, ...), which :func:`fill` puts in last.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources

from .svg import CAT_COLOUR, MOUSE_COLOUR

__all__ = ["asset", "fill", "script_json", "template"]

_PART = re.compile(r"^<!-- %([A-Z_]+)% -->\n", re.MULTILINE)
# A whole line (group 1) or a place within a line (group 2).
_SLOT = re.compile(r"^%([A-Z_]+)%\n|%([A-Z_]+)%", re.MULTILINE)
_VALUE = re.compile(r"%([A-Z]+)%")


@cache
def asset(name: str) -> str:
    """A file of the pages (package data beside this module)."""
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def script_json(data: object) -> str:
    """``data`` as JSON to embed in a script element, every ``<``, ``>`` and ``&`` written as
    its ``\\u`` escape: the HTML parser reads ``</script``, ``<!--`` and ``<script`` inside a
    script element as markup, whatever the JSON means (a node labelled ``<!--<script>``
    emptied the page).  ``JSON.parse`` reads the escapes back as the characters.

    >>> script_json({"a": "<!--<script></script>&"})
    '{"a":"\\\\u003c!--\\\\u003cscript\\\\u003e\\\\u003c/script\\\\u003e\\\\u0026"}'
    """
    text = json.dumps(data, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@cache
def template(parts: str) -> str:
    """``shell.html`` with the parts of the file ``parts`` in: the game's page, values unfilled.

    >>> "%COLOURS%" in asset("shell.html") and "%COLOURS%" not in template("page.html")
    True
    """
    _note, *split = _PART.split(asset(parts))
    own = dict(zip(split[::2], split[1::2]))

    def part(slot: re.Match[str]) -> str:
        line, word = slot.groups()
        if (line or word) not in own:
            return slot[0]  # a value's place, for fill()
        return own[line] if line else own[word].removesuffix("\n")

    return _SLOT.sub(part, asset("shell.html"))


def fill(parts: str, script: str, values: Mapping[str, str]) -> str:
    """The page: the game's :func:`template` with its ``script`` (a file's name), the players'
    colours and ``values`` (the text for each ``%NAME%`` left, by name) filled in."""
    values = {"MOUSE": MOUSE_COLOUR, "CAT": CAT_COLOUR, "SCRIPT": asset(script), **values}
    # One pass, so a title that happens to contain "%DATA%" stays text.
    return _VALUE.sub(lambda m: values[m[1]], template(parts))
