"""Fixtures written on one machine, read on another: byte order and word size as users meet them.

    python ci/byte_order_exchange.py write DIR    # pickles, exports and the answers, into DIR
    python ci/byte_order_exchange.py read DIR     # load them here; exit 1 on any difference

``ci/debian_arch.sh`` runs ``write`` on this x86-64 machine and ``read`` in the foreign root
(s390x is big-endian, i386 32-bit), then the reverse, in the same run.  What is exchanged:
pickles of a ``Graph``, a ``Game`` and an ``Analysis`` (loaded by ``pickle``), and each
analysis's exports, read as a user reads them, since exports have no loader of their own:
``.npz`` through ``numpy.load``, ``.json`` through ``json``, ``.csv`` through ``csv``.  Each
is compared with the answers the writer recorded and with what this machine computes itself.
"""

from __future__ import annotations

import csv
import json
import pickle
import random
import sys
from pathlib import Path

import catmouse


def boards() -> dict[str, catmouse.Game]:
    """A few games: plain ids, labels of three kinds, rules beyond the plain game."""
    rng = random.Random(23)
    rows: list[set[int]] = [set() for _ in range(40)]
    for u in range(40):
        for v in rng.sample(range(40), 2):
            if v != u:
                rows[u].add(v)
                rows[v].add(u)
    import networkx  # labels come from networkx graphs (Debian's python3-networkx in a root)

    petersen = networkx.petersen_graph()
    named = catmouse.Graph.from_networkx(
        networkx.relabel_nodes(petersen, {i: f"n{i}" for i in range(10)}))
    shifted = catmouse.Graph.from_networkx(
        networkx.relabel_nodes(petersen, {i: i + 1 for i in range(10)}))
    return {
        "random40": catmouse.Game(catmouse.Graph([sorted(r) for r in rows])),
        "named": catmouse.Game(named, holes=["n0"]),
        "shifted": catmouse.Game(shifted, holes=[1], cat_forbidden=[5], mouse_stays=True,
                                 first=catmouse.Turn.CAT),
    }


def answers(game: catmouse.Game) -> dict:
    a = game.analyze()
    return {"outcomes": bytes(a.outcomes).hex(),
            "remoteness": [int(x) for x in a.remoteness_table.cast("B").cast("i")],
            "line": [[str(m), str(c), str(t)] for m, c, t in a.line(*starts(game))]}


def starts(game: catmouse.Game) -> tuple:
    graph = game.graph
    return graph.label(3), graph.label(7)


def write(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    manifest: dict = {"byteorder": sys.byteorder, "engine": catmouse.BACKEND, "boards": {}}
    for name, game in boards().items():
        analysis = game.analyze()
        (folder / f"{name}.graph.pickle").write_bytes(pickle.dumps(game.graph))
        (folder / f"{name}.game.pickle").write_bytes(pickle.dumps(game))
        (folder / f"{name}.analysis.pickle").write_bytes(pickle.dumps(analysis))
        for suffix in (".npz", ".json", ".csv"):
            analysis.save(folder / f"{name}{suffix}")
        manifest["boards"][name] = answers(game)
    (folder / "answers.json").write_text(json.dumps(manifest), encoding="utf-8")
    print(f"byte_order_exchange: wrote {len(manifest['boards'])} boards' fixtures on a "
          f"{sys.byteorder}-endian machine ({catmouse.BACKEND} engine) into {folder}")


def read(folder: Path) -> int:
    manifest = json.loads((folder / "answers.json").read_text(encoding="utf-8"))
    problems: list[str] = []

    def same(what: str, got: object, expected: object) -> None:
        if isinstance(got, dict) and isinstance(expected, dict) and got.keys() == expected.keys():
            for key in got:
                same(f"{what} [{key}]", got[key], expected[key])
        elif isinstance(got, list) and isinstance(expected, list) and len(got) == len(expected):
            first = next((i for i, (x, y) in enumerate(zip(got, expected)) if x != y), None)
            if first is not None:
                problems.append(f"{what}: item {first}: {got[first]!r} != {expected[first]!r}")
        elif got != expected:
            problems.append(f"{what}: {str(got)[:60]} != {str(expected)[:60]}")

    numpy = None
    try:
        import numpy
    except ImportError:
        problems.append("numpy is missing here: the .npz fixtures cannot be read")
    checked = 0
    for name, game in boards().items():
        told = manifest["boards"][name]
        mine = answers(game)
        same(f"{name}: the writer's answers against this machine's", told, mine)
        graph = pickle.loads((folder / f"{name}.graph.pickle").read_bytes())
        same(f"{name}.graph.pickle", graph, game.graph)
        loaded_game = pickle.loads((folder / f"{name}.game.pickle").read_bytes())
        same(f"{name}.game.pickle", answers(loaded_game), mine)
        analysis = pickle.loads((folder / f"{name}.analysis.pickle").read_bytes())
        same(f"{name}.analysis.pickle outcomes", bytes(analysis.outcomes).hex(), mine["outcomes"])
        same(f"{name}.analysis.pickle remoteness",
             [int(x) for x in analysis.remoteness_table.cast("B").cast("i")], mine["remoteness"])
        same(f"{name}.analysis.pickle line",
             [[str(m), str(c), str(t)] for m, c, t in analysis.line(*starts(game))], mine["line"])
        here = game.analyze()
        if numpy is not None:
            with numpy.load(folder / f"{name}.npz") as data:
                same(f"{name}.npz outcomes", bytes(data["outcomes"].astype("u1")).hex(),
                     mine["outcomes"])
                same(f"{name}.npz remoteness", data["remoteness"].ravel().tolist(),
                     mine["remoteness"])
        table = json.loads((folder / f"{name}.json").read_text(encoding="utf-8"))
        same(f"{name}.json", table, json.loads(here.to_json()))
        with open(folder / f"{name}.csv", newline="", encoding="utf-8") as handle:
            rows = list(csv.reader(handle))
        local = folder / f"{name}.here.csv"
        here.save(local)
        with open(local, newline="", encoding="utf-8") as handle:
            same(f"{name}.csv", rows, list(csv.reader(handle)))
        local.unlink()
        checked += 1
    origin = f"a {manifest['byteorder']}-endian machine ({manifest['engine']} engine)"
    for problem in problems:
        print(f"byte_order_exchange: DIFFERS: {problem}")
    verdict = "FAIL" if problems else "OK"
    print(f"byte_order_exchange: {verdict}: read {checked} boards' pickles, npz, JSON and CSV "
          f"written on {origin}, here on a {sys.byteorder}-endian one ({catmouse.BACKEND})")
    return 1 if problems else 0


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("write", "read"):
        print(__doc__.strip().splitlines()[2:4], file=sys.stderr)
        return 2
    if argv[0] == "write":
        write(Path(argv[1]))
        return 0
    return read(Path(argv[1]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
