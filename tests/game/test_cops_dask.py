"""The census recipe of docs/cops.rst on a Dask ``LocalCluster`` of two worker processes.

Skipped without ``dask[distributed]`` or nauty's ``geng``.
"""

from __future__ import annotations

import shutil

import pytest

from catmouse.cops.census import census

distributed = pytest.importorskip("dask.distributed", reason="dask[distributed] is not installed")
pytestmark = pytest.mark.skipif(
    not (shutil.which("geng") or shutil.which("nauty-geng")), reason="nauty's geng is missing")


def test_the_census_on_a_local_cluster(tmp_path):
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, timeout=120)
    with cluster, distributed.Client(cluster, timeout=120) as client:
        def dask_map(job, residues):
            futures = client.map(job, residues)
            return (future.result() for future in distributed.as_completed(futures))

        ledger = str(tmp_path / "census7.jsonl")
        assert census(7, 6, ledger, map=dask_map) == {1: 403, 2: 450}
        assert len(client.scheduler_info()["workers"]) == 2
    assert len(open(ledger).read().splitlines()) == 6  # one line per slice, for a restart
