"""The cop number against published facts, on both engines.

The census of every connected graph on 2..8 nodes (the fixture, made once with nauty's
``geng -c N``) must give OEIS A220840 (cop-win graphs) and A220841 (cop number 2); the named
graphs their known cop numbers (Aigner and Fromme; Turcotte and Yvon 2020 for the Robertson
graph, the smallest graph that needs four cops).
"""

from __future__ import annotations

import random
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import scipy.sparse

import catmouse
from catmouse import Graph, cop_number, is_cop_win
from catmouse.io.graph_files import parse_graph6_all

FIXTURES = Path(__file__).parent / "fixtures"
CENSUS = (FIXTURES / "connected_2_to_8.g6").read_bytes()
# n: (graphs, cop-win (A220840), cop number 2 (A220841)); no graph on 8 nodes needs 3.
OEIS = {2: (1, 1, 0), 3: (2, 2, 0), 4: (6, 5, 1), 5: (21, 16, 5), 6: (112, 68, 44),
        7: (853, 403, 450), 8: (11117, 3791, 7326)}


def census(numbers: bytes) -> dict[int, Counter]:
    by_order: dict[int, Counter] = {}
    for line, c in zip(CENSUS.splitlines(), numbers):
        by_order.setdefault(line[0] - 63, Counter())[c] += 1
    return by_order


def test_the_census_of_2_to_8_nodes_is_oeis(engine):
    by_order = census(engine.cop_numbers_graph6(CENSUS, 8))
    for n, (graphs, cop_win, two) in OEIS.items():
        assert by_order[n] == Counter({1: cop_win, 2: two}), n
        assert sum(by_order[n].values()) == graphs


@pytest.fixture(scope="module")
def connected_graphs() -> list[Graph]:
    return parse_graph6_all(CENSUS.decode())


def test_one_cop_wins_exactly_where_is_cop_win_says(connected_graphs):
    assert len(connected_graphs) == 12112
    disagree = [g for g in connected_graphs if is_cop_win(g) != (cop_number(g) == 1)]
    assert disagree == []


DISMANTLABLE = Path(__file__).resolve().parents[2] / "benchmarks" / "dismantlable.c"
COMPILER = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")


@pytest.mark.skipif(COMPILER is None, reason="no C compiler here")
def test_an_independent_check_agrees_graph_by_graph(engine, tmp_path):
    """benchmarks/dismantlable.c, which shares no code with catmouse, finds the cop-win graphs
    by dismantling (Nowakowski and Winkler): the same ones as the engine, line by line (the
    benchmark runs it on the 11,716,571 graphs of 10 nodes the same way)."""
    if not DISMANTLABLE.exists():
        pytest.skip(f"{DISMANTLABLE} is not here (tests run outside a checkout or sdist)")
    program = tmp_path / "dismantlable"
    build = subprocess.run([COMPILER, "-O2", "-Wall", "-Wextra", "-Werror", str(DISMANTLABLE),
                            "-o", str(program)], capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    run = subprocess.run([str(program)], input=CENSUS, capture_output=True, timeout=120,
                         check=True)
    independent = run.stdout.split()
    numbers = engine.cop_numbers_graph6(CENSUS, 8)
    assert len(independent) == len(numbers) == 12112
    assert [line == b"1" for line in independent] == [c == 1 for c in numbers]


def test_the_public_function_reads_the_census_too(connected_graphs):
    assert census(bytes(cop_number(g) for g in connected_graphs)) == census(
        catmouse.engine.current.cop_numbers_graph6(CENSUS, 8))


def grid(rows: int, columns: int) -> nx.Graph:
    return nx.grid_2d_graph(rows, columns)


def random_tree(rng: random.Random, n: int) -> nx.Graph:
    """A random tree on n nodes, each node joined to one before it (networkx's own random
    tree generators changed name between versions: Debian's 2.8 has none of 3.x's)."""
    tree = nx.Graph()
    tree.add_nodes_from(range(n))
    tree.add_edges_from((u, rng.randrange(u)) for u in range(1, n))
    return tree


def random_chordal(rng: random.Random, n: int) -> list[list[int]]:
    """Each new node joins a clique of the graph so far: a perfect elimination order."""
    adjacency: list[set[int]] = [set()]
    for v in range(1, n):
        clique = [rng.randrange(v)]
        for u in rng.sample(range(v), v):
            if u not in clique and all(u in adjacency[w] for w in clique) and rng.random() < .6:
                clique.append(u)
        adjacency.append(set(clique))
        for u in clique:
            adjacency[u].add(v)
    return [sorted(row) for row in adjacency]


SMALL_FACTS = [
    ("Petersen", nx.petersen_graph(), 3),
    ("Q3", nx.hypercube_graph(3), 2),
    ("Q4", nx.hypercube_graph(4), 3),
    ("3x3 grid", grid(3, 3), 2),
    ("4x6 grid", grid(4, 6), 2),
    ("C3", nx.cycle_graph(3), 1),
    *[(f"C{n}", nx.cycle_graph(n), 2) for n in (4, 5, 9, 17)],
    ("K1", nx.empty_graph(1), 1),
    ("K7", nx.complete_graph(7), 1),
    ("path", nx.path_graph(12), 1),
    ("three lone nodes", nx.empty_graph(3), 3),
    ("C4 + Petersen + K1", nx.disjoint_union_all(
        [nx.cycle_graph(4), nx.petersen_graph(), nx.empty_graph(1)]), 6),
]


@pytest.mark.parametrize("name, graph, expected", SMALL_FACTS, ids=[f[0] for f in SMALL_FACTS])
def test_known_cop_numbers(use_engine, name, graph, expected):
    assert cop_number(graph) == expected


def test_trees_and_chordal_graphs_need_one_cop(use_engine):
    rng = random.Random(1)
    for n in range(1, 30, 2):
        assert cop_number(random_tree(random.Random(n), n)) == 1
        assert cop_number(random_chordal(rng, n)) == 1


@pytest.mark.parametrize("name, graph, expected", [
    ("dodecahedron", nx.dodecahedral_graph(), 3),
    ("Q5", nx.hypercube_graph(5), 3),
    ("8x8 grid", grid(8, 8), 2),
    ("C64", nx.cycle_graph(64), 2),
    # Past 64 nodes: rows of several words.
    ("10x10 grid", grid(10, 10), 2),
    ("C100", nx.cycle_graph(100), 2),
    ("a tree of 300 nodes", random_tree(random.Random(3), 300), 1),
    ("Petersen + a path of 70", nx.disjoint_union(nx.petersen_graph(), nx.path_graph(70)), 4),
])
def test_bigger_graphs_on_the_compiled_engine(name, graph, expected):
    assert catmouse.BACKEND == "cython" or pytest.skip("the pure twin takes seconds here")
    assert cop_number(graph) == expected


def test_the_robertson_graph_needs_four_cops(compiled_engine):
    """The 4-regular girth-5 graph on 19 nodes: the fewest nodes of a 4-cop-win graph."""
    line = (FIXTURES / "robertson.g6").read_bytes().strip()
    (robertson,) = parse_graph6_all(line.decode())
    assert robertson.n == 19 and robertson.num_edges == 38
    assert compiled_engine.cop_numbers_graph6(line, 8) == bytes([4])
    with pytest.raises(ValueError, match="more than max_cops = 3"):
        cop_number(robertson, max_cops=3)


def test_every_graph_form_gives_the_same_answer():
    petersen = nx.petersen_graph()
    matrix = nx.to_numpy_array(petersen, dtype=np.int8)
    forms = [petersen, Graph.from_networkx(petersen), [sorted(petersen[u]) for u in petersen],
             matrix, scipy.sparse.csr_matrix(matrix),
             nx.relabel_nodes(petersen, {u: f"v{u}" for u in petersen})]
    assert [cop_number(form) for form in forms] == [3] * len(forms)


def test_refusals():
    with pytest.raises(ValueError, match="undirected"):
        cop_number(Graph([[1], []], directed=True))
    with pytest.raises(ValueError, match="more than max_cops = 1"):
        cop_number(nx.cycle_graph(5), max_cops=1)
    with pytest.raises(ValueError, match="more than max_cops = 0"):
        cop_number(nx.empty_graph(1), max_cops=0)
    with pytest.raises(ValueError, match="at least 0"):
        cop_number(nx.cycle_graph(5), max_cops=-1)
    with pytest.raises(TypeError, match="max_cops"):
        cop_number(nx.cycle_graph(5), max_cops=2.0)
    with pytest.raises(ValueError, match="component of 1025 nodes"):
        cop_number(nx.disjoint_union(nx.cycle_graph(1025), nx.path_graph(3)))
    assert cop_number(Graph([])) == 0
    # Components of at most 1024 nodes each may add up to more.
    assert cop_number(nx.disjoint_union(nx.cycle_graph(150), nx.path_graph(30))) == 3


def test_the_memory_guard_names_the_size(use_engine, monkeypatch):
    """Memory for two cops on Petersen but not three: refused, saying how much, before."""
    two, three = (use_engine.cops_peak_bytes(10, k) for k in (2, 3))
    assert two < three
    monkeypatch.setattr(catmouse.cops.number, "memory_limit",
                        lambda: ((two + three) // 2, "available"))
    # (Searches this small do not ask the system, below: as if they were big.)
    monkeypatch.setattr(catmouse.cops.number, "SMALL_TABLES", 0)
    with pytest.raises(MemoryError, match=r"3 cops on 10 nodes need 220 rows"):
        cop_number(nx.petersen_graph())


def test_a_small_search_reads_neither_the_memory_nor_the_cpus(use_engine, monkeypatch):
    """Reading /proc/meminfo and /proc/loadavg took most of a small search's call (the
    Petersen graph's cop number 124 us, 28 us without): below the floors, threads=None is
    one thread and the memory is not asked.  Bigger searches still ask (the guard above,
    and tests/engine/test_cops_auto.py for the CPUs)."""
    def asked(*args):
        raise AssertionError("a small search asked the system")

    monkeypatch.setattr(catmouse.cops.number, "memory_limit", asked)
    monkeypatch.setattr(catmouse.cops.game, "memory_limit", asked)
    monkeypatch.setattr(catmouse.engine.cops_checks, "free_cpus", asked)
    petersen = nx.petersen_graph()
    assert cop_number(petersen) == 3
    assert catmouse.CopsGame(petersen, 3).analyze().best_start() is not None
    assert catmouse.CopsGame(petersen, 2).analyze(threads=None).counts()


def matching(pairs):
    """``pairs`` disjoint edges: as many components, each needing its own cop."""
    return Graph([[u ^ 1] for u in range(2 * pairs)])


def test_a_graph_past_1024_nodes_counts_each_component_once():
    assert cop_number(matching(520)) == 520
    assert cop_number(matching(520), max_cops=520) == 520
    # The budget runs down over the components: the last one finds it spent.
    with pytest.raises(ValueError, match="more than max_cops = 519"):
        cop_number(matching(520), max_cops=519)


@pytest.mark.parametrize(("threads", "error"), [(0, ValueError), (2.0, TypeError),
                                                (True, TypeError)])
def test_a_bad_thread_count_is_refused_before_any_work(threads, error):
    with pytest.raises(error, match="threads"):
        cop_number(nx.petersen_graph(), threads=threads)


def test_a_directed_graph_is_refused_in_the_cop_numbers_words():
    with pytest.raises(ValueError, match="^the cop number needs an undirected graph$"):
        cop_number(Graph([[1], [0]], directed=True))


def test_max_cops_takes_numpy_ints_and_refuses_bools_and_floats():
    # numpy.int64(3) was "max_cops must be an int or None, not int64", where numpy ints are
    # taken for the cops and max_memory.
    numpy = pytest.importorskip("numpy")
    petersen = Graph.from_edges(10, [(i, (i + 1) % 5) for i in range(5)]
                                + [(i, i + 5) for i in range(5)]
                                + [(5 + i, 5 + (i + 2) % 5) for i in range(5)])
    assert cop_number(petersen, max_cops=numpy.int64(3)) == 3
    for value in (True, numpy.True_, 3.0):
        with pytest.raises(TypeError, match="^max_cops must be an int or None, not "):
            cop_number(petersen, max_cops=value)
