"""A database's profile says how its tables join (data/table_profile.joins_text): the catalog's
foreign keys, read once when the tables are described (sources/tables.describe), then key columns
matched by name. Real SQLite and DuckDB files; the profile text the model reads is asserted."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from dsagent.config import load_settings
from dsagent.data.sharing import summarize_for_prompt
from dsagent.ops.dbschema import Join, database_schema
from dsagent.sources.attach import open_sources

SCHEMA = """
CREATE TABLE people (pid INTEGER PRIMARY KEY, name TEXT);
CREATE TABLE sales (id INTEGER PRIMARY KEY, buyer INTEGER{ref}, amount REAL);
CREATE TABLE stores (id INTEGER PRIMARY KEY, city TEXT);
CREATE TABLE visits (visit_no INTEGER PRIMARY KEY, store_id INTEGER, pid INTEGER);
"""
ROWS = {"people": [(1, "Ann"), (2, "Bo")], "sales": [(1, 1, 9.5), (2, 2, 3.0), (3, 1, 1.0)],
        "stores": [(1, "Oslo"), (2, "Rome")], "visits": [(1, 1, 1), (2, 2, 2)]}


def make(path: Path, declared: bool, kind: str) -> Path:
    ddl = SCHEMA.format(ref=" REFERENCES people(pid)" if declared else "")
    if kind == "duckdb":
        import duckdb

        con = duckdb.connect(str(path))
        con.execute(ddl)
    else:
        con = sqlite3.connect(path)
        con.executescript(ddl)
    for table, rows in ROWS.items():
        con.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(rows[0]))})", rows)
    con.commit()
    con.close()
    return path


def described(path: Path):
    _, broker, tables = open_sources([str(path)], load_settings())
    return broker, tables


@pytest.mark.parametrize("kind", ["sqlite", "duckdb"])
def test_the_profile_names_declared_and_name_matched_joins(tmp_path, kind):
    broker, tables = described(make(tmp_path / f"shop.{kind}", declared=True, kind=kind))
    try:
        sales = next(ds.table for ds in tables.values() if ds.table.name == "sales")
        assert ("buyer", "people", "pid") in sales.foreign_keys and "id" in sales.keys
        text = summarize_for_prompt(tables, "total amount per person", load_settings())
        joins = next(line for line in text.splitlines() if line.startswith("Joins: "))
        assert "sales.buyer = people.pid" in joins  # declared: no name says so
        assert "visits.store_id = stores.id" in joins  # <table>_id -> that table's id
        assert {"visits.pid = people.pid", "people.pid = visits.pid"} & set(joins[7:].split(", "))  # a key column of one name
        assert "city" not in joins and "name" not in joins
        schema = database_schema(tables.values())  # the operations follow the same joins, no second catalog read
        assert Join("sales", "buyer", "people", "pid") in schema.joins
    finally:
        broker.close()


def test_a_long_joins_line_is_cut_and_counted(tmp_path, monkeypatch):
    from dsagent.data import table_profile

    monkeypatch.setattr(table_profile, "MAX_JOINS", 1)
    broker, tables = described(make(tmp_path / "many.sqlite", declared=True, kind="sqlite"))
    try:
        joins = next(line for line in summarize_for_prompt(tables, "q", load_settings()).splitlines() if line.startswith("Joins: "))
        assert joins.count(" = ") == 1 and joins.endswith("(and 2 more)")
    finally:
        broker.close()


def test_without_the_declared_key_only_names_join(tmp_path):
    broker, tables = described(make(tmp_path / "plain.sqlite", declared=False, kind="sqlite"))
    try:
        text = summarize_for_prompt(tables, "total amount per person", load_settings())
        joins = next(line for line in text.splitlines() if line.startswith("Joins: "))
        assert "buyer" not in joins and "visits.store_id = stores.id" in joins
    finally:
        broker.close()


def test_one_table_has_no_joins_line(tmp_path):
    path = tmp_path / "one.sqlite"
    con = sqlite3.connect(path)
    con.executescript("CREATE TABLE t (id INTEGER PRIMARY KEY, x REAL); INSERT INTO t VALUES (1, 2.0);")
    con.close()
    broker, tables = described(path)
    try:
        assert "Joins: " not in summarize_for_prompt(tables, "mean x", load_settings())
    finally:
        broker.close()
