"""The SQL broker: runs the sandbox's ``sql()`` against a database source, in the parent process.

The worker has no network and no credentials; it sends ``{"type": "sql", "query": …}`` over its
reply pipe, and the sandbox manager hands the message to :meth:`Broker.answer`, which checks the
query (guard.py), translates it to the database's dialect, runs it on a read-only connection and
answers with at most ``max_rows`` rows (the reply says when it cut them). Every error the model
can fix comes back as text with the URL's password removed.
"""

from __future__ import annotations

import math
import time
from typing import Any

from dsagent.sources.guard import RefusedQuery, translate
from dsagent.sources.url import SourceSpec


class Broker:
    """One database (or Spark) source behind the sandbox's ``sql()``."""

    def __init__(self, engine: Any, max_rows: int, secrets: tuple[str, ...] = ()) -> None:
        self.engine = engine
        self.max_rows = max_rows
        self.secrets = tuple(s for s in secrets if s)
        self.queries = 0
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
            frame, truncated = self.engine.run(text, self.max_rows)
        except RefusedQuery as exc:
            return {"type": "sql_result", "error": f"refused: {exc}"}
        except Exception as exc:  # noqa: BLE001 - the database's error is the model's to fix
            first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
            return {"type": "sql_result", "error": self.scrub(f"{type(exc).__name__}: {first}"[:2000])}
        reply = encode_frame(frame)
        reply.update(type="sql_result", error=None, truncated=truncated, max_rows=self.max_rows, dialect=self.dialect,
                     sql=text if text != query else None, seconds=round(time.perf_counter() - started, 3))
        return reply

    def close(self) -> None:
        self.engine.close()


def encode_frame(frame: Any) -> dict[str, Any]:
    """A DataFrame as JSON-safe columns, dtypes and rows (decimals as floats, times as ISO text)."""
    import decimal

    columns = [str(c) for c in frame.columns]
    dtypes = []
    data_columns = []
    for i, column in enumerate(frame.columns):
        series = frame.iloc[:, i]
        dtype = str(series.dtype)
        values = series.tolist()
        if dtype == "object" and any(isinstance(v, decimal.Decimal) for v in values):
            values = [None if v is None else float(v) for v in values]
            dtype = "float64"
        if dtype.startswith("datetime64") or dtype.startswith("timedelta"):
            values = [None if v is None or v != v else str(v) for v in values]
        values = [_plain(v) for v in values]
        dtypes.append(dtype)
        data_columns.append(values)
    rows = [list(row) for row in zip(*data_columns)] if data_columns else []
    return {"columns": columns, "dtypes": dtypes, "rows": rows}


def _plain(value: Any) -> Any:
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return None if math.isnan(value) else value
    if hasattr(value, "item"):  # numpy scalars
        try:
            return _plain(value.item())
        except (ValueError, TypeError):
            pass
    if isinstance(value, bytes):
        return value.hex()
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return str(value)


def open_broker(spec: SourceSpec, settings: Any, files: dict[str, Any] | None = None) -> Broker:
    """The broker for a database source (or for Spark, with the session's files as views)."""
    from dsagent.sources import engines

    max_rows = settings.sql_max_rows
    if spec.kind == "spark":
        from dsagent.sources.spark import SparkEngine

        engine: Any = SparkEngine(spec.url, files or {})
    elif spec.kind == "duckdb":
        engine = engines.DuckDBFile(spec.path)
    else:
        engine = engines.SqlAlchemySource(spec, timeout_s=settings.sandbox_wall_s)
    return Broker(engine, max_rows, secrets=spec.secrets)
