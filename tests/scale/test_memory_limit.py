"""DuckDB in the sandbox keeps to its memory limit on a file several times larger than it."""

from __future__ import annotations

from pathlib import Path

import pytest

from dsagent.data import load_datasets
from dsagent.sandbox import Limits, Sandbox
from dsagent.sandbox.duck import options_from_settings

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def big_csv(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import duckdb

    path = tmp_path_factory.mktemp("big") / "events.csv"
    duckdb.connect(config={"memory_limit": "1GB"}).execute(f"""
        copy (select i as id, hash(i) % 300000 as user_id, (hash(i, 1) % 1000) / 10.0 as value,
                     ['a', 'b', 'c', 'd'][1 + (i % 4)] as kind
              from range(22000000) t(i)) to '{path}' (header)""")
    return path


def test_a_group_by_over_a_file_larger_than_duckdbs_memory_stays_in_the_limit(big_csv: Path, tmp_path: Path) -> None:
    import duckdb

    from dsagent.config import load_settings

    size_mb = big_csv.stat().st_size / 2**20
    settings = load_settings(sandbox_memory_mb=512, duckdb_threads=2, big_file_mb=1)
    options = options_from_settings(settings)
    assert size_mb > 2 * options["memory_mb"], (size_mb, options)  # the file is far above DuckDB's limit
    ds = load_datasets([big_csv], big_file_mb=1, threads=2)["events"]
    query = ("select count(*) as users, sum(total) as total from "
             "(select user_id, sum(value) as total from events group by user_id having count(*) > 2)")
    expected = duckdb.connect().execute(query.replace("events", f"read_csv('{big_csv}')")).fetchall()[0]
    limits = Limits(wall_s=170, memory_mb=512, file_mb=256, workspace_mb=1024)
    with Sandbox(tmp_path / "ws", {"events": ds.big.scan}, limits, [big_csv], sql_options=options, cache_dir=tmp_path / "cache") as sb:
        run = sb.run(f"r = sql('''{query}''')\nresult = [int(r['users'].iloc[0]), float(r['total'].iloc[0])]")
    assert run.success, run.error
    assert run.limit_breached is None
    users, total = eval(run.result)
    assert users == expected[0] and total == pytest.approx(expected[1])
