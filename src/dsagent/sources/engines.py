"""Read-only connections to the databases a broker serves: SQLAlchemy URLs (SQLite files among
them) and DuckDB files. Each engine runs a query already checked by guard.py and fetches its rows
in batches under the row cap and the byte budget of fetch.py.

A database file is opened so that no character of its name can change the mode or the file:
SQLite gets a URI whose path is percent-escaped (``#``, ``?``, ``%``, spaces and the rest are part of
the name, never a parameter), DuckDB the plain absolute path; after opening, the file the database
reports must be the file that was named, else the source is refused.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import quote

from dsagent.errors import UserError
from dsagent.sources.fetch import Fetched, fetch_bounded
from dsagent.sources.guard import sqlglot_dialect
from dsagent.sources.url import SourceSpec

DEFAULT_MAX_BYTES = 256 * 2**20
DUCKDB_MIN_MEMORY = 64 * 2**20
"""DuckDB's working memory is the byte budget, but never less than this (it cannot plan below it)."""


def sqlite_uri(path: Path) -> str:
    """A read-only SQLite URI naming exactly ``path`` (absolute): every character but letters,
    digits, ``/`` and ``_.-~`` percent-escaped, so that the name cannot add or change a parameter."""
    return "file:" + quote(os.fspath(path), safe="/") + "?mode=ro"


def _first_line(exc: BaseException, secrets: tuple[str, ...] = ()) -> str:
    message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    for secret in secrets:
        message = message.replace(secret, "***")
    return message


def _same_file(reported: str, path: Path, display: str) -> None:
    """Refuse the source unless the database reports ``path`` as the file it opened."""
    try:
        same = bool(reported) and os.path.samefile(reported, path)
    except OSError:
        same = False
    if not same:
        raise UserError(f"{display}: the database opened another file than the one named; rename the file "
                        "(letters, digits, spaces, '-' and '_') and try again")


class BoundedEngine:
    """What profiling reads: a query's rows as a DataFrame, through the engine's bounded ``fetch``."""

    def fetch(self, sql: str, max_rows: int) -> Fetched:
        raise NotImplementedError

    def run(self, sql: str, max_rows: int) -> tuple[Any, bool]:
        """(a DataFrame of at most ``max_rows`` rows, whether the result was cut)."""
        fetched = self.fetch(sql, max_rows)
        return fetched.frame(), fetched.cut is not None


class SqlAlchemySource(BoundedEngine):
    """Any SQLAlchemy URL; SQLite opened read-only by an escaped URI, PostgreSQL in read-only transactions."""

    def __init__(self, spec: SourceSpec, timeout_s: float = 180.0, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        from sqlalchemy import create_engine

        self.spec = spec
        self.label = spec.display
        self.max_bytes = max_bytes
        backend = spec.backend if spec.kind != "sqlite" else "sqlite"
        self.backend = backend
        dialect = sqlglot_dialect(backend)
        if dialect is None:
            raise UserError(f"{spec.display}: dsagent cannot translate SQL for the {backend} dialect")
        self.dialect = dialect
        if spec.kind == "sqlite":
            self.engine = create_engine("sqlite://", creator=self._sqlite_connection)
        elif backend == "postgresql":
            options = f"-c default_transaction_read_only=on -c statement_timeout={int(timeout_s * 1000)}"
            self.engine = create_engine(spec.url, connect_args={"options": options}, pool_pre_ping=True,
                                        execution_options={"postgresql_readonly": True})
        else:
            self.engine = create_engine(spec.url, pool_pre_ping=True)
        try:
            with self.engine.connect():
                pass
        except UserError:
            raise
        except Exception as exc:  # noqa: BLE001 - a wrong host, role, password or file is the user's to fix
            message = _first_line(exc, spec.secrets)
            if spec.kind == "sqlite":
                raise UserError(f"{spec.display}: cannot be opened as a read-only SQLite database ({message}). "
                                "Check that it is a SQLite file and that it can be read.") from None
            raise UserError(f"{spec.display}: cannot connect ({message}). Check the URL, the role and the password "
                            "(from the URL or PGPASSWORD).") from None

    def _sqlite_connection(self) -> Any:
        """A read-only connection to exactly the named file, which no statement can write
        (``query_only``) and in which no text or blob grows past the byte budget."""
        import sqlite3

        path = Path(self.spec.path or "")
        con = sqlite3.connect(sqlite_uri(path), uri=True, check_same_thread=False)
        try:
            con.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, min(self.max_bytes, con.getlimit(sqlite3.SQLITE_LIMIT_LENGTH)))
            con.execute("PRAGMA query_only = ON")
            con.execute("SELECT count(*) FROM sqlite_master").fetchone()  # "file is not a database" here, not later
            main = next((row[2] for row in con.execute("PRAGMA database_list") if row[1] == "main"), "")
            _same_file(main, path, self.spec.display)
        except BaseException:
            con.close()
            raise
        return con

    def fetch(self, sql: str, max_rows: int) -> Fetched:
        """At most ``max_rows`` rows of ``sql`` within the byte budget."""
        with self.engine.connect() as conn:
            if self.backend == "postgresql":  # the transaction itself refuses writes too
                conn.exec_driver_sql("SET TRANSACTION READ ONLY")
            raw = conn.connection.dbapi_connection  # the driver's own cursor: no bind-parameter parsing of ':' or '%'
            # PostgreSQL: a server-side cursor, so the server sends a batch at a time, not the whole result.
            cursor = raw.cursor(name="dsagent_sql") if self.backend == "postgresql" else raw.cursor()
            try:
                cursor.execute(sql)
                columns = [d[0] for d in cursor.description or []]
                return fetch_bounded(cursor.fetchmany, columns, max_rows, self.max_bytes)
            finally:
                cursor.close()
                conn.rollback()

    def tables(self) -> list[str]:
        from sqlalchemy import inspect

        inspector = inspect(self.engine)
        return sorted(set(inspector.get_table_names()) | set(inspector.get_view_names()))

    def columns(self, table: str) -> list[tuple[str, str]]:
        from sqlalchemy import inspect

        return [(c["name"], str(c["type"])) for c in inspect(self.engine).get_columns(table)]

    def constraints(self) -> tuple[list[tuple[str, str, str, str]], set[tuple[str, str]]]:
        """The catalog's single-column foreign keys (table, column, referenced table, column) and
        primary-key columns (table, column): the joins the operations and the profile follow."""
        from sqlalchemy import inspect

        inspector = inspect(self.engine)
        foreign, unique = [], set()
        for table in inspector.get_table_names():
            for fk in inspector.get_foreign_keys(table):
                if len(fk.get("constrained_columns") or []) == 1 and len(fk.get("referred_columns") or []) == 1:
                    foreign.append((table, fk["constrained_columns"][0], fk["referred_table"], fk["referred_columns"][0]))
            pk = inspector.get_pk_constraint(table).get("constrained_columns") or []
            if len(pk) == 1:
                unique.add((table, pk[0]))
        return foreign, unique

    def close(self) -> None:
        self.engine.dispose()


class DuckDBFile(BoundedEngine):
    """A DuckDB database file opened ``read_only``, without external access (no files, no network),
    its working memory held to the byte budget and spilling only to a folder of its own."""

    dialect = "duckdb"

    def __init__(self, path: Path | None, max_bytes: int = DEFAULT_MAX_BYTES) -> None:
        import duckdb

        path = Path(os.fspath(path or ""))
        self.label = path.name
        self.max_bytes = max_bytes
        if "?" in path.name or "?" in str(path.parent):
            # DuckDB reads '?' in a file name as the start of parameters (its write-ahead log gets another name).
            raise UserError(f"{path.name}: DuckDB cannot open a file whose path holds '?' safely; rename it (or its folder)")
        self._spill = tempfile.mkdtemp(prefix="dsagent-duckdb-")
        config = {"enable_external_access": False, "temp_directory": self._spill,
                  "memory_limit": f"{max(max_bytes, DUCKDB_MIN_MEMORY) // 2**20}MB"}
        try:
            self.conn = duckdb.connect(str(path), read_only=True, config=config)
            reported = self.conn.execute(
                "SELECT path FROM duckdb_databases() WHERE database_name = current_database()").fetchone()
            _same_file(reported[0] if reported else "", path, self.label)
        except UserError:
            self.close()
            raise
        except Exception as exc:  # noqa: BLE001 - not a DuckDB file, another version, locked: the user's to fix
            self.close()
            raise UserError(f"{self.label}: cannot be opened as a read-only DuckDB database ({_first_line(exc)})") from None

    def fetch(self, sql: str, max_rows: int) -> Fetched:
        """At most ``max_rows`` rows of ``sql`` within the byte budget (DuckDB streams the result)."""
        cursor = self.conn.cursor()  # one per query: the broker may be called from another thread
        try:
            result = cursor.execute(sql)
            columns = [d[0] for d in result.description or []]
            return fetch_bounded(result.fetchmany, columns, max_rows, self.max_bytes)
        finally:
            cursor.close()

    def tables(self) -> list[str]:
        rows = self.conn.cursor().execute(
            "select table_name from information_schema.tables where table_schema = current_schema() order by 1").fetchall()
        return [r[0] for r in rows]

    def constraints(self) -> tuple[list[tuple[str, str, str, str]], set[tuple[str, str]]]:
        """As :meth:`SqlAlchemySource.constraints`, from ``duckdb_constraints()``."""
        rows = self.conn.cursor().execute(
            "select table_name, constraint_type, constraint_column_names, referenced_table, referenced_column_names "
            "from duckdb_constraints() where schema_name = current_schema()").fetchall()
        foreign = [(t, cols[0], ref, refs[0]) for t, kind, cols, ref, refs in rows
                   if kind == "FOREIGN KEY" and len(cols) == 1 and refs and len(refs) == 1]
        unique = {(t, cols[0]) for t, kind, cols, _, _ in rows if kind in {"PRIMARY KEY", "UNIQUE"} and len(cols) == 1}
        return foreign, unique

    def columns(self, table: str) -> list[tuple[str, str]]:
        rows = self.conn.cursor().execute(
            "select column_name, data_type from information_schema.columns where table_schema = current_schema() "
            "and table_name = ? order by ordinal_position", [table]).fetchall()
        return [(r[0], r[1]) for r in rows]

    def close(self) -> None:
        conn = getattr(self, "conn", None)
        if conn is not None:
            conn.close()
        shutil.rmtree(self._spill, ignore_errors=True)
