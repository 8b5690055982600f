"""The SQL guard of database sources allows, it does not deny (issue 38, finding 8): a statement
passes only when every function in it is on the allow-list of pure functions, every cast is to a
built-in type and no table is a system catalog. Parse-only: no database is needed."""

from __future__ import annotations

import pytest

from dsagent.sources.guard import RefusedQuery, check_read_only, translate
from tests.scale.conftest import postgres, reader_env  # noqa: F401 - fixtures (a real server; skipped without one)

# (query, the name the refusal must give)
REFUSED = [
    ("SELECT ts_stat('select to_tsvector(pg_read_file(''/etc/passwd''))')", "ts_stat"),
    ("SELECT * FROM ts_stat('select to_tsvector(passwd) from pg_shadow')", "ts_stat"),
    ("SELECT pg_stat_reset()", "pg_stat_reset"),
    ("SELECT pg_log_backend_memory_contexts(pg_backend_pid())", "pg_log_backend_memory_contexts"),
    ("SELECT region, set_config('statement_timeout', '0', false) FROM sales", "set_config"),
    ("SELECT current_setting('data_directory')", "current_setting"),
    ("SELECT lo_import('/etc/passwd')", "lo_import"),
    ("SELECT lo_export(16385, '/tmp/x')", "lo_export"),
    ("SELECT dblink_connect('host=evil')", "dblink_connect"),
    ("SELECT pg_ls_dir('.')", "pg_ls_dir"),
    ("SELECT query_to_xml('select 1', true, true, '')", "query_to_xml"),
    ("SELECT my_function(units) FROM sales", "my_function"),
    ("SELECT sum(units) FILTER (WHERE evil(units) > 0) FROM sales", "evil"),
    ("WITH t AS (SELECT region FROM sales) SELECT count(*) FROM t WHERE region = upper(hack(region))", "hack"),
    ("SELECT public.lower(region) FROM sales", "public.lower"),
    ("SELECT pg_catalog.pg_read_file('/etc/passwd')", "pg_read_file"),
    ("SELECT usename, passwd FROM pg_shadow", "pg_shadow"),
    ("SELECT rolpassword FROM pg_catalog.pg_authid", "pg_authid"),
    ("SELECT * FROM pg_catalog.pg_class", "pg_catalog"),
    ("SELECT * FROM information_schema.tables", "information_schema"),
    ("SELECT * FROM sales JOIN pg_user_mapping ON true", "pg_user_mapping"),
    ("SELECT CAST(region AS evil_type) FROM sales", "evil_type"),
    ("SELECT CAST('pg_shadow' AS regclass)", "regclass"),
    # DuckDB: files, globbing, settings and secrets
    ("SELECT * FROM glob('/etc/*')", "glob"),
    ("SELECT * FROM read_text('/etc/passwd')", "read_text"),
    ("SELECT * FROM read_blob('/etc/passwd')", "read_blob"),
    ("SELECT * FROM duckdb_settings()", "duckdb_settings"),
    ("SELECT * FROM duckdb_secrets()", "duckdb_secrets"),
    ("SELECT * FROM sniff_csv('/etc/passwd')", "sniff_csv"),
    ("SELECT * FROM parquet_metadata('/x.parquet')", "parquet_metadata"),
    # SQLite: extensions and files
    ("SELECT load_extension('/tmp/evil.so')", "load_extension"),
    ("SELECT readfile('/etc/passwd')", "readfile"),
    ("SELECT writefile('/tmp/x', 'y')", "writefile"),
    ("SELECT fts3_tokenizer('simple')", "fts3_tokenizer"),
]

ALLOWED = [
    "SELECT region, SUM(units * price) AS revenue FROM sales GROUP BY region ORDER BY revenue DESC",
    "SELECT COUNT(*) AS n, COUNT(units) AS nn, APPROX_COUNT_DISTINCT(region) AS u, MIN(price), MAX(price) FROM sales",
    "SELECT COUNT(DISTINCT region), AVG(units), STDDEV(price), VARIANCE(price), MEDIAN(units) FROM sales",
    "SELECT region, QUANTILE_CONT(price, 0.9), PERCENTILE_CONT(0.5) WITHIN GROUP (ORDER BY price) FROM sales GROUP BY 1",
    "SELECT date_trunc('month', CAST(month || '-01' AS DATE)) AS m, SUM(units) FROM sales GROUP BY 1",
    "SELECT EXTRACT(year FROM DATE '2024-03-05'), date_part('month', DATE '2024-03-05'), CURRENT_DATE",
    "SELECT strftime(DATE '2024-03-05', '%Y-%m'), year(DATE '2024-03-05'), month(DATE '2024-03-05')",
    "SELECT date_diff('day', DATE '2024-01-01', DATE '2024-03-05'), DATE '2024-01-01' + INTERVAL 3 DAY",
    "SELECT COALESCE(units, 0), NULLIF(units, 0), GREATEST(units, 1), LEAST(units, 9) FROM sales",
    "SELECT ROUND(price, 2), ABS(units), FLOOR(price), CEIL(price), SQRT(units), LN(units), EXP(1), POWER(units, 2) FROM sales",
    "SELECT LOWER(region), UPPER(region), TRIM(region), LENGTH(region), SUBSTRING(region, 1, 2), REPLACE(region, 'a', 'b') FROM sales",
    "SELECT CONCAT(region, '-', month), region || month, LEFT(region, 1), STRPOS(region, 'o') FROM sales",
    "SELECT CASE WHEN units > 10 THEN 'big' ELSE 'small' END AS size, CAST(units AS DOUBLE) / 2 FROM sales",
    "SELECT region, ROW_NUMBER() OVER (PARTITION BY region ORDER BY price DESC) AS r FROM sales",
    "SELECT region, RANK() OVER (ORDER BY units), DENSE_RANK() OVER (ORDER BY units), NTILE(4) OVER (ORDER BY units) FROM sales",
    "SELECT month, LAG(units) OVER (ORDER BY month), LEAD(units, 1) OVER (ORDER BY month), "
    "SUM(units) OVER (ORDER BY month ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM sales",
    "SELECT region, COUNT(*) FILTER (WHERE units > 10) AS big FROM sales GROUP BY region",
    "WITH t AS (SELECT region, units FROM sales) SELECT region, AVG(units) FROM t GROUP BY 1 HAVING AVG(units) > 3",
    "SELECT * FROM sales WHERE region IN (SELECT region FROM sales WHERE units > 40) AND month BETWEEN '2024-01' AND '2024-06'",
    "SELECT * FROM generate_series(1, 3)",
    "SELECT region, STRING_AGG(month, ',') FROM sales GROUP BY region",
    "SELECT CORR(units, price), REGR_SLOPE(price, units) FROM sales",
    "SELECT regexp_matches(region, '^N'), regexp_replace(region, 'o', '0') FROM sales",
    "SELECT TRY_CAST(month AS INTEGER), CAST(price AS DECIMAL(10, 2)), CAST(units AS VARCHAR) FROM sales",
]


@pytest.mark.parametrize("query,name", REFUSED)
def test_functions_off_the_allow_list_and_catalogs_are_refused_by_name(query, name):
    with pytest.raises(RefusedQuery) as refused:
        check_read_only(query)
    assert name.lower() in str(refused.value).lower()


@pytest.mark.parametrize("query,name", [q for q in REFUSED if not q[1].startswith(("read_", "duckdb_", "glob", "sniff", "parquet"))])
def test_postgres_spellings_are_refused_in_postgres_too(query, name):
    """The same query parsed as PostgreSQL (the guard checks the translation again in the target dialect)."""
    with pytest.raises(RefusedQuery):
        check_read_only(query, "postgres")


@pytest.mark.parametrize("query", ALLOWED)
@pytest.mark.parametrize("target", ["duckdb", "postgres"])
def test_analytic_queries_pass_and_translate(query, target):
    check_read_only(query)
    translate(query, target)


@pytest.mark.parametrize("target", ["sqlite", "spark"])
def test_the_profile_and_common_queries_translate_to_sqlite_and_spark(target):
    for query in ALLOWED[:3] + ALLOWED[8:15] + ALLOWED[16:20]:
        if target == "sqlite" and ("STDDEV" in query or "MEDIAN" in query or "QUANTILE" in query):
            continue  # not SQLite functions
        translate(query, target)


def test_the_refusal_says_what_to_do():
    with pytest.raises(RefusedQuery, match=r"pg_stat_reset.*(allowed|allow-list)"):
        check_read_only("SELECT pg_stat_reset()", "postgres")


def test_a_real_server_never_sees_the_reported_attacks(postgres, reader_env):  # noqa: F811
    """The report's statements through the broker to a real PostgreSQL: refused, and none reaches
    the server (its log holds every statement it received)."""
    from types import SimpleNamespace

    from dsagent.sources.broker import open_broker
    from dsagent.sources.url import parse_source

    attacks = {"ts_stat": "SELECT * FROM ts_stat('select to_tsvector(pg_read_file(''/etc/passwd''))')",
               "pg_stat_reset": "SELECT pg_stat_reset()",
               "pg_log_backend_memory_contexts": "SELECT pg_log_backend_memory_contexts(pg_backend_pid())",
               "pg_shadow": "SELECT usename, passwd FROM pg_shadow"}
    broker = open_broker(parse_source(postgres.url), SimpleNamespace(sql_max_rows=10, sandbox_wall_s=10))
    try:
        for name, query in attacks.items():
            reply = broker.answer({"type": "sql", "query": query})
            assert reply["error"].startswith("refused") and name in reply["error"], reply
        assert broker.answer({"type": "sql", "query": "select count(*) as n from sales"})["rows"] == [[400]]
    finally:
        broker.close()
    log = postgres.log.read_text(errors="replace")
    assert "count(*)" in log.lower()  # the server logs what it receives …
    assert not any(name in log for name in attacks)  # … and received none of these
