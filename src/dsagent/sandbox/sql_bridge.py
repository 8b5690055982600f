"""``sql(query) -> DataFrame`` for a database source: both ends of the bridge.

The worker has no network and holds no credential. Its ``sql()`` sends ``{"type": "sql", "query": …}``
on the reply pipe and waits on the command pipe; the parent (manager.py, during a cell) hands the
message to the broker (dsagent.sources.broker), which checks and runs the query read-only, and
writes the answer back with :func:`serve` under the cell's wall-clock deadline, so code that asks
and never reads cannot block the parent.
"""

from __future__ import annotations

import os
import time
from typing import Any, Callable

from dsagent.sandbox import protocol


class SQLError(Exception):
    """The database (or the read-only guard) refused the query; the message says why."""


# --- worker side ------------------------------------------------------------------------------


def decode(reply: dict[str, Any]) -> Any:
    """The broker's rows as a DataFrame, with the database's column types where pandas has them."""
    import pandas as pd

    frame = pd.DataFrame(reply.get("rows") or [], columns=reply.get("columns") or [])
    for name, dtype in zip(list(frame.columns), reply.get("dtypes") or []):
        try:
            if dtype.startswith("datetime64"):
                frame[name] = pd.to_datetime(frame[name])
            elif dtype in ("int64", "int32", "int16", "int8", "float64", "float32", "bool", "Int64", "Float64", "boolean"):
                frame[name] = frame[name].astype(dtype)
        except (TypeError, ValueError):
            pass  # a null in an integer column: keep what pandas made of it
    return frame


class TableHint:
    """Bound to a database table's name (and to ``df`` when it is the only table): any use as a
    DataFrame fails with the fix, since the table is in the database, not in pandas."""

    def __init__(self, table: str) -> None:
        object.__setattr__(self, "_table", table)

    def _fail(self, *args: Any, **kwargs: Any) -> Any:
        table = object.__getattribute__(self, "_table")
        raise SQLError(f"{table} is a table in the database, not a DataFrame: read it with "
                       f"sql(\"SELECT … FROM {table} …\"), which returns a DataFrame; aggregate in SQL "
                       "(GROUP BY, SUM, COUNT, ORDER BY … LIMIT) first")

    def __getattr__(self, name: str) -> Any:
        return self._fail()

    __getitem__ = __len__ = __iter__ = __call__ = _fail

    def __repr__(self) -> str:
        return f"<database table {object.__getattribute__(self, '_table')}: use sql()>"


def bind(namespace: dict[str, Any], command_fd: int, reply_fd: int, tables: dict[str, str]) -> None:
    """``sql`` and a :class:`TableHint` for each name in ``tables`` (name -> the table's SQL name)
    not already bound (a file dataset's ``df`` stays)."""
    namespace["sql"] = make_sql(command_fd, reply_fd)
    for name, table in tables.items():
        if name.isidentifier() and name not in namespace:
            namespace[name] = TableHint(table)


def make_sql(command_fd: int, reply_fd: int) -> Callable[[str], Any]:
    """The ``sql`` function bound in the worker's namespace."""

    def sql(query: str) -> Any:
        """Run one read-only SELECT (DuckDB SQL) in the database; the result as a pandas DataFrame."""
        protocol.send(reply_fd, {"type": "sql", "query": query})
        reply = protocol.recv(command_fd)
        if reply is None:
            raise SQLError("the connection to dsagent was lost")
        if reply.get("error"):
            raise SQLError(reply["error"])
        frame = decode(reply)
        if reply.get("truncated_by") == "bytes":
            print(f"[dsagent: sql() returned only the first {len(frame):,} rows: the result is over the "
                  f"{reply.get('max_mb')} MB dsagent holds for one sql() result (setting sql_max_mb); "
                  "aggregate in SQL (GROUP BY, LIMIT) or select fewer columns to get a complete answer]")
        elif reply.get("truncated"):
            print(f"[dsagent: sql() returned only the first {reply.get('max_rows'):,} rows (setting sql_max_rows); "
                  "aggregate in SQL (GROUP BY, LIMIT) to get a complete answer]")
        return frame

    return sql


# --- parent side ------------------------------------------------------------------------------


def answer(broker: Any, message: dict[str, Any]) -> dict[str, Any]:
    """The broker's answer, or an error when the session has no database source."""
    if broker is None:
        return {"type": "sql_result", "error": "sql() has no database here: this session has no database source"}
    return broker.answer(message)


def serve(fd: int, message: dict[str, Any], deadline: float) -> bool:
    """Write ``message`` on the command pipe before ``deadline`` (time.monotonic()); False when
    the worker did not take it in time (or is gone)."""
    import json

    data = json.dumps(message, default=str, ensure_ascii=False).encode()
    message.clear()  # the rows are in ``data`` now: one copy of a large result in this process, not two
    views = [memoryview(protocol._HEADER.pack(len(data))), memoryview(data)]  # no third copy to prepend the header
    os.set_blocking(fd, False)
    try:
        while views:
            view = views[0]
            if not view:
                views.pop(0)
                continue
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            try:
                if not protocol.ready(fd, remaining, write=True):
                    continue
                views[0] = view[os.write(fd, view):]
            except BlockingIOError:
                continue
            except OSError:
                return False
        return True
    finally:
        try:
            os.set_blocking(fd, True)
        except OSError:
            pass
