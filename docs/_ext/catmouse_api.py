"""The API page follows the code: ``.. catmouse-api::`` documents every name in catmouse.__all__.

The directive is replaced, when Sphinx reads the page, by an autosummary table of the public
names and one autodoc entry per name (class, exception, function or data), in ``__all__``'s
order, so a new export appears on the page without editing it.  A public name without a
docstring is a warning, and the docs build (``nox -s docs``) treats warnings as errors.
"""

from __future__ import annotations

import enum
import inspect
import re
from typing import Any

from sphinx.application import Sphinx
from sphinx.util import logging

import catmouse

logger = logging.getLogger(__name__)
PLACEHOLDER = re.compile(r"^\.\. catmouse-api::\s*$", re.MULTILINE)


def _kind(value: Any) -> str:
    if inspect.isclass(value) and issubclass(value, BaseException):
        return "exception"
    if inspect.isclass(value):
        return "class"
    if callable(value):
        return "function"
    return "data"


def _entry(name: str, value: Any) -> list[str]:
    kind = _kind(value)
    lines = [f".. auto{kind}:: {name}"]
    if kind == "class":
        lines.append("   :members:")
        if issubclass(value, enum.Enum):
            lines.append("   :undoc-members:")
            lines.append("   :member-order: bysource")
    if kind == "exception":
        lines.append("   :members:")
    if kind == "data":
        lines.append("   :no-value:")  # the value depends on the install, not the docs build
    return lines + [""]


def api_rst() -> str:
    names = list(catmouse.__all__)
    lines = [".. autosummary::", "   :nosignatures:", ""]
    lines += [f"   {name}" for name in names] + [""]
    for name in names:
        value = getattr(catmouse, name)
        if _kind(value) != "data" and not (value.__doc__ or "").strip():
            logger.warning("catmouse.%s is public but has no docstring", name)
        lines += _entry(name, value)
    return "\n".join(lines)


def _source_read(app: Sphinx, docname: str, source: list[str]) -> None:
    if PLACEHOLDER.search(source[0]):
        source[0] = PLACEHOLDER.sub(lambda _: api_rst(), source[0])


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("source-read", _source_read)
    return {"version": "1", "parallel_read_safe": True}
