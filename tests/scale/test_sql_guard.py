"""The read-only guard: one read statement passes (translated to the database's dialect), anything
else is refused before a database sees it."""

import pytest

from dsagent.sources.guard import RefusedQuery, check_read_only, translate

REFUSED = [
    "INSERT INTO sales VALUES ('x', '2024-01', 1, 1)",
    "UPDATE sales SET units = 0",
    "DELETE FROM sales",
    "DROP TABLE sales",
    "SELECT 1; DROP TABLE sales",
    "select * from sales; select 1",
    "WITH gone AS (DELETE FROM sales RETURNING *) SELECT * FROM gone",
    "COPY sales TO PROGRAM 'id'",
    "COPY sales FROM '/etc/passwd'",
    "CREATE TABLE t AS SELECT * FROM sales",
    "SELECT * INTO t2 FROM sales",
    "ALTER TABLE sales ADD COLUMN x int",
    "TRUNCATE sales",
    "ATTACH 'other.db' AS other",
    "PRAGMA table_info(sales)",
    "SET search_path = x",
    "CALL p()",
    "EXPLAIN ANALYZE DELETE FROM sales",
    "INSTALL httpfs",
    "LOAD httpfs",
    "VACUUM",
    "GRANT ALL ON sales TO public",
    "SELECT * FROM sales FOR UPDATE",
    "SELECT * FROM read_csv('/etc/passwd')",
    "SELECT * FROM '/etc/passwd'",
    "SELECT * FROM 'data.parquet'",
    "SELECT pg_read_file('/etc/passwd')",
    "SELECT set_config('default_transaction_read_only', 'off', false)",
    "SELECT nextval('seq')",
    "SELECT getenv('PGPASSWORD')",
    "SELECT java_method('java.lang.System', 'getenv', 'HOME')",
    "SELECT * FROM dblink('host=evil', 'select 1') AS t(x int)",
    "",
    "   ",
    "not sql at all (",
]

ALLOWED = [
    "SELECT region, SUM(units * price) AS revenue FROM sales GROUP BY region ORDER BY revenue DESC",
    "WITH t AS (SELECT region, units FROM sales) SELECT region, AVG(units) FROM t GROUP BY 1",
    "SELECT 1 UNION ALL SELECT 2",
    "(SELECT COUNT(*) FROM sales)",
    "select * from sales where region like 'E%' and month > '12:30'",
    "SELECT * FROM generate_series(1, 3)",
    "FROM sales",
]


@pytest.mark.parametrize("query", REFUSED)
def test_writes_and_side_effects_are_refused(query):
    with pytest.raises(RefusedQuery):
        check_read_only(query)


@pytest.mark.parametrize("query", ALLOWED)
def test_reads_pass(query):
    check_read_only(query)


@pytest.mark.parametrize("target", ["postgres", "sqlite", "spark", "duckdb"])
def test_translation_is_checked_again(target):
    text = translate("SELECT region, COUNT(*) FILTER (WHERE units > 10) AS big FROM sales GROUP BY region", target)
    check_read_only(text, target)
    assert "sales" in text


def test_duckdb_functions_become_the_targets():
    assert "TRUNC(" in translate("SELECT date_trunc('month', DATE '2024-03-05')", "spark")
    assert "LIMIT 5" in translate("SELECT * FROM sales LIMIT 5", "postgres")


def test_the_reason_is_given():
    with pytest.raises(RefusedQuery, match="one statement"):
        check_read_only("SELECT 1; DROP TABLE sales")
    with pytest.raises(RefusedQuery, match="DELETE"):
        check_read_only("WITH d AS (DELETE FROM sales RETURNING *) SELECT * FROM d")
