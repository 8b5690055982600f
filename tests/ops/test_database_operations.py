"""Operations over a database: the schema over every table, the join path by foreign keys or key
columns, and one SQL query per choice, run on a real read-only SQLite file and compared with the
same answer computed in pandas by hand."""

from __future__ import annotations

import sqlite3
from contextlib import contextmanager
from pathlib import Path

import pandas as pd
import pytest

from dsagent.ops import Choice
from dsagent.ops.compile import NotCompilable
from dsagent.ops.dbschema import Join, database_schema, join_path
from dsagent.ops.sqlcompile import compile_sql

CUSTOMERS = pd.DataFrame({"customer_id": [1, 2, 3, 4], "country": ["DE", "FR", "DE", "IT"], "age": [30, 41, 25, 52]})
PRODUCTS = pd.DataFrame({"product_id": [10, 11, 12], "category": ["Books", "Games", "Books"], "unit_price": [12.0, 40.0, 8.5]})
ORDERS = pd.DataFrame({"order_id": [100, 101, 102, 103, 104], "customer_id": [1, 2, 1, 3, 4],
                       "status": ["paid", "paid", "cancelled", "paid", "paid"]})
ITEMS = pd.DataFrame({"item_id": range(1, 9), "order_id": [100, 100, 101, 102, 103, 103, 104, 104],
                      "product_id": [10, 11, 11, 12, 10, 12, 11, 10], "quantity": [2, 1, 3, 5, 1, 4, 2, 1]})


def make_db(path: Path, foreign_keys: bool = True) -> Path:
    ref = (lambda col, table: f" REFERENCES {table}({col})") if foreign_keys else (lambda col, table: "")
    con = sqlite3.connect(path)
    con.executescript(f"""
        CREATE TABLE customers (customer_id INTEGER PRIMARY KEY, country TEXT, age INTEGER);
        CREATE TABLE products (product_id INTEGER PRIMARY KEY, category TEXT, unit_price REAL);
        CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer_id INTEGER{ref('customer_id', 'customers')}, status TEXT);
        CREATE TABLE order_items (item_id INTEGER PRIMARY KEY, order_id INTEGER{ref('order_id', 'orders')},
                                  product_id INTEGER{ref('product_id', 'products')}, quantity INTEGER);
    """)
    for name, frame in (("customers", CUSTOMERS), ("products", PRODUCTS), ("orders", ORDERS), ("order_items", ITEMS)):
        frame.to_sql(name, con, if_exists="append", index=False)
    con.commit()
    con.close()
    return path


@pytest.fixture
def shop(tmp_path):
    """(the schema over the tables, a sql() that runs DuckDB SQL on the file as the broker does)."""
    from dsagent.config import load_settings
    from dsagent.sources.attach import open_sources
    from dsagent.sources.guard import translate
    from dsagent.workflows.common.compose import _values_reader

    _, broker, tables = open_sources([str(make_db(tmp_path / "shop.sqlite"))], load_settings())
    engine = broker.engine
    schema = database_schema(tables.values(), _values_reader(engine), engine.constraints())
    yield schema, lambda query: engine.run(translate(query, engine.dialect), 10_000)[0]
    broker.close()


def run(code: str, sql) -> object:
    scope = {"sql": sql, "pd": pd}
    exec(code, scope)  # noqa: S102 - the compiled operation
    return scope["result"]


def joined() -> pd.DataFrame:
    return ITEMS.merge(ORDERS, on="order_id").merge(CUSTOMERS, on="customer_id").merge(PRODUCTS, on="product_id")


def test_schema_names_every_table_column_and_reads_category_values(shop):
    schema, _ = shop
    assert schema.column("orders.status").kind == "category"
    assert set(schema.column("orders.status").values) == {"paid", "cancelled"}
    assert schema.column("order_items.quantity").numeric
    assert schema.column("orders.customer_id").kind == "id"
    assert Join("orders", "customer_id", "customers", "customer_id") in schema.joins


def test_join_path_goes_from_the_value_table_to_every_other(shop):
    schema, _ = shop
    path = join_path(schema, "order_items", ["order_items", "customers", "products"])
    assert [(j.left, j.right) for j in path] == [("order_items", "orders"), ("orders", "customers"), ("order_items", "products")]


def test_total_quantity_per_country_joins_three_tables(shop):
    schema, sql = shop
    code = compile_sql(Choice(op="group_aggregate", column="order_items.quantity", by="customers.country", agg="sum"), schema, "sqlite")
    assert code.startswith("# operation: group_aggregate") and "JOIN" in code
    expected = joined().groupby("country")["quantity"].sum().sort_values(ascending=False)
    result = run(code, sql)
    assert result.to_dict() == expected.to_dict() and result.is_monotonic_decreasing


def test_which_category_sells_most_units_among_paid_orders(shop):
    schema, sql = shop
    choice = Choice(op="extreme_group", column="order_items.quantity", by="products.category", agg="sum", direction="highest",
                    filters=[{"column": "orders.status", "op": "==", "value": "Paid"}])  # the column's own spelling is used
    result = run(compile_sql(choice, schema, "sqlite"), sql)
    paid = joined()[joined()["status"] == "paid"].groupby("category")["quantity"].sum()
    assert result["category"] == paid.idxmax() and result["sum of quantity"] == paid.max()


def test_share_count_and_distinct_count(shop):
    schema, sql = shop
    share = Choice(op="share", condition=[{"column": "orders.status", "op": "==", "value": "cancelled"}])
    assert run(compile_sql(share, schema, "sqlite"), sql) == pytest.approx(100 * (ORDERS["status"] == "cancelled").mean())
    count = Choice(op="count_rows", table="orders", filters=[{"column": "customers.country", "op": "==", "value": "DE"}])
    german_orders = ORDERS.merge(CUSTOMERS, on="customer_id").query("country == 'DE'")
    assert run(compile_sql(count, schema, "sqlite"), sql) == len(german_orders)  # the rows of the table named
    count = count.model_copy(update={"table": "customers"})
    assert run(compile_sql(count, schema, "sqlite"), sql) == (CUSTOMERS["country"] == "DE").sum()
    distinct = Choice(op="distinct_count", column="orders.customer_id", filters=[{"column": "orders.status", "op": "==", "value": "paid"}])
    assert run(compile_sql(distinct, schema, "sqlite"), sql) == ORDERS.query("status == 'paid'")["customer_id"].nunique()


def test_a_join_that_would_repeat_the_rows_aggregated_is_refused(shop):
    schema, _ = shop
    choice = Choice(op="aggregate", column="customers.age", agg="mean", filters=[{"column": "orders.status", "op": "==", "value": "paid"}])
    with pytest.raises(NotCompilable, match="keeps each customers row once"):
        compile_sql(choice, schema, "sqlite")


def test_median_is_refused_where_the_dialect_has_none(shop):
    schema, _ = shop
    with pytest.raises(NotCompilable, match="median has no function in sqlite"):
        compile_sql(Choice(op="aggregate", column="products.unit_price", agg="median"), schema, "sqlite")


def test_without_declared_keys_key_columns_of_one_name_join(tmp_path):
    from dsagent.config import load_settings
    from dsagent.sources.attach import open_sources

    _, broker, tables = open_sources([str(make_db(tmp_path / "plain.sqlite", foreign_keys=False))], load_settings())
    try:
        schema = database_schema(tables.values())
        assert Join("orders", "customer_id", "customers", "customer_id") in schema.joins
        assert Join("order_items", "product_id", "products", "product_id") in schema.joins
        assert not any({j.left_column, j.right_column} & {"country", "category"} for j in schema.joins)
    finally:
        broker.close()


def test_revenue_per_category_multiplies_columns_of_two_tables(shop):
    schema, sql = shop
    choice = Choice(op="group_aggregate", column="order_items.quantity", times="products.unit_price", by="products.category", agg="sum")
    data = joined()
    expected = (data["quantity"] * data["unit_price"]).groupby(data["category"]).sum()
    assert run(compile_sql(choice, schema, "sqlite"), sql).to_dict() == pytest.approx(expected.to_dict())


def test_a_product_starts_from_the_finer_table_and_a_distinct_count_crosses_a_bridge(shop):
    schema, sql = shop
    revenue = Choice(op="aggregate", column="products.unit_price", times="order_items.quantity", agg="sum")  # price named first
    data = joined()
    assert run(compile_sql(revenue, schema, "sqlite"), sql) == pytest.approx((data["quantity"] * data["unit_price"]).sum())
    buyers = Choice(op="distinct_count", column="orders.customer_id", filters=[{"column": "products.category", "op": "==", "value": "Games"}])
    code = compile_sql(buyers, schema, "sqlite")
    assert '"order_items"' in code  # the table between orders and products, which the choice does not name
    assert run(code, sql) == data.loc[data["category"] == "Games", "customer_id"].nunique()


def test_a_share_whose_condition_is_repeated_as_a_filter_is_not_100_percent(shop):
    from dsagent.ops import args_model, choice_of

    schema, sql = shop
    cancelled = {"column": "orders.status", "op": "==", "value": "cancelled"}
    args = args_model("share", schema).model_validate({"rows_of": "orders", "condition": [cancelled], "filters": [cancelled]})
    choice = choice_of("share", args)
    assert choice.filters == [] and choice.table == "orders"
    assert run(compile_sql(choice, schema, "sqlite"), sql) == pytest.approx(100 * (ORDERS["status"] == "cancelled").mean())


def test_a_value_a_column_cannot_hold_is_a_problem_not_a_crash(shop):
    from dsagent.ops.choice import problems
    from dsagent.ops.choose import choose

    schema, _ = shop
    bad = Choice(op="count_rows", table="orders", filters=[{"column": "orders.order_id", "op": ">=", "value": "2025-01-01"}])
    assert any("is not a number" in p for p in problems(bad, schema))
    replies = iter([{"operation": "count_rows"}, {"rows_of": "orders", "filters": [{"column": "order_items.quantity", "op": ">", "value": "many"}]}])

    def ask(text, model):
        return model.model_validate(next(replies))

    chosen = choose(ask, "How many orders?", schema, compiler=lambda c: compile_sql(c, schema, "sqlite"))
    assert chosen.code == "" and "is not a number" in chosen.why_not


@contextmanager
def period_counter(path: Path, column: str):
    """count(op, value): the rows a count_rows choice with one filter on ``column`` finds, compiled to
    SQL and run on the file as the broker does (its kind must be a date)."""
    from dsagent.config import load_settings
    from dsagent.sources.attach import open_sources
    from dsagent.sources.guard import translate

    _, broker, tables = open_sources([str(path)], load_settings())
    try:
        schema = database_schema(tables.values())
        assert schema.column(column).kind == "date"
        engine = broker.engine

        def count(op, value):
            code = compile_sql(Choice(op="count_rows", filters=[{"column": column, "op": op, "value": value}]), schema, engine.dialect)
            return run(code, lambda query: engine.run(translate(query, engine.dialect), 10_000)[0])

        yield count
    finally:
        broker.close()


def test_a_year_or_a_month_filters_the_whole_period_in_sql(tmp_path):
    path = tmp_path / "visits.sqlite"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE visits (visit_id INTEGER PRIMARY KEY, seen_at TEXT, fee REAL)")
    days = pd.date_range("2023-11-20", periods=40, freq="3D")
    con.executemany("INSERT INTO visits VALUES (?, ?, ?)", [(i, d.strftime("%Y-%m-%d 09:30:00"), float(i)) for i, d in enumerate(days)])
    con.commit()
    con.close()
    with period_counter(path, "visits.seen_at") as count:
        assert count("==", "2024") == int((days.year == 2024).sum())
        assert count("==", "2023-12") == int(((days.year == 2023) & (days.month == 12)).sum())
        assert count(">", "2023") == int((days.year > 2023).sum())
        assert count("<=", "2023-12") == int((days < "2024-01-01").sum())
        assert count("!=", "2023-12") == int(((days.year != 2023) | (days.month != 12)).sum())


@pytest.mark.parametrize("kind", ["sqlite-month-text", "duckdb-date"])
def test_a_period_filter_holds_for_month_text_and_real_dates(tmp_path, kind):
    """A column of 'YYYY-MM' text, and a DuckDB DATE column: the whole period either way."""
    import duckdb

    months = pd.period_range("2014-11", periods=16, freq="M")
    rows = [(i, str(m) if kind.startswith("sqlite") else m.to_timestamp().date(), float(i)) for i, m in enumerate(months)]
    if kind.startswith("sqlite"):
        path = tmp_path / "m.sqlite"
        con = sqlite3.connect(path)
        con.execute("CREATE TABLE sales (sale_id INTEGER PRIMARY KEY, month TEXT, amount REAL)")
    else:
        path = tmp_path / "m.duckdb"
        con = duckdb.connect(str(path))
        con.execute("CREATE TABLE sales (sale_id INTEGER PRIMARY KEY, month DATE, amount REAL)")
    con.executemany("INSERT INTO sales VALUES (?, ?, ?)", rows)
    con.commit()
    con.close()
    with period_counter(path, "sales.month") as count:
        assert count("==", "2015") == 12 and count("==", 2015.0) == 12
        assert count("==", "2015-03") == 1 and count("<=", "2015-03") == 5 and count(">", "2015-12") == 2
        assert count("!=", "2015-03") == 15 and count("<", "2015") == 2 and count(">=", "2015-12") == 3


def test_counting_a_tables_rows_needs_no_filter(shop):
    schema, sql = shop
    assert run(compile_sql(Choice(op="count_rows", table="orders"), schema, "sqlite"), sql) == len(ORDERS)
