"""Database files are opened so that no character of their name changes the mode or the file
(issue 38, finding 6): each name below opens exactly that file, read-only, and no other file in
its folder is created, written or touched."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from urllib.parse import quote

import pytest

from dsagent.errors import UserError
from dsagent.sources.engines import DuckDBFile, SqlAlchemySource
from dsagent.sources.url import parse_source

NAMES = [
    "sales#2024",
    "a?b",
    "q?mode=rwc",
    "x?mode=rw&cache=shared",
    "pct%41",
    "pct%",
    "x%2Fy",
    "..%2F..%2Frunlog",
    "with space",
    "ünïcødé データ",
    "semi;colon&amp",
]


def _listing(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file and folder under ``folder``: (size, mtime_ns)."""
    out = {}
    for root, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(root) / name
            st = path.lstat()
            out[str(path.relative_to(folder))] = (st.st_size if not path.is_dir() else 0, st.st_mtime_ns)
    return out


def _sqlite(path: Path, marker: str) -> None:
    with sqlite3.connect(path) as con:
        con.execute("CREATE TABLE who (name TEXT)")
        con.execute("INSERT INTO who VALUES (?)", (marker,))
    con.close()


def _duckdb(path: Path, marker: str) -> None:
    import duckdb

    con = duckdb.connect(str(path))
    con.execute("CREATE TABLE who (name VARCHAR)")
    con.execute("INSERT INTO who VALUES (?)", [marker])
    con.close()


def _decoys(folder: Path, make) -> None:
    """The files a misread name would open instead: what comes before '#' or '?', the name with
    %XX decoded, and a folder the decoded '%2F' would walk into."""
    (folder / "x").mkdir()
    make(folder / "x" / "y.db", "decoy x/y")
    make(folder / "pctA.db", "decoy pctA")
    make(folder / "a", "decoy a")


def _as_url(path: Path) -> str:
    """A URL names a file with its special characters escaped (as any URL must); its own mode=rwc is ignored."""
    return f"sqlite:///{quote(str(path))}?mode=rwc"


def _planted(tmp_path: Path, name: str, make, suffix: str) -> tuple[Path, dict]:
    """The database NAME+suffix among its decoys, and the listing of everything before it is opened."""
    folder = tmp_path / "user"
    folder.mkdir()
    _decoys(folder, make)
    path = folder / f"{name}{suffix}"
    make(path, name)
    return path, _listing(tmp_path)


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("given", [str, _as_url], ids=["path", "url"])
def test_a_sqlite_name_opens_that_file_read_only(tmp_path, name, given):
    path, before = _planted(tmp_path, name, _sqlite, ".db")
    engine = SqlAlchemySource(parse_source(given(path)))
    try:
        frame, _ = engine.run("SELECT name FROM who", 10)
        assert frame["name"].tolist() == [name]
        with pytest.raises(Exception, match="(?i)readonly|read-only|read only"):
            engine.run("INSERT INTO who VALUES ('written')", 10)
        with pytest.raises(Exception):
            engine.run("CREATE TABLE planted (x)", 10)
    finally:
        engine.close()
    assert _listing(tmp_path) == before


@pytest.mark.parametrize("name", NAMES)
def test_a_duckdb_name_opens_that_file_read_only(tmp_path, name):
    path, before = _planted(tmp_path, name, _duckdb, ".duckdb")
    if "?" in name:  # DuckDB reads '?' as the start of parameters: refused, never opened as something else
        with pytest.raises(UserError, match="rename"):
            DuckDBFile(parse_source(str(path)).path)
        assert _listing(tmp_path) == before
        return
    engine = DuckDBFile(parse_source(str(path)).path)
    try:
        assert engine.run("SELECT name FROM who", 10)[0]["name"].tolist() == [name]
        with pytest.raises(Exception, match="(?i)read.only"):
            engine.run("INSERT INTO who VALUES ('written')", 10)
    finally:
        engine.close()
    assert _listing(tmp_path) == before


def test_a_file_that_is_not_a_database_is_a_user_error_and_is_not_changed(tmp_path):
    path = tmp_path / "notes#1.db"
    path.write_text("not a database\n")
    before = _listing(tmp_path)
    with pytest.raises(UserError, match="notes#1.db"):
        engine = SqlAlchemySource(parse_source(str(path)))
        engine.tables()
    assert _listing(tmp_path) == before


def test_the_session_opens_a_hash_name_without_creating_its_prefix(tmp_path):
    """The honest case of the report: ``sales#2024.db`` made dsagent create ``sales``."""
    from dsagent.config import load_settings
    from dsagent.sources.attach import open_sources

    path = tmp_path / "sales#2024.db"
    _sqlite(path, "sales 2024")
    before = _listing(tmp_path)
    _, broker, tables = open_sources([str(path)], load_settings())
    try:
        assert "who" in tables
        assert broker.answer({"type": "sql", "query": "select name from who"})["rows"] == [["sales 2024"]]
    finally:
        broker.close()
    assert _listing(tmp_path) == before
    assert not (tmp_path / "sales").exists()
