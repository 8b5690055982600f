"""A Session warms its sandbox worker in a background thread; code that runs a cell at once (a
notebook, a test) must not race it: both preparing the folders, or one spawning a worker and
killing the other's (seen as FileExistsError, or a worker that died with -9)."""

from __future__ import annotations

import threading

import pandas as pd

from dsagent.session import Session


def test_cells_run_at_once_while_the_session_warms_its_worker():
    with Session({"t": pd.DataFrame({"a": [1, 2, 3]})}, model="scripted:none") as session:
        results, errors = [], []

        def run() -> None:
            try:
                results.append(session.sandbox.run("result = int(df['a'].sum())"))
            except Exception as exc:  # noqa: BLE001 — the test reports it
                errors.append(exc)

        threads = [threading.Thread(target=run) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not errors, errors
        assert [r.success for r in results] == [True, True, True], [r.error for r in results]
        assert {r.result for r in results} == {"6"}
        assert session.sandbox._spawned == 1  # one worker, not one per thread
