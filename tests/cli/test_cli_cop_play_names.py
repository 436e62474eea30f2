"""``catmouse cop-play`` on a graph whose names read alike or hold a space.

The terminal game kept one node per text (``{str(label): label}``), so of the nodes ``1`` and
``"1"`` only the last could be typed, and both were shown as ``1``; a team was split on
spaces, so a cop could never be put on ``New York``.  Names are shown and typed as JSON where
they must be (as ``catmouse play`` and the command line's node options take them).
"""

from __future__ import annotations

import io
import json
import sys

from catmouse.cli.commands import main

# The cycle 1 - "1" - "New York" - c - 1.
GRAPH = {"directed": False,
         "nodes": [{"id": 1}, {"id": "1"}, {"id": "New York"}, {"id": "c"}],
         "edges": [{"source": 1, "target": "1"}, {"source": "1", "target": "New York"},
                   {"source": "New York", "target": "c"}, {"source": "c", "target": 1}]}


def play(capsys, monkeypatch, tmp_path, typed: str, *options: str) -> str:
    path = tmp_path / "g.json"
    path.write_text(json.dumps(GRAPH))
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    assert main(["cop-play", str(path), "--cops", "1", *options]) == 0
    return capsys.readouterr().out


def test_the_string_and_the_int_are_both_typed(capsys, monkeypatch, tmp_path, use_engine):
    out = play(capsys, monkeypatch, tmp_path, '"1"\nq\n', "--as", "cops")
    assert "the robber starts on" in out and "captured" not in out
    assert out.rstrip().endswith("stopped")
    # The cops start on the int 1 (shown 1), the robber on the string (shown "1").
    out = play(capsys, monkeypatch, tmp_path, '"1"\n' + "q\n", "--as", "robber")
    assert "the cops start on 1\n" in out
    assert "the cops move to" in out and 'captured on "1": the cops win' in out


def test_a_name_with_a_space_starts_a_cop(capsys, monkeypatch, tmp_path, use_engine):
    out = play(capsys, monkeypatch, tmp_path, '"New York"\n"New York"\nq\n', "--as", "cops")
    assert "is not a node" not in out and "the robber starts on" in out
    assert "not a team move" not in out
