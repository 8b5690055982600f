"""Which inputs are database sources, and how to open them without ever showing the password.

A source is any SQLAlchemy URL (``postgresql://user@host/db``, ``sqlite:///shop.db``, ``mysql+pymysql://…``),
a SQLite file (``.sqlite``, ``.sqlite3``, ``.db``), a DuckDB file (``.duckdb``), or ``env:NAME``: the URL
kept in the environment variable NAME (so it is in no shell history or process list). A password comes
from the URL or, for PostgreSQL, from the driver's own environment (``PGPASSWORD``, ``~/.pgpass``); it
is kept out of every message, log line and report (:attr:`SourceSpec.display`, :attr:`SourceSpec.secrets`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dsagent.access import SOURCE_URL as _URL
from dsagent.errors import UserError

SQLITE_SUFFIXES = (".sqlite", ".sqlite3", ".db")
DUCKDB_SUFFIXES = (".duckdb", ".ddb")


@dataclass
class SourceSpec:
    """One database source as given by the user."""

    kind: str
    """``sqlite``, ``duckdb`` (a file), ``sqlalchemy`` (any other URL) or ``spark``."""
    url: str
    """What to connect to; may hold a password: never print it, use :attr:`display`."""
    display: str
    """The source as shown to the model, in logs and in reports: the password masked."""
    path: Path | None = None
    """The database file (SQLite, DuckDB)."""
    secrets: tuple[str, ...] = field(default=())
    """Strings removed from every error message (the password)."""

    @property
    def backend(self) -> str:
        if self.kind in ("sqlite", "duckdb", "spark"):
            return self.kind
        from sqlalchemy.engine import make_url

        return make_url(self.url).get_backend_name()


def is_source(value: Any) -> bool:
    """True for a database URL, ``env:NAME`` or a SQLite/DuckDB file name (not for data files)."""
    if not isinstance(value, (str, os.PathLike)):
        return False
    text = os.fspath(value)
    return text.startswith("env:") or bool(_URL.match(text)) or text.lower().endswith(SQLITE_SUFFIXES + DUCKDB_SUFFIXES)


def parse_source(value: str | os.PathLike) -> SourceSpec:
    """The :class:`SourceSpec` of one input, or :class:`UserError` saying what to fix."""
    text = os.fspath(value)
    if text.startswith("env:"):
        name = text[4:]
        text = os.environ.get(name, "")
        if not text:
            raise UserError(f"env:{name}: the environment variable {name} is not set; set it to a database URL")
    if not _URL.match(text):
        return _file_source(Path(text).expanduser())
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        url = make_url(text)
    except ArgumentError:
        raise UserError("a database URL could not be read: write it as dialect://user@host:port/database "
                        "(the password from PGPASSWORD or the URL)") from None
    backend = url.get_backend_name()
    if backend == "sqlite" and url.database and url.database != ":memory:":
        return _file_source(Path(url.database).expanduser())
    if backend == "duckdb" and url.database:
        return _file_source(Path(url.database).expanduser(), duckdb=True)
    secrets = tuple(s for s in (url.password, os.environ.get("PGPASSWORD") if backend == "postgresql" else None) if s)
    if backend == "postgresql" and url.drivername == "postgresql":
        url = url.set(drivername="postgresql+psycopg")  # psycopg 3 (the `postgres` extra), not psycopg2
    return SourceSpec("sqlalchemy", url.render_as_string(hide_password=False), url.render_as_string(hide_password=True), None, secrets)


def _file_source(path: Path, duckdb: bool = False) -> SourceSpec:
    if not path.is_file():
        raise UserError(f"{path}: database file not found. Check the path and the spelling of the name.")
    if not os.access(path, os.R_OK):
        raise UserError(f"{path.name}: cannot be read. Check its permissions.")
    kind = "duckdb" if duckdb or path.suffix.lower() in DUCKDB_SUFFIXES else "sqlite"
    return SourceSpec(kind, str(path.resolve()), path.name, path.resolve())
