"""When a table's rows are: its date column, found and parsed once per table.

The profile's notes, the mends and the sanity checks all need the same facts about a table's time,
and each used to parse the dates itself:
- **which column** holds the rows' dates: a date column, text dates under a date-like name
  ('19-Sep-03'), **period labels** as statistics packages print them ('1960q1', '1972m1'; pandas
  reads the first only with a deprecation warning and fails on the second, "minute must be in
  0..59"), else an integer column of years under a year-like name;
- whether the rows run **newest first** (a first or last row, a change over time read off the rows
  then runs backwards);
- how many **distinct calendar periods** it covers (years, quarters, months, weeks, days): a count
  of months cannot be more than the months the data has (a daily table's rows counted as months).

Work is bounded: only tables up to :data:`MAX_PARSED` rows are parsed from text.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass, field
from typing import Any

TIME_NAME = re.compile(r"year|month|quarter|date|day|week|period|time|hour", re.I)
"""A column name that says it holds dates or times (or years, months, quarters)."""
MONTH_WORDS = (r"jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|"
               r"nov(?:ember)?|dec(?:ember)?")
"""A month's English name, whole or cut short ('January', 'Jan', 'Sept'): a regex alternation to match case-insensitively."""
MAX_ROWS = 1_000_000
"""Above this many rows no timeline is looked for (the profile stays fast)."""
MAX_PARSED = 200_000
"""Text dates are parsed only in tables up to this many rows."""
_LABELS = {
    "quarter": re.compile(r"^(\d{4})\s*-?\s*[qQ]([1-4])$"),
    "month": re.compile(r"^(\d{4})[mM](0?[1-9]|1[0-2])$"),
}
PERIOD_FORMATS = {"month": "%Ym%m"}
"""The ``format=`` with which ``pd.to_datetime`` reads a kind of period label (without it, it fails)."""
PERIOD_PARSE = {
    "quarter": "pd.PeriodIndex({s}, freq='Q') reads them (.year, .quarter; .to_timestamp() gives dates)",
    "month": "pd.to_datetime({s}, format='%Ym%m') reads them as dates (.dt.year, .dt.month)",
}
"""How the profile says to read a column ``{s}`` of period labels (the year and the quarter of
'1960Q1' are not its first and last characters)."""
_YEAR_NAME = re.compile(r"year|yr", re.I)


@dataclass(frozen=True)
class Timeline:
    """A table's date column and what its dates say (see the module)."""

    column: str
    labels: str | None = None
    """"quarter" or "month" when the column's text is period labels ('1960q1', '1972m1'), else None."""
    newest_first: bool = False
    periods: dict[str, int] = field(default_factory=dict)
    """Distinct calendar "year", "quarter", "month", "week", "day" of the column (only "year" for a
    column of years)."""
    per_year: int | None = None
    """4 or 12 when each row is one quarter or one month (no date twice, one per period): a year
    earlier is that many rows back. None otherwise."""


def parse_labels(column: Any, kind: str) -> Any:
    """A column of period labels of ``kind`` ("quarter" or "month") as the dates their periods
    start on (NaT where a value is no such label)."""
    import pandas as pd

    parts = column.astype("string").str.strip().str.extract(_LABELS[kind])
    months = pd.to_numeric(parts[1], errors="coerce")
    if kind == "quarter":
        months = (months - 1) * 3 + 1
    return pd.to_datetime({"year": pd.to_numeric(parts[0], errors="coerce"), "month": months, "day": 1}, errors="coerce")


def _label_kind(column: Any) -> str | None:
    try:
        values = [str(v).strip() for v in column.dropna().unique()[:50]]
    except TypeError:  # unhashable cells (lists): no labels
        return None
    if len(values) < 2:
        return None
    return next((kind for kind, pattern in _LABELS.items() if all(pattern.match(v) for v in values)), None)


def _dates(column: Any, name: str, rows: int) -> tuple[Any, str | None] | None:
    """A column's dates and its label kind, or None when it holds no dates."""
    import pandas as pd

    if column.dtype.kind == "M":
        return column, None
    if not (column.dtype.kind == "O" or str(column.dtype).startswith("str")) or rows > MAX_PARSED:
        return None
    kind = _label_kind(column)
    if kind:
        return parse_labels(column, kind), kind
    if not TIME_NAME.search(name):
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dates = pd.to_datetime(column, errors="coerce", format="mixed")
    return (dates, None) if dates.notna().mean() >= 0.95 else None


def _periods(dates: Any) -> dict[str, int]:
    """The distinct calendar periods the dates cover, read on their own clock (a time zone dropped,
    as ``to_period`` does, without its warning on every load)."""
    dates = dates.dropna()
    if getattr(dates.dt, "tz", None) is not None:
        dates = dates.dt.tz_localize(None)
    return {"year": int(dates.dt.year.nunique()), "quarter": int(dates.dt.to_period("Q").nunique()),
            "month": int(dates.dt.to_period("M").nunique()), "week": int(dates.dt.to_period("W").nunique()),
            "day": int(dates.dt.normalize().nunique())}


def _per_year(dates: Any, periods: dict[str, int]) -> int | None:
    if len(dates) < 8 or dates.duplicated().any():
        return None
    if periods["quarter"] == len(dates) == periods["day"]:
        return 4
    if periods["month"] == len(dates) == periods["day"] and periods["quarter"] < periods["month"]:
        return 12
    return None


def timeline(frame: Any) -> Timeline | None:
    """The :class:`Timeline` of ``frame`` (its first date column; else a column of years), or None
    when it has none. Columns are read by position, so duplicate names cannot confuse it."""
    if frame is None or not hasattr(frame, "columns") or not 0 < len(frame) <= MAX_ROWS:
        return None
    rows = len(frame)
    years = None
    for i in range(frame.shape[1]):
        column, name = frame.iloc[:, i], str(frame.columns[i])
        found = _dates(column, name, rows)
        if found is not None:
            dates, kind = found
            if dates.notna().sum() < 2:
                continue
            kept = dates.dropna()
            newest = len(kept) >= 8 and kept.is_monotonic_decreasing and kept.iloc[0] > kept.iloc[-1]
            periods = _periods(dates)
            return Timeline(name, kind, bool(newest), periods, _per_year(kept, periods))
        if years is None and column.dtype.kind in "iu" and _YEAR_NAME.search(name) and 1800 <= column.min() <= column.max() <= 2100:
            years = Timeline(name, None, False, {"year": int(column.nunique())})
    return years
