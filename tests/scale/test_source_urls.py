"""Which inputs are database sources, and how their passwords are kept out of sight."""

import pytest

from dsagent.errors import UserError
from dsagent.sources.url import is_source, parse_source


@pytest.mark.parametrize("value,expected", [
    ("postgresql://reader@db/shop", True), ("mysql+pymysql://u:p@h/db", True), ("env:WAREHOUSE_URL", True),
    ("shop.sqlite", True), ("shop.db", True), ("warehouse.duckdb", True),
    ("sales.csv", False), ("book.xlsx", False), ("data.parquet", False), ("C:/data/x.csv", False),
])
def test_is_source(value, expected):
    assert is_source(value) is expected


def test_password_is_masked_and_kept_as_a_secret():
    spec = parse_source("postgresql://reader:pa55-word@db.internal:5432/shop")
    assert spec.display == "postgresql+psycopg://reader:***@db.internal:5432/shop"
    assert "pa55-word" in spec.url and spec.secrets == ("pa55-word",)


def test_pgpassword_is_a_secret_too(monkeypatch):
    monkeypatch.setenv("PGPASSWORD", "from-the-env")
    spec = parse_source("postgresql://reader@db/shop")
    assert "from-the-env" in spec.secrets and "from-the-env" not in spec.url


def test_env_url(monkeypatch, tmp_path):
    monkeypatch.setenv("WAREHOUSE_URL", "postgresql://reader:x9y8@db/shop")
    assert parse_source("env:WAREHOUSE_URL").display.endswith("reader:***@db/shop")
    with pytest.raises(UserError, match="MISSING_URL is not set"):
        parse_source("env:MISSING_URL")


def test_sqlite_url_and_files(tmp_path):
    import sqlite3

    path = tmp_path / "a.sqlite"
    sqlite3.connect(path).close()
    assert parse_source(f"sqlite:///{path}").kind == "sqlite"
    with pytest.raises(UserError, match="not found"):
        parse_source(tmp_path / "missing.duckdb")


def test_broker_scrubs_secrets_from_errors():
    from dsagent.sources.broker import Broker

    class Failing:
        dialect = "postgres"
        label = "x"

        def fetch(self, sql, max_rows):
            raise RuntimeError("password authentication failed: pa55-word")

        def close(self):
            pass

    reply = Broker(Failing(), 10, secrets=("pa55-word",)).answer({"query": "select 1"})
    assert "pa55-word" not in reply["error"] and "***" in reply["error"]
