"""The CLI page follows the code: ``.. catmouse-cli::`` prints the argparse help at build time.

The directive runs ``catmouse --help`` and ``catmouse COMMAND --help`` for every subcommand of
the installed catmouse (found in the parser that ``catmouse.cli.commands`` builds), in the
documenting interpreter, and shows each text under a section of its own.  Nothing is copied by
hand, so the page cannot drift from the program.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)
WIDTH = "88"  # columns argparse wraps to


def _subcommands() -> list[str]:
    from catmouse.cli import commands as _cli

    parser = _cli._parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return list(action.choices)
    raise RuntimeError("catmouse.cli.commands._parser() has no subcommands")


def help_text(argv: list[str]) -> str:
    """What ``catmouse ARGV`` prints (the help), run in this interpreter."""
    from catmouse.cli.commands import main

    saved = sys.argv[:], os.environ.get("COLUMNS")
    sys.argv[0] = "catmouse"  # the program name argparse prints in usage lines
    os.environ["COLUMNS"] = WIDTH
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as exit:
                status = exit.code
    finally:
        sys.argv[:] = saved[0]
        if saved[1] is None:
            os.environ.pop("COLUMNS", None)
        else:
            os.environ["COLUMNS"] = saved[1]
    if status not in (0, None) or not out.getvalue().strip():
        raise RuntimeError(f"catmouse {' '.join(argv)} exited {status}: {err.getvalue()}")
    return out.getvalue().rstrip() + "\n"


class CliHelp(Directive):
    """One section per command: its ``--help`` as a literal block."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        env = self.state.document.settings.env
        try:
            commands = _subcommands()
        except Exception as error:  # the page must say so, and -W fails the build
            logger.warning("catmouse-cli: cannot list the subcommands: %s", error,
                           location=(env.docname, self.lineno))
            return []
        result: list[nodes.Node] = []
        for command in [None, *commands]:
            argv = ["--help"] if command is None else [command, "--help"]
            title = "catmouse" if command is None else f"catmouse {command}"
            section = nodes.section(ids=[nodes.make_id(f"cli-{command or 'catmouse'}")])
            section += nodes.title(text=title)
            try:
                text = help_text(argv)
            except Exception as error:
                logger.warning("catmouse-cli: %s", error, location=(env.docname, self.lineno))
                continue
            block = nodes.literal_block(text, text)
            block["language"] = "text"
            section += block
            result.append(section)
        return result


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_directive("catmouse-cli", CliHelp)
    return {"version": "1", "parallel_read_safe": True}
