"""The house's shape: three layers whose imports run one way, and files a person reads whole.

Read from the source tree (the suite may run against an installed package from a temporary
directory: the project is found from this file's place, and the tests skip without it).

Layers, bottom to top: ``engine`` (catmouse/engine/), ``game`` (the game's core at the top of
catmouse/, its readers and writers in catmouse/io/ and the k-cops game in catmouse/cops/),
``show`` (catmouse/show/), ``cli`` (catmouse/cli/).  ``catmouse/__init__.py`` and
``__main__.py`` are the front door above them all.  A module may import its own layer and the
layers below; the one exception is the notebook display's lazy door (``catmouse/display.py``),
whose methods import the show layer when called.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
PACKAGE = PROJECT / "catmouse"
pytestmark = pytest.mark.skipif(not (PACKAGE / "engine").is_dir(),
                                reason="the package's source tree is not beside the tests")

# Layer order: an import may only go to the same rank or lower.
RANK = {"engine": 0, "game": 1, "show": 2, "cli": 3, "front": 4}
# (module, imported layer) pairs allowed inside a function although upward: the one door.
LAZY_DOORS = {("catmouse.display", "show")}

MAX_LINES = 700
# Files still over the limit, each with the step that will split it (strict: the mark must go
# when the file is split).
NOT_YET_SPLIT: dict[str, str] = {
}

README_MAX_LINES = 250
SOURCE_SUFFIXES = {".py", ".pyx", ".pxi", ".pyi", ".sh", ".js", ".html", ".cpp", ".h", ".c"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PROJECT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer(module: str) -> str:
    parts = module.split(".")
    if module in ("catmouse", "catmouse.__main__"):
        return "front"
    if len(parts) > 2 and parts[1] in ("engine", "show", "cli"):
        return parts[1]
    if len(parts) == 2 and parts[1] in ("engine", "show", "cli"):
        return parts[1]
    return "game"


def imports(path: Path) -> list[tuple[str, bool, int]]:
    """(imported catmouse module, at top level?, line) for each import in the file.

    ``from X import name`` counts as importing ``X.name`` when that is a module of the
    package, else ``X``; an import under ``if TYPE_CHECKING:`` is left out (it never runs).
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name(path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    found: list[tuple[str, bool, int]] = []

    def visit(node: ast.AST, top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.Import):
                found.extend((alias.name, top, child.lineno) for alias in child.names
                             if alias.name.split(".")[0] == "catmouse")
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[:len(base) - (child.level - 1)]
                    source = ".".join(base + ([child.module] if child.module else []))
                else:
                    source = child.module or ""
                if source.split(".")[0] != "catmouse":
                    continue
                for alias in child.names:
                    full = f"{source}.{alias.name}"
                    found.append((full if is_module(full) else source, top, child.lineno))
            inner = top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                   ast.Lambda))
            visit(child, inner)

    visit(tree, True)
    return found


def is_module(name: str) -> bool:
    path = PROJECT.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file() or any(
        path.with_suffix(suffix).is_file() for suffix in (".pyx", ".pyi"))


def package_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def arrows() -> list[tuple[str, str, bool, int]]:
    modules = package_modules()
    return [(name, target, top, line) for name, path in modules.items()
            for target, top, line in imports(path)]


def test_the_layers_import_downward_only():
    wrong = []
    for source, target, top, line in arrows():
        up = RANK[layer(target)] > RANK[layer(source)]
        door = not top and (source, layer(target)) in LAZY_DOORS
        if up and not door:
            where = "at top level" if top else "inside a function"
            wrong.append(f"{source}:{line} ({layer(source)}) imports {target} "
                         f"({layer(target)}) {where}")
    assert wrong == []


def test_the_engine_knows_nothing_above_it():
    wrong = [f"{source}:{line} imports {target}" for source, target, _, line in arrows()
             if layer(source) == "engine" and layer(target) != "engine"]
    assert wrong == []


def test_the_display_door_is_the_only_arrow_from_the_game_to_the_show_layer():
    doors = {(source, target) for source, target, _, _ in arrows()
             if layer(source) == "game" and layer(target) == "show"}
    assert doors == {("catmouse.display", "catmouse.show.draw")}


def test_no_import_circles():
    """No loop of imports, call-time ones included: only the display door may run upward."""
    graph: dict[str, set[str]] = {}
    for source, target, top, _ in arrows():
        door = not top and (source, layer(target)) in LAZY_DOORS
        if target != source and not door:
            graph.setdefault(source, set()).add(target)
    circles = []
    state: dict[str, int] = {}

    def walk(node: str, stack: list[str]) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                circles.append(" -> ".join(stack[stack.index(nxt):] + [nxt]))
            elif nxt not in state:
                walk(nxt, stack)
        stack.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            walk(node, [])
    assert circles == []


def test_the_readers_and_writers_know_nothing_of_the_cops():
    """io/ serves every game; the k-cops modules use it, never the other way round."""
    wrong = [f"{source}:{line} imports {target}" for source, target, _, line in arrows()
             if source.startswith("catmouse.io") and target.startswith("catmouse.cops")]
    assert wrong == []


# The root shows the public face: the game's core, the front door, and one home for old names.
ROOT_MODULES = {"__init__", "__main__", "_moved", "analysis", "analysis_checks", "batch",
                "display", "family", "game", "graph", "graph_checks", "outcome", "progress",
                "rules", "solving", "version"}


def test_the_root_holds_the_core_and_the_folders_hold_the_rest():
    found = {path.stem for path in PACKAGE.glob("*.py")}
    assert found == ROOT_MODULES
    assert {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").is_file()} == {
        "engine", "io", "cops", "show", "cli"}


def source_files() -> list[Path]:
    files = [path for folder in ("catmouse", "ci", "benchmarks")
             for path in sorted((PROJECT / folder).rglob("*"))
             if path.suffix in SOURCE_SUFFIXES and path.is_file()]
    # The C that Cython generates from the .pyx is no source of ours.
    generated = PACKAGE / "engine"
    return [path for path in files if not (path.suffix == ".c" and path.parent == generated)]


def _sized(path: Path):
    name = str(path.relative_to(PROJECT))
    marks = []
    if name in NOT_YET_SPLIT:
        marks.append(pytest.mark.xfail(strict=True, reason=NOT_YET_SPLIT[name]))
    return pytest.param(path, id=name, marks=marks)


@pytest.mark.parametrize("path", [_sized(path) for path in source_files()])
def test_each_source_file_reads_in_one_sitting(path):
    lines = path.read_text(encoding="utf-8", errors="replace").count("\n")
    assert lines <= MAX_LINES, f"{path.relative_to(PROJECT)} has {lines} lines"


def test_the_readme_is_short():
    lines = (PROJECT / "README.md").read_text(encoding="utf-8").count("\n")
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines"


def test_the_checks_see_a_circle_and_an_upward_import(tmp_path):
    """The contract can fail: a fake package with a circle and an upward import is caught."""
    global PROJECT, PACKAGE
    fake = tmp_path / "catmouse"
    (fake / "engine").mkdir(parents=True)
    (fake / "show").mkdir()
    (fake / "__init__.py").write_text("")
    (fake / "engine" / "__init__.py").write_text("from ..graph import Graph\n")
    (fake / "show" / "__init__.py").write_text("")
    (fake / "graph.py").write_text("from .rules import x\nfrom .show import y\nGraph = 1\n")
    (fake / "rules.py").write_text("from .graph import Graph\nx = 1\n")
    # A circle closed by an import inside a function counts too.
    (fake / "cli").mkdir()
    (fake / "cli" / "__init__.py").write_text("")
    (fake / "cli" / "commands.py").write_text("def play():\n    from .play import go\n")
    (fake / "cli" / "play.py").write_text("from .commands import play\ngo = 1\n")
    saved = PROJECT, PACKAGE
    PROJECT, PACKAGE = tmp_path, fake
    try:
        with pytest.raises(AssertionError):
            test_the_layers_import_downward_only()
        with pytest.raises(AssertionError):
            test_the_engine_knows_nothing_above_it()
        with pytest.raises(AssertionError):
            test_no_import_circles()
        (fake / "graph.py").write_text("Graph = 1\n")  # only the call-time circle is left
        with pytest.raises(AssertionError, match="commands"):
            test_no_import_circles()
    finally:
        PROJECT, PACKAGE = saved


def test_the_fuzz_run_looks_for_bounds_checks_where_cython_writes_them():
    # ci/fuzz.py reads the generated C for its bounds checks; after the house move it still
    # looked beside catmouse/__init__.py and every fuzz run stopped with FileNotFoundError.
    import importlib.util

    spec = importlib.util.spec_from_file_location("ci_fuzz", PROJECT / "ci" / "fuzz.py")
    assert spec is not None and spec.loader is not None
    fuzz = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fuzz)
    assert (PROJECT / fuzz.GENERATED).with_suffix(".pyx").is_file()
