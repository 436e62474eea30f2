"""One engine object: every entry point the package calls comes from ``selector.current``.

Swapping that object moves the whole package to the other twin, so a test run
"on the pure engine" really runs no compiled code; and the facts both twins
share (flags, outcome codes) have one home, ``catmouse.engine.facts``.
"""

from __future__ import annotations

import importlib
import sys

import pytest
from engines import on_engine

import catmouse
from catmouse import Game, Graph
from catmouse import engine as selector
from catmouse.engine import bits_py
from catmouse.engine import facts as _facts

ENTRY_POINTS = ("propagate", "peak_bytes", "Board", "solve_boards", "csr_from_lists",
                "solve_lists")


def test_both_twins_export_every_entry_point(engine):
    names = {module: name for name, module in selector.MODULES.items()}
    loaded = selector.load(names[engine.__name__])
    assert loaded.module is engine
    for name in ENTRY_POINTS:
        assert getattr(loaded, name) is getattr(engine, name)


def test_the_selected_engine_is_the_backend():
    assert selector.current.name == catmouse.BACKEND
    assert selector.current.module.__name__ == selector.MODULES[catmouse.BACKEND]


def test_the_c_enum_is_pinned_to_the_facts(compiled_engine):
    assert set(compiled_engine.ENUM) == {"HOLE", "CAT_FORBIDDEN", "CAT_GOAL", "MOUSE_WIN",
                                         "CAT_WIN", "NO_POSITION", "MAX_NODES",
                                         "LISTS_MAX_NODES"}
    for name, value in compiled_engine.ENUM.items():
        assert getattr(_facts, name) == value, name


class CompiledCalled(AssertionError):
    pass


def _poison(monkeypatch, compiled):
    """Make every entry point of the compiled module raise when called."""
    def trap(name):
        def called(*args, **kwargs):
            raise CompiledCalled(f"the compiled engine's {name} was called")
        return called

    for name in ENTRY_POINTS:
        monkeypatch.setattr(compiled, name, trap(name))


def _holders_of(compiled):
    """(module, name) of every catmouse global that refers to the compiled engine."""
    found = []
    for module_name, module in list(sys.modules.items()):
        if not module_name.startswith("catmouse") or module is compiled:
            continue
        for name, value in vars(module).items():
            if module_name == "catmouse.engine" and name == "bits_c":
                continue  # the import system's submodule attribute on the package
            if value is compiled or getattr(value, "__module__", None) == compiled.__name__:
                found.append((module_name, name))
    return found


def _everything():
    square = [[1, 3], [0, 2], [1, 3], [0, 2]]
    board = [[2, 5], [3], [0, 4, 5], [1, 4, 5], [2, 3], [0, 2, 3]]
    catmouse.solve(board)                         # lists
    graph = Graph(board)                          # the Graph builder
    catmouse.solve(graph)
    catmouse.solve(graph)                         # the cached Board
    catmouse.solve_many([board, graph, square], threads=2)
    catmouse.analyze(board).verify()
    catmouse.analyze(graph, remoteness=False, threads=2)
    Game(square, holes=(), mouse_stays=True).analyze().line(0, 2)
    Game(square, holes=()).solve(0, 2)
    catmouse.is_cop_win(square)
    catmouse.cat_mouse_ii(["####F", "#C...", "M...."], cat_jump=1, mouse_jump=2)


def test_the_trap_catches_the_compiled_engine(compiled_engine, monkeypatch):
    """The probe below would see the compiled engine if it ran (so it can fail)."""
    _poison(monkeypatch, compiled_engine)
    with on_engine(compiled_engine), pytest.raises(CompiledCalled):
        _everything()


def test_a_run_on_the_pure_engine_calls_no_compiled_code(compiled_engine, monkeypatch):
    _poison(monkeypatch, compiled_engine)
    with on_engine(bits_py):
        # Nothing outside the selector keeps its own handle on the compiled engine ...
        assert _holders_of(compiled_engine) == []
        # ... and the whole API runs with every compiled entry point trapped.
        _everything()


def test_load_names_each_twin():
    assert selector.load("python").module is importlib.import_module("catmouse.engine.bits_py")
    with pytest.raises(KeyError):
        selector.load("fortran")
