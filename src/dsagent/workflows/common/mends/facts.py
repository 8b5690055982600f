"""What the mends need to know of the run's data, read once per run: column names, text columns,
year columns, Yes/No columns, dates written as text, rows listed newest first. A fact a new mend needs is added here."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

FEW_VALUES = 300
"""The most distinct values a column may have for :attr:`MendFacts.values` to hold them."""
_YES = {"yes", "y", "true", "t"}
_NO = {"no", "n", "false", "f"}


@dataclass
class MendFacts:
    """What the mends need to know of the data (from the run's datasets, computed once)."""

    text_columns: list[str] = field(default_factory=list)
    year_columns: list[str] = field(default_factory=list)
    """Integer columns that hold years (a name with "year", values between 1800 and 2100)."""
    yes_no: dict[str, str] = field(default_factory=dict)
    """Text columns of exactly two values, yes and no in some spelling: column -> its yes value."""
    single_frame: bool = True
    columns: list[str] = field(default_factory=list)
    """Every column name of every dataset."""
    mixed_frames: bool = False
    """Does some dataset have a column that is neither a number nor a bool (text, dates)?"""
    database: bool = False
    """Is some dataset a database table (read with ``sql()``, not in pandas)?"""
    date_text: list[str] = field(default_factory=list)
    """Text columns whose values are dates or times written out ('1959-01-01', '19-Sep-03 14:00'):
    a CSV gives them as text, so ``.dt`` on them fails until they are parsed."""
    newest_first: str | None = None
    """The date column of the one dataset when its rows run from the latest date to the earliest
    (``data.timeline``): code that reads the rows' order reads it backwards in time."""
    periods: dict[str, int] = field(default_factory=dict)
    """The distinct calendar "year", "quarter", "month", "week", "day" the one dataset's dates cover
    (``data.timeline``; empty for more than one dataset): a count of months above it counted rows."""
    per_year: int | None = None
    """4 or 12 when each row of the one dataset is one quarter or one month (``Timeline.per_year``)."""
    values: dict[str, frozenset] = field(default_factory=dict)
    """Columns of few distinct values (integers or text, at most :data:`FEW_VALUES`) -> those values,
    over every dataset: a filter ``== value`` on a value none holds keeps no row."""
    number_columns: list[str] = field(default_factory=list)
    """Columns of numbers in every dataset that has them (a name that is text anywhere is not one)."""
    rows: int | None = None
    """The row count of the one dataset (None for more than one, or a table not in pandas)."""
    period_labels: dict[str, str] = field(default_factory=dict)
    """Text columns of period labels ('1960q1', '1972m1') -> "quarter" or "month"."""
    ranges: dict[str, tuple[float, float]] = field(default_factory=dict)
    """Number columns of whole tables -> their smallest and largest values, over every dataset (a
    column named in two tables spans both): no mean of a column's values lies outside them."""


def mend_facts(datasets: Mapping[str, Any]) -> MendFacts:
    """:class:`MendFacts` of datasets (id -> Dataset or DataFrame)."""
    facts = MendFacts(single_frame=len(datasets) == 1)
    facts.database = any(getattr(ds, "table", None) is not None for ds in datasets.values())
    if facts.single_frame:
        only = next(iter(datasets.values()), None)
        line = dataset_timeline(only)
        facts.newest_first = line.column if line is not None and line.newest_first else None
        facts.periods = dict(line.periods) if line is not None else {}
        facts.per_year = line.per_year if line is not None else None
        frame = getattr(only, "frame", only)
        whole = getattr(only, "table", None) is None and getattr(only, "big", None) is None
        facts.rows = len(frame) if whole and hasattr(frame, "shape") else None
    for ds in datasets.values():
        line = dataset_timeline(ds)
        if line is not None and line.labels:
            facts.period_labels[line.column] = line.labels
    for ds in datasets.values():
        frame = getattr(ds, "frame", ds)
        for name, dtype in getattr(frame, "dtypes", {}).items():
            facts.columns.append(str(name))
            column, kind = frame[name], str(dtype)
            if getattr(ds, "table", None) is None and getattr(ds, "big", None) is None:  # whole tables only
                _few_values(facts, str(name), column, kind)
            facts.mixed_frames |= not (kind.startswith(("int", "Int", "float", "Float", "uint", "UInt")) or kind in ("bool", "boolean"))
            if kind in ("object", "category") or kind.startswith("str"):
                facts.text_columns.append(str(name))
                if _dates_written(column):
                    facts.date_text.append(str(name))
                present = column.dropna().unique()[:3]
                values = {v for v in present if isinstance(v, str)}  # True/False among NaN are bools: no text to compare
                if len(values) == 2 == len(present):
                    low = {v.strip().lower(): v for v in values}
                    yes = next((low[v] for v in low if v in _YES), None)
                    if yes is not None and any(v in _NO for v in low):
                        facts.yes_no[str(name)] = yes
            elif kind.startswith(("int", "Int")) and "year" in str(name).lower() and len(column):
                if 1800 <= column.min() and column.max() <= 2100:
                    facts.year_columns.append(str(name))
            if kind.startswith(("int", "Int", "float", "Float", "uint", "UInt")):
                facts.number_columns.append(str(name))
                if getattr(ds, "table", None) is None and getattr(ds, "big", None) is None:
                    _spanned(facts, str(name), column)
    facts.number_columns = [name for name in dict.fromkeys(facts.number_columns) if name not in facts.text_columns]
    return facts


_DATE_LIKE = re.compile(r"\d{1,4}[-/.](\d{1,2}|[A-Za-z]{3,9})[-/.]\d{1,4}([ T]\d{1,2}:\d{2}(:\d{2})?)?")


def _dates_written(column: Any) -> bool:
    """Whether a text column's first 20 distinct values are all dates written out (a day, a month
    and a year, by digits or a month's name, a time of day after it allowed) that pandas reads."""
    import pandas as pd

    values = [str(v).strip() for v in column.dropna().unique()[:20]]
    if not values or not all(_DATE_LIKE.fullmatch(v) for v in values):
        return False
    return bool(pd.to_datetime(pd.Series(values), errors="coerce", format="mixed").notna().all())


def _few_values(facts: MendFacts, name: str, column: Any, kind: str) -> None:
    """Adds a column's values to ``facts.values`` when they are integers or text and few."""
    if getattr(column, "ndim", 1) != 1 or not (kind.startswith(("int", "Int", "uint")) or kind in ("object", "category")
                                                 or kind.startswith("str")):
        return
    try:
        distinct = column.dropna().unique()
    except TypeError:  # unhashable cells (lists)
        return
    if len(distinct) <= FEW_VALUES:
        facts.values[name] = facts.values.get(name, frozenset()) | frozenset(v.item() if hasattr(v, "item") else v for v in distinct)


def _spanned(facts: MendFacts, name: str, column: Any) -> None:
    """Widens ``facts.ranges[name]`` to hold the column's smallest and largest values (numbers only:
    not bools, intervals, or a name two columns share)."""
    import pandas as pd

    if getattr(column, "ndim", 1) != 1 or not pd.api.types.is_numeric_dtype(column.dtype) or pd.api.types.is_bool_dtype(column.dtype):
        return
    try:
        low, high = float(column.min()), float(column.max())
    except (TypeError, ValueError):
        return
    if low != low or high != high:  # no values
        return
    seen = facts.ranges.get(name)
    facts.ranges[name] = (min(low, seen[0]), max(high, seen[1])) if seen else (low, high)


def dataset_timeline(ds: Any) -> Any:
    """A dataset's timeline (read once on a Dataset), or a DataFrame's."""
    if ds is None or hasattr(ds, "timeline"):
        return getattr(ds, "timeline", None)
    from dsagent.data.timeline import timeline

    return timeline(ds)


def run_facts(ctx: Any) -> MendFacts:
    """:func:`mend_facts` of a run context's datasets, computed once per run context."""
    cached = getattr(ctx, "_mend_facts", None)
    if cached is None:
        cached = mend_facts(getattr(ctx, "datasets", None) or {})
        ctx._mend_facts = cached
    return cached
