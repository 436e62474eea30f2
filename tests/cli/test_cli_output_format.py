"""analyze --output-format, and -o - (standard output): a table where the suffix cannot say
the format (a pipe, /dev/stdout, a name without one), as Analysis.save(format=) writes it."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_cli_options import EXAMPLE, run, write

import catmouse

INSTALLED = str(Path(catmouse.__file__).resolve().parent.parent)


def analyze_to_stdout(graph_file, *argv):
    """``catmouse analyze FILE -o - ARGV`` in a process of its own: (status, stdout bytes,
    stderr text), standard output a pipe as in ``catmouse analyze ... -o - | tool``."""
    env = dict(os.environ, PYTHONPATH=INSTALLED)
    done = subprocess.run([sys.executable, "-m", "catmouse", "analyze", str(graph_file),
                           "-o", "-", *map(str, argv)], env=env, capture_output=True,
                          timeout=120)
    return done.returncode, done.stdout, done.stderr.decode()


@pytest.mark.parametrize("format", ["csv", "json"])
def test_standard_output_holds_what_the_file_holds(tmp_path, capsys, format):
    graph = write(tmp_path, "g.json", EXAMPLE)
    code, _, err = run(capsys, "analyze", graph, "-o", tmp_path / f"table.{format}")
    assert code == 0, err
    code, out, err = analyze_to_stdout(graph, "--output-format", format)
    assert code == 0, err
    assert out == (tmp_path / f"table.{format}").read_bytes()
    # The summary goes to stderr: standard output is the table alone.
    assert err.startswith("wrote <stdout>: 60 positions of 6 nodes")


def test_npz_through_a_pipe(tmp_path):
    numpy = pytest.importorskip("numpy")
    graph = write(tmp_path, "g.json", EXAMPLE)
    code, out, err = analyze_to_stdout(graph, "--output-format", "npz")
    assert code == 0, err
    arrays = numpy.load(io.BytesIO(out))
    analysis = catmouse.analyze(EXAMPLE)
    assert arrays["outcomes"].tobytes() == bytes(analysis.outcomes)
    assert arrays["remoteness"].tobytes() == analysis.remoteness_table.tobytes()


def test_standard_output_needs_a_format(tmp_path, capsys):
    graph = write(tmp_path, "g.json", EXAMPLE)
    code, out, err = run(capsys, "analyze", graph, "-o", "-")
    assert code == 1 and out == ""
    assert "name its format with --output-format json, csv or npz" in err


def test_a_name_without_a_suffix(tmp_path, capsys):
    graph = write(tmp_path, "g.json", EXAMPLE)
    target = tmp_path / "table"
    code, _, err = run(capsys, "analyze", graph, "-o", target)
    assert code == 1 and "or name the format with --output-format" in err
    assert not target.exists()  # refused before anything was solved or written
    code, _, err = run(capsys, "analyze", graph, "-o", target, "--output-format", "json")
    assert code == 0, err
    assert json.loads(target.read_text())["n"] == len(EXAMPLE)


def test_the_format_beats_the_suffix(tmp_path, capsys):
    graph = write(tmp_path, "g.json", EXAMPLE)
    target = tmp_path / "table.json"
    code, _, err = run(capsys, "analyze", graph, "-o", target, "--output-format", "csv")
    assert code == 0, err
    assert target.read_text().startswith("mouse,cat,turn,outcome,remoteness,best_moves\n")


def test_an_unknown_format_is_a_usage_error(tmp_path, capsys):
    graph = write(tmp_path, "g.json", EXAMPLE)
    code, out, err = run(capsys, "analyze", graph, "-o", "-", "--output-format", "xml")
    assert code == 2 and out == ""
    assert "invalid choice: 'xml'" in err


def test_save_takes_a_format(tmp_path):
    analysis = catmouse.analyze(EXAMPLE)
    analysis.save(tmp_path / "a", format="csv")
    analysis.save(tmp_path / "b.csv")
    assert (tmp_path / "a").read_bytes() == (tmp_path / "b.csv").read_bytes()
    with pytest.raises(ValueError, match="unknown table format 'xml': use one of json, npz, csv"):
        analysis.save(tmp_path / "c", format="xml")
    assert not (tmp_path / "c").exists()
