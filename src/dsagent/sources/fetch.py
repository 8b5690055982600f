"""Results of a database source read in batches under a row cap and a byte budget.

The broker runs in dsagent's own process, which the sandbox's memory limit does not cover: what one
``sql()`` brings back must be bounded here too. A result is fetched a batch at a time, the batch
sized from the rows seen so far so that it stays within what is left of the budget, and each value
is measured as it arrives; once the rows would pass ``max_rows`` or their size ``max_bytes`` the
rest is never fetched (the result is cut and says why). A single row over the whole budget is
refused (:class:`TooLarge`). A value's size is what it takes in the reply to the sandbox: the
characters of a text, two per byte of binary data (sent as hex), a few bytes for a number.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

FIRST_BATCH = 16
"""Rows of the first batch, before the size of a row is known."""
MAX_BATCH = 1024


class TooLarge(Exception):
    """One row of the result alone is over the byte budget."""


@dataclass
class Fetched:
    """The rows of one result as fetched (``cut``: None, ``"rows"`` or ``"bytes"``)."""

    columns: list[str]
    rows: list[Sequence[Any]]
    cut: str | None
    nbytes: int

    def frame(self) -> Any:
        """The rows as a pandas DataFrame, values as the driver gave them."""
        import pandas as pd

        return pd.DataFrame.from_records(self.rows, columns=self.columns)


def budget_message(max_bytes: int) -> str:
    return (f"the {max_bytes / 2**20:g} MB dsagent holds for one sql() result (setting sql_max_mb); aggregate in the "
            "database (WHERE, GROUP BY, SUM/COUNT, ORDER BY … LIMIT) or select fewer, shorter columns")


def size(value: Any) -> int:
    """Bytes ``value`` takes in the reply (an estimate that never undercounts text or binary data)."""
    if isinstance(value, str):
        return len(value) + 3
    if isinstance(value, (bytes, bytearray, memoryview)):
        return 2 * len(value) + 3
    if value is None or isinstance(value, (bool, int, float)):
        return 8
    if isinstance(value, (list, tuple)):
        return 2 + sum(size(v) + 1 for v in value)
    if isinstance(value, dict):
        return 2 + sum(size(str(k)) + size(v) + 2 for k, v in value.items())
    return 32  # decimals, dates, times, UUIDs: short text in the reply


def fetch_bounded(fetchmany: Callable[[int], Sequence[Sequence[Any]]], columns: list[str], max_rows: int,
                  max_bytes: int) -> Fetched:
    """At most ``max_rows`` rows of at most ``max_bytes`` in all, asking ``fetchmany`` (a DB-API
    cursor's) for a batch at a time; raises :class:`TooLarge` when the first row alone is over."""
    rows: list[Sequence[Any]] = []
    used = 0
    batch = FIRST_BATCH
    while True:
        want = min(batch, max_rows + 1 - len(rows))
        chunk = fetchmany(want)
        if not chunk:
            return Fetched(columns, rows, None, used)
        for row in chunk:
            if len(rows) == max_rows:
                return Fetched(columns, rows, "rows", used)
            used += 2 + sum(size(v) + 1 for v in row)
            if used > max_bytes:
                if not rows:
                    raise TooLarge(f"one row of the result is over {budget_message(max_bytes)}")
                return Fetched(columns, rows, "bytes", used)
            rows.append(row)
        if len(chunk) < want:
            return Fetched(columns, rows, None, used)
        per_row = max(1, used // len(rows))
        batch = max(1, min(MAX_BATCH, (max_bytes - used) // per_row // 2))


def encode(fetched: Fetched) -> dict[str, Any]:
    """JSON-safe columns, dtypes and rows (decimals as floats, times as ISO text, bytes as hex); the
    dtype of a column is what pandas would make of its values, for the sandbox to restore."""
    kinds: list[set[str]] = [set() for _ in fetched.columns]
    rows = []
    for row in fetched.rows:
        out = []
        for i, value in enumerate(row):
            kinds[i].add(_kind(value))
            out.append(plain(value))
        rows.append(out)
    return {"columns": [str(c) for c in fetched.columns], "dtypes": [_dtype(k) for k in kinds], "rows": rows}


def _kind(value: Any) -> str:
    import datetime
    import decimal

    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, (float, decimal.Decimal)):
        return "float"
    if isinstance(value, datetime.datetime):
        return "datetime"
    return "object"


def _dtype(kinds: set[str]) -> str:
    seen = kinds - {"null"}
    if seen == {"bool"} and "null" not in kinds:
        return "bool"
    if seen == {"int"}:
        return "float64" if "null" in kinds else "int64"
    if seen and seen <= {"int", "float"}:
        return "float64"
    if seen == {"datetime"}:
        return "datetime64[ns]"
    return "object"


def plain(value: Any) -> Any:
    """``value`` as JSON can carry it."""
    import decimal

    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return None if math.isnan(value) else value
    if isinstance(value, decimal.Decimal):
        return None if value.is_nan() else float(value)
    if hasattr(value, "item"):  # numpy scalars
        try:
            return plain(value.item())
        except (ValueError, TypeError):
            pass
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).hex()
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    return str(value)
