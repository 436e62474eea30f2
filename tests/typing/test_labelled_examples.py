"""The typed labelled examples run, and pass ``mypy --strict`` where mypy is installed."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("networkx")
EXAMPLES = Path(__file__).with_name("labelled_examples.py")
PROJECT = Path(__file__).resolve().parents[2]


def test_the_labelled_examples_run():
    spec = importlib.util.spec_from_file_location("labelled_examples", EXAMPLES)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    found = module.labelled_examples()
    assert found[0] == ("exit", "x", "y", "z", "den") and found[2] is True
    assert found[-1] == 65535


def test_mypy_strict_passes_on_the_labelled_examples():
    pytest.importorskip("mypy")
    if not (PROJECT / "pyproject.toml").is_file():
        pytest.skip("needs the checkout's pyproject.toml (mypy's settings)")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", str(EXAMPLES)],
        cwd=PROJECT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
