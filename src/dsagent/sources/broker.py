"""The SQL broker: runs the sandbox's ``sql()`` against a database source, in the parent process.

The worker has no network and no credentials; it sends ``{"type": "sql", "query": …}`` over its
reply pipe, and the sandbox manager hands the message to :meth:`Broker.answer`, which checks the
query (guard.py), translates it to the database's dialect, runs it on a read-only connection and
answers with at most ``max_rows`` rows taking at most the engine's byte budget in this process
(fetch.py; the reply says when and why it cut them). Every error the model can fix comes back as
text with the URL's password removed.
"""

from __future__ import annotations

import re
import time
from typing import Any

from dsagent.sources.fetch import TooLarge, encode
from dsagent.sources.guard import RefusedQuery, translate
from dsagent.sources.url import SourceSpec


class Broker:
    """One database (or Spark) source behind the sandbox's ``sql()``."""

    def __init__(self, engine: Any, max_rows: int, secrets: tuple[str, ...] = ()) -> None:
        self.engine = engine
        self.max_rows = max_rows
        self.secrets = tuple(s for s in secrets if s)
        self.queries = 0
        self._columns: dict[str, list[str]] | None = None  # table -> columns, read once for error hints
        self.table_names: dict[str, str] = {}
        """Names the sandbox binds to a hint that says "use sql()" (dataset id or table name -> table)."""

    @property
    def dialect(self) -> str:
        return self.engine.dialect

    @property
    def label(self) -> str:
        return self.engine.label

    def scrub(self, text: str) -> str:
        """``text`` with every secret (the URL's password) replaced."""
        for secret in self.secrets:
            text = text.replace(secret, "***")
        return text

    def answer(self, message: dict[str, Any]) -> dict[str, Any]:
        """The reply to one ``sql`` message of the worker: rows, or an error the model can read."""
        query = message.get("query")
        started = time.perf_counter()
        self.queries += 1
        try:
            text = translate(query, self.dialect)
            fetched = self.engine.fetch(text, self.max_rows)
        except (RefusedQuery, TooLarge) as exc:
            return {"type": "sql_result", "error": f"refused: {exc}"}
        except Exception as exc:  # noqa: BLE001 - the database's error is the model's to fix
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            return {"type": "sql_result", "error": self.scrub(f"{type(exc).__name__}: {first}"[:2000] + self.where_column(first))}
        reply = encode(fetched)
        fetched.rows = []  # the rows are in the reply now: one copy, not two
        reply.update(type="sql_result", error=None, truncated=fetched.cut is not None, truncated_by=fetched.cut,
                     max_rows=self.max_rows, max_mb=round(self.engine.max_bytes / 2**20, 3), dialect=self.dialect,
                     sql=text if text != query else None, seconds=round(time.perf_counter() - started, 3))
        return reply

    def where_column(self, error: str) -> str:
        """For an error that names a column no table of the query has (SQLite's "no such column",
        DuckDB's "Referenced column … not found" or "… does not have a column named …",
        PostgreSQL's "column … does not exist", MySQL's "Unknown column"), the tables that do have
        it: a small model looks for a column in the table it already reads, and the fix is a join.
        Empty for another error, or when the catalog cannot be read."""
        found = _MISSING_COLUMN.search(error)
        if not found:
            return ""
        name = next(g for g in found.groups() if g).split(".")[-1].strip('"`')
        try:
            if self._columns is None:
                self._columns = {t: [c for c, _ in self.engine.columns(t)] for t in self.engine.tables()}
        except Exception:  # noqa: BLE001 - a hint, never a second error
            return ""
        holders = [t for t, columns in self._columns.items() if name.lower() in (c.lower() for c in columns)]
        if holders:
            return (f" — `{name}` is a column of {', '.join(holders)}: join that table "
                    "(ON the key columns the profile's Joins line names) and qualify the column with it.")
        return (f" — no table has a column `{name}`: use a column the profile lists; "
                f"a text value goes in single quotes ('{name}').")

    def close(self) -> None:
        self.engine.close()


_MISSING_COLUMN = re.compile(r"no such column: ([\w.\"`]+)|Referenced column \"?([\w.]+)\"? not found|"
                             r"column \"?([\w.]+)\"? does not exist|Unknown column '([\w.]+)'|"
                             r"does not have a column named \"?([\w.]+)", re.I)


def open_broker(spec: SourceSpec, settings: Any, files: dict[str, Any] | None = None) -> Broker:
    """The broker for a database source (or for Spark, with the session's files as views)."""
    from dsagent.sources import engines

    max_rows = settings.sql_max_rows
    max_bytes = int(getattr(settings, "sql_max_mb", engines.DEFAULT_MAX_BYTES / 2**20) * 2**20)
    if spec.kind == "spark":
        from dsagent.sources.spark import SparkEngine

        engine: Any = SparkEngine(spec.url, files or {}, max_bytes=max_bytes)
    elif spec.kind == "duckdb":
        engine = engines.DuckDBFile(spec.path, max_bytes=max_bytes)
    else:
        engine = engines.SqlAlchemySource(spec, timeout_s=settings.sandbox_wall_s, max_bytes=max_bytes)
    return Broker(engine, max_rows, secrets=spec.secrets)
