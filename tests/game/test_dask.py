"""Batches on Dask: the distributed option for batches that outgrow one machine.

A 2-worker ``dask.distributed.LocalCluster`` of separate processes stands in for a real
cluster: the graphs travel to the workers pickled, are solved there, and the outcomes (and a
full ``Analysis``) come back equal to a local solve.  Skipped where ``dask[distributed]`` is not
installed (``pip install "catmouse-solver[dask]"``); ``ci/test.sh`` installs it.
"""

from __future__ import annotations

import random

import pytest

import catmouse
from catmouse import Graph

distributed = pytest.importorskip(
    "dask.distributed",
    reason="dask[distributed] is not installed (pip install 'catmouse-solver[dask]')",
)

# Seconds for the cluster to start and for the results to come back; a loaded CI machine is slow
# to start worker processes, but a healthy run takes a few seconds.
TIMEOUT = 120


def random_graphs(count: int, seed: str) -> list[Graph]:
    rng = random.Random(seed)
    graphs = []
    for _ in range(count):
        n = rng.randint(3, 14)
        edges = {tuple(sorted(rng.sample(range(n), 2))) for _ in range(rng.randint(n, 3 * n))}
        graphs.append(Graph.from_edges(n, sorted(edges)))
    return graphs


@pytest.fixture(scope="module")
def client():
    # Separate worker processes, as on a real cluster: everything crosses a pickle.
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        timeout=TIMEOUT,
    )
    with cluster, distributed.Client(cluster, timeout=TIMEOUT) as client:
        yield client


def test_client_map_solve_equals_local_solve(client):
    graphs = random_graphs(40, "dask")
    futures = client.map(catmouse.solve, graphs)
    outcomes = client.gather(futures)
    assert outcomes == [catmouse.solve(g) for g in graphs]
    assert all(isinstance(o, catmouse.Outcome) for o in outcomes)
    # The work really ran on the workers, not in this process.
    assert len(client.scheduler_info()["workers"]) == 2
    assert all(client.who_has(futures).values())


def test_chunks_with_solve_many_and_keywords(client):
    graphs = random_graphs(30, "chunks")
    chunks = [graphs[i : i + 10] for i in range(0, len(graphs), 10)]
    futures = client.map(catmouse.solve_many, chunks, threads=1, mouse=2, cat=1)
    results = [o for chunk in client.gather(futures) for o in chunk]
    assert results == [catmouse.solve(g, mouse=2, cat=1) for g in graphs]


def test_analysis_comes_back_whole(client):
    graph = random_graphs(1, "analysis")[0]
    remote = client.submit(catmouse.analyze, graph).result(timeout=TIMEOUT)
    local = catmouse.analyze(graph)
    assert remote.graph == graph
    assert remote.outcomes.tobytes() == local.outcomes.tobytes()
    assert remote.remoteness_table.tobytes() == local.remoteness_table.tobytes()
    assert remote.line() == local.line()
    assert remote.verify()


def test_a_bad_graph_raises_on_the_client(client):
    future = client.submit(catmouse.solve, [[1], [2]])  # node 1 lists a node that is not there
    with pytest.raises(ValueError):
        future.result(timeout=TIMEOUT)
