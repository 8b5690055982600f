"""sql() in the sandbox over pandas datasets, the table names, limits and locked configuration."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from dsagent.sandbox import Limits, Sandbox

OPTIONS = {"memory_mb": 128, "threads": 1, "temp_mb": 64, "max_rows": 50}


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory):
    sales = pd.DataFrame({"region": ["north", "south", "north", "east"], "amount": [10, 20, 30, 40]})
    targets = pd.DataFrame({"region": ["north", "south", "east"], "target": [35, 25, 50]})
    home = tmp_path_factory.mktemp("ws")
    with Sandbox(home, {"sales": sales, "targets": targets}, Limits(wall_s=20, memory_mb=400), sql_options=OPTIONS,
                 cache_dir=home / "cache") as sb:
        yield sb


def test_sql_groups_a_pandas_dataset_by_its_variable_name(sandbox: Sandbox) -> None:
    run = sandbox.run("r = sql('select region, sum(amount) as total from sales group by region order by region')\n"
                      "result = dict(zip(r['region'], r['total'].astype(int)))\nprint(type(r).__name__)")
    assert run.success, run.error
    assert run.stdout.strip() == "DataFrame"
    assert eval(run.result) == {"east": 40, "north": 40, "south": 20}


def test_sql_joins_two_datasets(sandbox: Sandbox) -> None:
    run = sandbox.run("result = sql('select s.region from sales s join targets t using (region) "
                      "group by s.region, t.target having sum(s.amount) > t.target order by 1')['region'].tolist()")
    assert run.success, run.error
    assert eval(run.result) == ["north"]


def test_a_large_result_is_refused_with_the_advice_to_aggregate(sandbox: Sandbox) -> None:
    run = sandbox.run("result = sql('select * from range(51)')")
    assert not run.success
    assert "more than 50 rows" in run.error and "aggregate in SQL first" in run.error
    assert sandbox.run("result = len(sql('select * from range(50)'))").result == "50"


def test_the_memory_limit_cannot_be_raised_by_the_code(sandbox: Sandbox) -> None:
    run = sandbox.run("sql(\"set memory_limit = '10GB'\")")
    assert not run.success and "locked" in run.error
    assert sandbox.run("result = sql(\"select current_setting('memory_limit') as m\")['m'].iloc[0]").result.strip("'\"") in ("128.0 MiB", "122.0 MiB", "128.0 MB")


def test_sql_reads_no_file_outside_the_session(sandbox: Sandbox, tmp_path: Path) -> None:
    secret = tmp_path / "secret.csv"
    secret.write_text("a\n1\n")
    run = sandbox.run(f"result = sql(\"select * from read_csv('{secret}')\")")
    assert not run.success and "Permission denied" in run.error


def test_a_lone_dataset_is_also_the_table_df(tmp_path: Path) -> None:
    frame = pd.DataFrame({"x": [1, 2, 3]})
    with Sandbox(tmp_path / "ws", {"numbers": frame}, Limits(wall_s=20), sql_options=OPTIONS, cache_dir=tmp_path / "cache") as sb:
        run = sb.run("result = int(sql('select sum(x) as s from df')['s'].iloc[0] + sql('select sum(x) as s from numbers')['s'].iloc[0])")
    assert run.success, run.error
    assert run.result == "12"
