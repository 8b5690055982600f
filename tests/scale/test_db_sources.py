"""Databases as sources: SQLite and DuckDB files and a real PostgreSQL server, through the Session,
the real sandbox (whose sql() asks the parent's broker) and the scripted model.

Each source holds the same ``sales`` table; the answer must equal the sum computed here in Python,
the rows must come back aggregated (pushed down), writes are refused by the guard and again by the
database, and the password is in no log, report or message.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from dsagent.errors import UserError
from dsagent.session import Session
from tests.scale.conftest import READER_PASSWORD, expected_revenue, sales_rows

PLAN = {"needs_code": True, "needs_evaluation": True, "needs_explanation": True, "reasoning": "aggregate in SQL"}
REVENUE_SQL = "select region, sum(units * price) as revenue from sales group by region order by revenue desc"
WRITES = [
    "insert into sales values ('x', '2024-01', 1, 1)",
    "drop table sales",
    "select 1; drop table sales",
    "with gone as (delete from sales returning *) select count(*) from gone",
    "copy sales to program 'id'",
]


def _ask(spec: str, source, question: str = "Total revenue per region?", **settings):
    with Session([source], model=spec, **settings) as session:
        result = session.ask(question)
        return result, session


def _revenue_script(script_file, extra: str = "") -> str:
    code = f"result = sql({REVENUE_SQL!r})\nprint(len(result), 'rows')" + extra
    return script_file([PLAN, code, "Plausible.", "North, South, East and West revenue."])


def _check_revenue(result) -> None:
    assert result.output_type == "analysis", result.error
    for region, total in expected_revenue().items():
        line = next(line for line in result.result_str.splitlines() if region in line)
        assert float(line.split()[-1]) == pytest.approx(total, rel=1e-6)


@pytest.fixture(params=["sqlite", "duckdb"])
def db_file(request, sqlite_db, duckdb_file) -> Path:
    return sqlite_db if request.param == "sqlite" else duckdb_file


def test_file_database_answers_by_sql(script_file, db_file):
    before = hashlib.sha256(db_file.read_bytes()).hexdigest()
    result, session = _ask(_revenue_script(script_file), db_file)
    _check_revenue(result)
    ds = session.datasets["sales"]
    assert ds.table is not None and ds.rows == len(sales_rows()) and len(ds.frame) <= 3
    assert hashlib.sha256(db_file.read_bytes()).hexdigest() == before  # never written


def test_profile_lists_tables_with_counts_types_and_samples(script_file, db_file):
    from dsagent.config import load_settings
    from dsagent.data.sharing import summarize_for_prompt

    with Session([db_file], model=script_file([])) as session:
        for sharing in ("full", "sample", "schema"):
            settings = load_settings(data_sharing=sharing)
            text = summarize_for_prompt(session.datasets, "revenue", settings)
            assert "sql(query)" in text and "table sales" in text and "400 rows x 4 cols" in text
            assert "region" in text and "units" in text
            assert ("first rows:" in text) == (sharing != "schema")
            assert ("North" in text or "East" in text) == (sharing != "schema")


def test_without_a_database_sql_is_the_sandboxs_own_duckdb(script_file, tmp_path):
    csv = tmp_path / "s.csv"
    csv.write_text("a\n1\n2\n")
    with Session([csv], model=script_file([])) as session:
        assert session.broker is None  # no broker: the files are queried inside the sandbox
        run = session._ready_sandbox().run("result = int(sql('select sum(a) as t from s')['t'][0])")
        assert run.success and run.result == "3", run.error


def test_writes_are_refused_in_the_sandbox(script_file, db_file):
    with Session([db_file], model=script_file([])) as session:
        for query in WRITES:
            run = session._ready_sandbox().run(f"sql({query!r})")
            assert not run.success and "refused" in run.error, query
        count = session._ready_sandbox().run("result = int(sql('select count(*) as n from sales')['n'][0])")
        assert count.result == str(len(sales_rows()))


def test_connection_is_read_only_when_the_guard_is_bypassed(db_file):
    from types import SimpleNamespace

    from dsagent.sources.broker import open_broker
    from dsagent.sources.url import parse_source

    broker = open_broker(parse_source(db_file), SimpleNamespace(sql_max_rows=10, sandbox_wall_s=10))
    try:
        for statement in ("INSERT INTO sales VALUES ('x', '2024-01', 1, 1)", "DROP TABLE sales", "CREATE TABLE t (x int)"):
            with pytest.raises(Exception, match="(?i)read.?only|readonly|Cannot execute"):
                broker.engine.run(statement, 10)
    finally:
        broker.close()
    if db_file.suffix == ".duckdb":  # and it cannot reach files: external access is off
        broker = open_broker(parse_source(db_file), SimpleNamespace(sql_max_rows=10, sandbox_wall_s=10))
        with pytest.raises(Exception, match="(?i)disabled|permission"):
            broker.engine.run("SELECT * FROM read_csv('/etc/passwd')", 10)
        broker.close()


def test_results_are_capped_and_say_so(script_file, sqlite_db):
    with Session([sqlite_db], model=script_file([]), sql_max_rows=25) as session:
        run = session._ready_sandbox().run("rows = sql('select * from sales')\nresult = len(rows)")
        assert run.result == "25"
        assert "only the first 25 rows" in run.stdout and "sql_max_rows" in run.stdout


def test_code_that_asks_and_never_reads_hits_the_wall_limit(script_file, sqlite_db):
    code = ("from dsagent.sandbox import protocol\n"
            "fd = [c.cell_contents for c in sql.__closure__ if isinstance(c.cell_contents, int)][-1]\n"
            "for _ in range(200):\n    protocol.send(fd, {'type': 'sql', 'query': 'select * from sales'})\n"
            "import time\ntime.sleep(60)")
    with Session([sqlite_db], model=script_file([]), sandbox_wall_s=8, sql_max_rows=100000) as session:
        run = session._ready_sandbox().run(code)
        assert not run.success and run.limit_breached == "wall_time"
        again = session._ready_sandbox().run("result = len(sql('select * from sales limit 3'))")
        assert again.result == "3"


def test_cli_accepts_a_database_file(script_file, sqlite_db, capsys):
    from dsagent.cli.main import main

    code = main(["ask", str(sqlite_db), "Total revenue per region?", "--model", _revenue_script(script_file)])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "sales (400×4)" in out.err and "North" in out.out


def test_two_databases_or_a_missing_file_are_user_errors(sqlite_db, duckdb_file, tmp_path):
    with pytest.raises(UserError, match="one database source"):
        Session([sqlite_db, duckdb_file], model="scripted:none")
    with pytest.raises(UserError, match="not found"):
        Session([tmp_path / "nope.sqlite"], model="scripted:none")


# --- PostgreSQL -------------------------------------------------------------------------------


def test_postgres_answers_by_pushed_down_sql(script_file, postgres, reader_env):
    result, session = _ask(_revenue_script(script_file), postgres.url)
    _check_revenue(result)
    assert session.datasets["sales"].rows == len(sales_rows())
    log = postgres.log.read_text()
    assert "SUM(units * price) AS revenue FROM sales GROUP BY region" in log  # the database aggregated


def test_postgres_writes_are_refused_by_the_broker(script_file, postgres, reader_env):
    seen = len(postgres.log.read_text())
    with Session([postgres.url], model=script_file([])) as session:
        for query in WRITES:
            run = session._ready_sandbox().run(f"sql({query!r})")
            assert not run.success and "refused" in run.error, query
    statements = [line.lower() for line in postgres.log.read_text()[seen:].splitlines() if "statement:" in line]
    assert statements and not any(word in line for line in statements for word in ("insert into", "drop table", "delete from", "to program"))


@pytest.mark.parametrize("statement", ["INSERT INTO sales VALUES ('x', '2024-01', 1, 1)", "DROP TABLE sales",
                                       "WITH gone AS (DELETE FROM sales RETURNING *) SELECT count(*) FROM gone",
                                       "COPY sales TO PROGRAM 'id'"])
def test_postgres_refuses_writes_when_the_guard_is_bypassed(postgres, reader_env, statement):
    import psycopg

    from dsagent.sources.engines import SqlAlchemySource
    from dsagent.sources.url import parse_source

    engine = SqlAlchemySource(parse_source(postgres.url))
    with pytest.raises(Exception, match="syntax error|read-only transaction|data-modifying|pg_execute_server_program"):
        engine.run(statement, 10)  # a server-side cursor holds a query only, in a read-only transaction
    engine.close()
    # the session's own lock, as the broker opens it (default_transaction_read_only), with a plain cursor
    with psycopg.connect(host="127.0.0.1", port=postgres.port, dbname="shop", user="reader", password=READER_PASSWORD,
                         options="-c default_transaction_read_only=on") as con:
        with pytest.raises(psycopg.Error, match="read-only transaction|pg_execute_server_program"):
            con.execute(statement)
    # and the role's: a plain read-write connection as reader still may not write
    with psycopg.connect(host="127.0.0.1", port=postgres.port, dbname="shop", user="reader", password=READER_PASSWORD) as con:
        with pytest.raises(psycopg.Error, match="permission denied|must be owner|superuser|pg_execute_server_program"):
            con.execute(statement)
    with psycopg.connect(host="127.0.0.1", port=postgres.port, dbname="shop", user="reader", password=READER_PASSWORD) as con:
        assert con.execute("SELECT count(*) FROM sales").fetchone()[0] == len(sales_rows())


def test_postgres_password_is_never_logged(script_file, postgres, monkeypatch, hermetic):
    monkeypatch.delenv("PGPASSWORD", raising=False)
    url = postgres.url.replace("reader@", f"reader:{READER_PASSWORD}@")
    extra = "\ntry:\n    sql('select nope from sales')\nexcept Exception as exc:\n    print(exc)"
    result, session = _ask(_revenue_script(script_file, extra), url)
    _check_revenue(result)
    assert "***" in session.broker.label
    places = [Path(result.report_path), Path(result.report_path).with_suffix(".html"), *Path(result.workspace).rglob("*.py")]
    places += list(hermetic.rglob("*"))  # the run log (runs.db) and the checkpoints
    for path in places:
        if path.is_file():
            assert READER_PASSWORD.encode() not in path.read_bytes(), path
    assert READER_PASSWORD not in result.model_dump_json()
    bad = postgres.url.replace("reader@", "reader:wrong-Pass-123@")
    with pytest.raises(UserError) as info:
        Session([bad], model="scripted:none")
    assert "wrong-Pass-123" not in str(info.value) and "cannot connect" in str(info.value)


def test_a_table_used_as_a_dataframe_says_to_use_sql(script_file, sqlite_db):
    with Session([sqlite_db], model=script_file([])) as session:
        sandbox = session._ready_sandbox()
        for code in ("sales.groupby('region')['units'].sum()", "df['units'].mean()", "len(sales)"):
            run = sandbox.run(code)
            assert not run.success and "is a table in the database" in run.error and "sql(" in run.error, code


def test_a_column_of_another_table_gets_the_table_that_has_it(db_file):
    """The database's own error names a column the query's table lacks: the broker adds the tables
    that have it (the fix is a join), or says no table has it (a text value in double quotes)."""
    from types import SimpleNamespace

    from dsagent.sources.broker import open_broker
    from dsagent.sources.url import parse_source

    broker = open_broker(parse_source(db_file), SimpleNamespace(sql_max_rows=10, sandbox_wall_s=10))
    try:
        wrong = broker.answer({"query": "SELECT SUM(quantity) FROM sales"})["error"]
        assert "no table has a column `quantity`" in wrong and "'quantity'" in wrong
        assert "`units` is a column of sales" in broker.answer({"query": "SELECT SUM(s.units) FROM sales AS t, (SELECT 1 AS x) s"})["error"]
        assert " — " not in broker.answer({"query": "SELECT * FROM nowhere"})["error"]  # another error: no hint
    finally:
        broker.close()
