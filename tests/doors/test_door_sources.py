"""Database sources through the MCP and LangGraph doors: a SQLite file under the allowed roots, a
URL only when the setting allowed_sources lists it, the password never in a message."""

from __future__ import annotations

import sqlite3

import pytest

from dsagent.access import allowed_paths
from dsagent.errors import UserError


@pytest.fixture()
def shop_db(tmp_path):
    path = tmp_path / "shop.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE orders (region TEXT, amount REAL)")
        conn.executemany("INSERT INTO orders VALUES (?, ?)", [("North", 10.0), ("South", 32.5), ("North", 7.5)])
    return path


def test_a_url_needs_allowed_sources_and_its_password_is_never_shown(tmp_path):
    url = "postgresql://reader:s3cret@db.example/shop"
    with pytest.raises(UserError, match="allowed_sources") as caught:
        allowed_paths([url], [tmp_path])
    assert "s3cret" not in str(caught.value) and "reader:***@db.example" in str(caught.value)
    assert allowed_paths([url, "env:SHOP_URL"], [tmp_path], [url, "env:SHOP_URL"]) == [url, "env:SHOP_URL"]
    with pytest.raises(UserError, match="allowed_sources"):
        allowed_paths(["env:OTHER"], [tmp_path], ["env:SHOP_URL"])


def test_a_database_file_follows_the_roots(tmp_path, shop_db):
    assert allowed_paths([str(shop_db)], [tmp_path]) == [str(shop_db.resolve())]
    with pytest.raises(UserError, match="outside the allowed folders"):
        allowed_paths([str(shop_db)], [tmp_path / "elsewhere"])


def test_mcp_profile_data_lists_a_databases_tables(tmp_path, shop_db):
    from dsagent.config import load_settings
    from dsagent.doors.mcp_server import Tools

    url = f"sqlite:///{shop_db}"
    settings = load_settings().model_copy(update={"allowed_roots": [tmp_path], "allowed_sources": [url]})
    tools = Tools(settings)
    for given in (str(shop_db), url):
        text = tools.profile_data([given])
        assert "orders" in text and "3 rows" in text and "region" in text, text
