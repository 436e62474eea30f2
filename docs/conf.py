"""Sphinx configuration for the catmouse documentation (built by ``nox -s docs``)."""

from __future__ import annotations

import builtins
import os
import re
import sys

# The documentation describes the INSTALLED catmouse (nox -s docs installs it into a fresh venv);
# _ext/ holds this site's own small extensions.
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "_ext"))

import catmouse  # noqa: E402

project = "catmouse"
author = "the catmouse developers"
copyright = "the catmouse developers"  # noqa: A001 - Sphinx's name for it
release = catmouse.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
    "catmouse_api",  # the API page from catmouse.__all__
    "catmouse_cli",  # the CLI page from the argparse help
]

root_doc = "index"
exclude_patterns = ["_build"]
# Every cross-reference must resolve.  Without network access to docs.python.org (no
# intersphinx), builtin and typing names in signatures cannot link anywhere: let them be text.
nitpicky = True
_PLAIN = sorted(
    {name for name in dir(builtins) if not name.startswith("_")}
    | {"Any", "Callable", "Hashable", "Iterable", "Iterator", "Mapping", "Sequence", "array",
       "Path", "PathLike", "TextIO", "BinaryIO", "IO", "Literal", "NoReturn", "Self",
       "numpy.ndarray", "ndarray", "np.ndarray", "networkx.Graph", "nx.Graph"}
    # catmouse's private type aliases and classes, shown by their short names
    | {"GraphLike", "Position", "ProgressLike", "Rules"}
)
nitpick_ignore_regex = [
    (r"py:(class|obj|data|exc)", r"(typing\.|collections\.abc\.|os\.|pathlib\.|enum\.)?"
     r"(" + "|".join(re.escape(name) for name in _PLAIN) + r")"),
    (r"py:(class|obj)", r"catmouse\._.*"),  # private aliases that appear in signatures
]

autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_typehints_format = "short"
autodoc_preserve_defaults = True
# Long signatures (Game has nine keywords) get one parameter per line instead of a blob.
maximum_signature_line_length = 80
autosummary_generate = False  # the API page is one page, written by catmouse_api

doctest_global_setup = "import catmouse\nfrom catmouse import *"

html_theme = "furo"
html_title = f"catmouse {release}"
html_theme_options = {
    "source_repository": "https://github.com/catmouse-dev/catmouse",
    "source_branch": "main",
    "source_directory": "docs/",
}


# Classes users get from functions, never construct: their constructor's private arguments
# would only mislead (Analysis comes from analyze() or Game.analyze()).
BUILT_FOR_YOU = {"catmouse.Analysis"}


def _hide_private_constructor(app, what, name, obj, options, signature, return_annotation):
    if what == "class" and name in BUILT_FOR_YOU:
        return "", None
    return None


def setup(app):
    app.connect("autodoc-process-signature", _hide_private_constructor)
