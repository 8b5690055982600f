"""What a table offers an operation: its columns by kind, and the values of its category columns.

The model chooses an operation's arguments from these (:mod:`dsagent.ops.choice` turns them into
enums), so it can name only columns and category values that exist. Kinds are decided by code from
the values, not from names: a number column, a date column (parsed or parseable), a category (text
with few distinct values, or a small set of integers such as a year), free text, or an identifier
(text or integers unique on almost every row).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

MAX_CATEGORY_VALUES = 40
"""A text column with at most this many distinct values is a category, its values enumerated."""
MAX_CODE_VALUES = 25
"""An integer column with at most this many distinct values is also a category (a year, a rating)."""


@dataclass(frozen=True)
class Column:
    name: str
    kind: str  # "number" | "date" | "category" | "text" | "id"
    values: tuple[str, ...] = ()
    """The distinct values of a category column, most frequent first (as text)."""
    numeric: bool = False
    """Stored as numbers (a number, or a category of integers such as a year)."""


@dataclass(frozen=True)
class TableSchema:
    rows: int
    columns: tuple[Column, ...] = field(default_factory=tuple)

    def names(self, *kinds: str) -> list[str]:
        return [c.name for c in self.columns if not kinds or c.kind in kinds]

    def column(self, name: str) -> Column | None:
        return next((c for c in self.columns if c.name == name), None)

    def numeric(self) -> list[str]:
        return [c.name for c in self.columns if c.numeric]

    def values(self) -> list[str]:
        """Every category value of every column (deduplicated, in column order)."""
        seen: dict[str, None] = {}
        for c in self.columns:
            for v in c.values:
                seen.setdefault(v, None)
        return list(seen)


def _as_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _looks_like_dates(series: Any) -> bool:
    import pandas as pd

    sample = series.dropna().astype(str).head(50)
    if sample.empty or not sample.str.contains(r"\d", regex=True).all():
        return False
    if sample.str.fullmatch(r"-?\d+(\.\d+)?").all():  # plain numbers are not dates
        return False
    parsed = pd.to_datetime(sample, errors="coerce", format="mixed")
    return bool(parsed.notna().mean() >= 0.9)


def column_of(name: str, series: Any) -> Column:
    """One column's kind (and category values) from its values."""
    import pandas as pd

    values = series.dropna()
    distinct = int(values.nunique()) if len(values) else 0
    if pd.api.types.is_bool_dtype(series):
        return Column(name, "category", tuple(_as_text(v) for v in values.value_counts().index), numeric=False)
    if pd.api.types.is_datetime64_any_dtype(series):
        return Column(name, "date")
    if pd.api.types.is_numeric_dtype(series):
        integer = bool(len(values)) and bool((values == values.round()).all())
        if integer and 0 < distinct <= MAX_CODE_VALUES and len(values) > 2 * distinct:
            ordered = sorted(values.unique())
            return Column(name, "category", tuple(_as_text(v) for v in ordered), numeric=True)
        if integer and distinct >= 0.98 * len(values) > 50 and values.is_monotonic_increasing:
            return Column(name, "id", numeric=True)
        return Column(name, "number", numeric=True)
    if _looks_like_dates(series):
        return Column(name, "date")
    if 0 < distinct <= MAX_CATEGORY_VALUES and distinct < max(2, len(values)) * 0.5 + 1:
        return Column(name, "category", tuple(_as_text(v) for v in values.value_counts().index))
    if distinct >= 0.98 * len(values):
        return Column(name, "id")
    return Column(name, "text")


def table_schema(frame: Any) -> TableSchema:
    """The schema an operation is chosen against."""
    return TableSchema(rows=len(frame), columns=tuple(column_of(str(c), frame[c]) for c in frame.columns))
