"""Read-only connections to the databases a broker serves: SQLAlchemy URLs (SQLite files among
them) and DuckDB files. Each engine runs a query already checked by guard.py and returns a pandas
DataFrame of at most ``max_rows`` rows, and says whether there were more."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dsagent.sources.guard import sqlglot_dialect
from dsagent.sources.url import SourceSpec


def _frame(columns: list[str], rows: list[Any], max_rows: int) -> tuple[Any, bool]:
    import pandas as pd

    truncated = len(rows) > max_rows
    return pd.DataFrame.from_records(rows[:max_rows], columns=columns), truncated


class SqlAlchemySource:
    """Any SQLAlchemy URL; SQLite opened with ``mode=ro``, PostgreSQL in read-only transactions."""

    def __init__(self, spec: SourceSpec, timeout_s: float = 180.0) -> None:
        from sqlalchemy import create_engine

        self.spec = spec
        self.label = spec.display
        backend = spec.backend if spec.kind != "sqlite" else "sqlite"
        self.backend = backend
        dialect = sqlglot_dialect(backend)
        if dialect is None:
            from dsagent.errors import UserError

            raise UserError(f"{spec.display}: dsagent cannot translate SQL for the {backend} dialect")
        self.dialect = dialect
        if spec.kind == "sqlite":
            import sqlite3

            uri = f"file:{spec.path}?mode=ro"
            self.engine = create_engine("sqlite://", creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False))
        elif backend == "postgresql":
            options = f"-c default_transaction_read_only=on -c statement_timeout={int(timeout_s * 1000)}"
            self.engine = create_engine(spec.url, connect_args={"options": options}, pool_pre_ping=True,
                                        execution_options={"postgresql_readonly": True})
        else:
            self.engine = create_engine(spec.url, pool_pre_ping=True)
        try:
            with self.engine.connect():
                pass
        except Exception as exc:  # noqa: BLE001 - a wrong host, role or password is the user's to fix
            from dsagent.errors import UserError

            message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            for secret in spec.secrets:
                message = message.replace(secret, "***")
            raise UserError(f"{spec.display}: cannot connect ({message}). Check the URL, the role and the password "
                            "(from the URL or PGPASSWORD).") from None

    def run(self, sql: str, max_rows: int) -> tuple[Any, bool]:
        with self.engine.connect() as conn:
            if self.backend == "postgresql":  # the transaction itself refuses writes too
                conn.exec_driver_sql("SET TRANSACTION READ ONLY")
            raw = conn.connection.dbapi_connection  # the driver's own cursor: no bind-parameter parsing of ':' or '%'
            # PostgreSQL: a server-side cursor, so `select *` of a big table sends max_rows + 1 rows, not all of them.
            cursor = raw.cursor(name="dsagent_sql") if self.backend == "postgresql" else raw.cursor()
            try:
                cursor.execute(sql)
                columns = [d[0] for d in cursor.description or []]
                rows = cursor.fetchmany(max_rows + 1)
            finally:
                cursor.close()
                conn.rollback()
        return _frame(columns, rows, max_rows)

    def tables(self) -> list[str]:
        from sqlalchemy import inspect

        inspector = inspect(self.engine)
        return sorted(set(inspector.get_table_names()) | set(inspector.get_view_names()))

    def columns(self, table: str) -> list[tuple[str, str]]:
        from sqlalchemy import inspect

        return [(c["name"], str(c["type"])) for c in inspect(self.engine).get_columns(table)]

    def close(self) -> None:
        self.engine.dispose()


class DuckDBFile:
    """A DuckDB database file opened ``read_only`` and without external access (no files, no network)."""

    dialect = "duckdb"

    def __init__(self, path: Path | None) -> None:
        import duckdb

        self.label = Path(str(path)).name
        self.conn = duckdb.connect(str(path), read_only=True, config={"enable_external_access": False})

    def run(self, sql: str, max_rows: int) -> tuple[Any, bool]:
        cursor = self.conn.cursor()  # one per query: the broker may be called from another thread
        try:
            result = cursor.execute(sql)
            columns = [d[0] for d in result.description or []]
            rows = result.fetchmany(max_rows + 1)
        finally:
            cursor.close()
        return _frame(columns, rows, max_rows)

    def tables(self) -> list[str]:
        rows = self.conn.cursor().execute(
            "select table_name from information_schema.tables where table_schema = current_schema() order by 1").fetchall()
        return [r[0] for r in rows]

    def columns(self, table: str) -> list[tuple[str, str]]:
        rows = self.conn.cursor().execute(
            "select column_name, data_type from information_schema.columns where table_schema = current_schema() "
            "and table_name = ? order by ordinal_position", [table]).fetchall()
        return [(r[0], r[1]) for r in rows]

    def close(self) -> None:
        self.conn.close()
