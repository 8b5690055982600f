"""engine = "spark": the sandbox's sql() runs on Apache Spark in local mode (driven from dsagent's
process), on the session's files registered as Spark views; the model's DuckDB SQL is translated to
Spark SQL. Marked ``spark``: skipped without Java outside CI, run by CI (CI=1)."""

from __future__ import annotations

import os
import shutil

import pytest

from dsagent.session import Session
from tests.scale.conftest import REGIONS, expected_revenue, sales_rows

pytestmark = pytest.mark.spark
PLAN = {"needs_code": True, "needs_evaluation": True, "needs_explanation": True, "reasoning": "aggregate in Spark"}


@pytest.fixture(scope="module", autouse=True)
def java():
    if shutil.which("java") is None:
        if os.environ.get("CI"):
            pytest.fail("Java 17+ is missing: install it (apt-get install openjdk-17-jre-headless) for the spark tests")
        pytest.skip("no Java: the spark tests need Java 17+")
    pytest.importorskip("pyspark")


@pytest.fixture
def sales_csv(tmp_path):
    path = tmp_path / "sales.csv"
    path.write_text("region,month,units,price\n" + "".join(f"{r},{m},{u},{p}\n" for r, m, u, p in sales_rows()))
    return path


def test_spark_answers_with_translated_sql(script_file, sales_csv):
    # DuckDB-only syntax: GROUP BY ALL, NULLS LAST and the COUNT(*) FILTER clause, translated for Spark.
    code = ("result = sql(\"select region, sum(units * price) as revenue, count(*) filter (where units > 25) as big "
            "from sales group by all order by revenue desc nulls last\")")
    spec = script_file([PLAN, code, "Plausible.", "Revenue per region."])
    with Session([sales_csv], model=spec, engine="spark", spark_url="local[2]") as session:
        assert session.broker.dialect == "spark"
        assert session.datasets["sales"].table is not None and session.datasets["sales"].rows == len(sales_rows())
        result = session.ask("Total revenue per region, and how many sales above 25 units?")
    assert result.output_type == "analysis", result.error
    big = {r: sum(1 for region, _m, u, _p in sales_rows() if region == r and u > 25) for r in REGIONS}
    for region, total in expected_revenue().items():
        line = next(line for line in result.result_str.splitlines() if region in line)
        assert float(line.split()[-2]) == pytest.approx(total, rel=1e-6)
        assert int(line.split()[-1]) == big[region]


def test_spark_refuses_writes_and_file_paths(script_file, sales_csv):
    with Session([sales_csv], model=script_file([]), engine="spark", spark_url="local[2]") as session:
        sandbox = session._ready_sandbox()
        for query in ("insert into sales values ('x', '2024-01', 1, 1.0)", "drop table sales", "create table t as select * from sales",
                      "select * from parquet.`/etc`", "select java_method('java.lang.System', 'getenv', 'HOME')",
                      "select 1; drop table sales"):
            run = sandbox.run(f"sql({query!r})")
            assert not run.success and "refused" in run.error, query
        count = sandbox.run("result = int(sql('select count(*) as n from sales')['n'][0])")
        assert count.result == str(len(sales_rows()))


def test_spark_profile_comes_from_spark(script_file, sales_csv):
    from dsagent.config import load_settings
    from dsagent.data.sharing import summarize_for_prompt

    with Session([sales_csv], model=script_file([]), engine="spark", spark_url="local[2]") as session:
        text = summarize_for_prompt(session.datasets, "revenue", load_settings(engine="spark"))
    assert "Spark local[2]" in text and "400 rows x 4 cols" in text and "translated for spark" in text
    assert "units int" in text and "first rows:" in text


CONNECT_SCRIPT = """
import sys
from pathlib import Path
from types import SimpleNamespace
from pyspark.sql import SparkSession
# A local Spark Connect server (pyspark ships its jar) on its default port, then dsagent's broker
# as a Connect client of it.
port = 15002
SparkSession.builder.remote("local[2]").getOrCreate()
from dsagent.sources.broker import open_broker
from dsagent.sources.attach import table_datasets
from dsagent.sources.url import SourceSpec
url = f"sc://localhost:{port}"
broker = open_broker(SourceSpec("spark", url, url), SimpleNamespace(sql_max_rows=100, sandbox_wall_s=60), {"sales": Path(sys.argv[1])})
assert type(broker.engine.spark).__module__.startswith("pyspark.sql.connect"), type(broker.engine.spark)
tables = table_datasets(broker, "full")
reply = broker.answer({"query": "select region, sum(units * price) as revenue from sales group by all order by revenue desc"})
assert reply["error"] is None, reply["error"]
print(tables["sales"].rows, dict(r for r in reply["rows"]))
print(broker.answer({"query": "drop table sales"})["error"])
"""


def test_spark_connect_client(sales_csv, tmp_path):
    import json
    import socket
    import subprocess
    import sys

    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", 15002)) == 0:
            pytest.skip("port 15002 (Spark Connect's default) is taken")
    # Its own process: a Spark Connect client and a classic Spark session do not share one.
    script = tmp_path / "connect.py"
    script.write_text(CONNECT_SCRIPT)
    done = subprocess.run([sys.executable, str(script), str(sales_csv)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    rows_line, refused = done.stdout.strip().splitlines()[-2:]
    rows, totals = rows_line.split(" ", 1)
    assert int(rows) == len(sales_rows())
    got = json.loads(totals.replace("'", '"'))
    for region, total in expected_revenue().items():
        assert got[region] == pytest.approx(total, rel=1e-6)
    assert refused.startswith("refused:")
