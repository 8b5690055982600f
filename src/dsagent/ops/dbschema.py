"""What a database offers an operation: every table's columns by kind, and the joins between tables.

Over a database a question often needs two or more tables ("revenue per genre" reads an invoice
line's price and quantity and a track's genre). The model names columns as ``table.column``, from
enums of every table's columns, and never writes a join: the compiler (:mod:`.sqlcompile`) follows
the join path between the tables it names. The joins are those :mod:`dsagent.data.joins` finds
(declared foreign keys, then key columns by name), which the profile shows the model too. Kinds
come from the database type and the profile's statistics (no table is read whole); a category's values come from one small ``GROUP BY`` query each, unless
``data_sharing = "schema"`` (then no value is read or shown).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from dsagent.data.joins import Constraints, Join, qualified, table_joins
from dsagent.ops.schema import MAX_CATEGORY_VALUES, MAX_CODE_VALUES, Column, TableSchema, _as_text, _looks_like_dates

_NUMBER = re.compile(r"int|real|float|double|numeric|decimal|number|money|serial", re.I)
_INTEGER = re.compile(r"int|serial", re.I)
_DATE = re.compile(r"date|time", re.I)

Values = Callable[[str, str], list[str]]
"""(table, column) → the column's distinct values, most frequent first."""


@dataclass(frozen=True)
class DatabaseSchema(TableSchema):
    """A :class:`TableSchema` whose columns are named ``table.column``, with the joins between tables."""

    joins: tuple[Join, ...] = field(default_factory=tuple)
    table_rows: dict[str, int] = field(default_factory=dict)
    keys: frozenset[str] = frozenset()
    """``table.column`` of every column that is a key of its table (distinct on every row)."""


def split(name: str) -> tuple[str, str]:
    table, _, column = name.partition(".")
    return table, column


def column_kind(name: str, dtype: str, stats: dict[str, Any], rows: int, sample: Any, values: Callable[[], list[str]]) -> Column:
    """One database column's kind (as :func:`dsagent.ops.schema.column_of` decides it for a frame),
    from its type and statistics; ``values()`` reads a category's values only when one is needed."""
    distinct = int(stats.get("distinct") or 0)
    short = name.rsplit(".", 1)[-1].lower()
    keyish = short == "id" or short.endswith("_id")
    if _NUMBER.search(dtype):
        integer = bool(_INTEGER.search(dtype))
        if integer and (keyish or (rows > 50 and distinct >= 0.98 * rows)):
            return Column(name, "id", numeric=True)
        if integer and 0 < distinct <= MAX_CODE_VALUES and rows > 2 * distinct:
            return Column(name, "category", tuple(sorted(values(), key=_numeric_key)), numeric=True)
        return Column(name, "number", numeric=True)
    if _DATE.search(dtype) or (sample is not None and len(sample.dropna()) and _looks_like_dates(sample)):
        return Column(name, "date")
    if keyish or (rows and distinct >= 0.98 * rows):
        return Column(name, "id")
    if 0 < distinct <= MAX_CATEGORY_VALUES and distinct < max(2, rows) * 0.5 + 1:
        return Column(name, "category", tuple(values()))
    return Column(name, "text")


def _numeric_key(value: str) -> float:
    try:
        return float(value)
    except ValueError:
        return float("inf")


def database_schema(datasets: Iterable[Any], values: Values | None = None, constraints: Constraints | None = None) -> DatabaseSchema:
    """The schema over every database table among ``datasets`` (those with ``.table``). ``values``
    reads a category's values (None: none are read, as under ``data_sharing = "schema"``);
    ``constraints``: the catalog's keys (default: those the tables were described with,
    ``TableInfo.foreign_keys`` / ``keys``), declared joins and keys first."""
    tables = {ds.table.name: ds for ds in datasets if getattr(ds, "table", None) is not None}
    columns: list[Column] = []
    for name, ds in tables.items():
        info = ds.table
        for col, dtype in info.columns:
            sample = ds.frame[col] if col in getattr(ds.frame, "columns", ()) else None
            read = (lambda t=name, c=col: [_as_text(v) for v in values(t, c)]) if values else (lambda: [])
            columns.append(column_kind(qualified(name, col), dtype, info.stats.get(col) or {}, int(info.rows or 0), sample, read))
    rows = {name: int(ds.table.rows or 0) for name, ds in tables.items()}
    joins, keys = table_joins([ds.table for ds in tables.values()], constraints)
    return DatabaseSchema(rows=max(rows.values(), default=0), columns=tuple(columns), joins=joins, table_rows=rows, keys=keys)


def join_path(schema: DatabaseSchema, base: str, needed: Iterable[str]) -> list[Join] | None:
    """The joins that reach every table of ``needed`` from ``base`` (shortest paths, breadth first),
    each oriented from a table already reached; None when one cannot be reached."""
    edges: dict[str, list[tuple[str, Join]]] = {}
    for j in schema.joins:
        edges.setdefault(j.left, []).append((j.right, j))
        edges.setdefault(j.right, []).append((j.left, Join(j.right, j.right_column, j.left, j.left_column)))
    reached, path = {base}, []
    for target in needed:
        if target in reached:
            continue
        previous: dict[str, tuple[str, Join]] = {}
        frontier, seen = [base, *sorted(reached - {base})], set(reached)
        while frontier and target not in previous:
            nxt = []
            for table in frontier:
                for other, j in edges.get(table, []):
                    if other not in seen:
                        seen.add(other)
                        previous[other] = (table, j)
                        nxt.append(other)
            frontier = nxt
        if target not in previous:
            return None
        steps, at = [], target
        while at not in reached:
            at, j = previous[at][0], previous[at][1]
            steps.append(j)
        for j in reversed(steps):
            reached.add(j.right)
            path.append(j)
    return path
