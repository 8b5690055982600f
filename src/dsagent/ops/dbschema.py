"""What a database offers an operation: every table's columns by kind, and the joins between tables.

Over a database a question often needs two or more tables ("revenue per genre" reads an invoice
line's price and quantity and a track's genre). The model names columns as ``table.column``, from
enums of every table's columns, and never writes a join: the compiler (:mod:`.sqlcompile`) follows
the join path between the tables it names. Joins are found by code from the catalog: declared
foreign keys, and columns of the same name of which one side is a key (its distinct count is its
table's row count: ``orders.customer_id`` → ``customers.customer_id``), or ``<table>_id`` → that
table's ``id``. Kinds come from the database type and the profile's statistics (no table is read
whole); a category's values come from one small ``GROUP BY`` query each, unless
``data_sharing = "schema"`` (then no value is read or shown).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from dsagent.ops.schema import MAX_CATEGORY_VALUES, MAX_CODE_VALUES, Column, TableSchema, _as_text, _looks_like_dates

_NUMBER = re.compile(r"int|real|float|double|numeric|decimal|number|money|serial", re.I)
_INTEGER = re.compile(r"int|serial", re.I)
_DATE = re.compile(r"date|time", re.I)
_KEY_NAME = re.compile(r"(id|_key|_code|_no|_number)$", re.I)
"""A column named as a key: two tables join on a column of one such name (never on ``name``, ``city``)."""

Values = Callable[[str, str], list[str]]
"""(table, column) → the column's distinct values, most frequent first."""


@dataclass(frozen=True)
class Join:
    """``left.left_column = right.right_column``: one edge of the join graph."""

    left: str
    left_column: str
    right: str
    right_column: str


@dataclass(frozen=True)
class DatabaseSchema(TableSchema):
    """A :class:`TableSchema` whose columns are named ``table.column``, with the joins between tables."""

    joins: tuple[Join, ...] = field(default_factory=tuple)
    table_rows: dict[str, int] = field(default_factory=dict)
    keys: frozenset[str] = frozenset()
    """``table.column`` of every column that is a key of its table (distinct on every row)."""


def qualified(table: str, column: str) -> str:
    return f"{table}.{column}"


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


def _is_key(info: Any, column: str) -> bool:
    """A column distinct on every row of its table (the profile's distinct count is its row count)."""
    stats = info.stats.get(column) or {}
    return bool(info.rows) and int(stats.get("distinct") or 0) >= info.rows


def joins_of(tables: dict[str, Any], declared: Iterable[Join] = (), unique: frozenset[str] = frozenset()) -> tuple[Join, ...]:
    """Declared foreign keys, then key-named columns of one name whose one side is a key of its table, then
    ``<table>_id`` (or ``<singular>_id``) → that table's ``id``."""
    found: list[Join] = list(declared)
    seen = {frozenset({(j.left, j.left_column), (j.right, j.right_column)}) for j in found}

    def add(a: str, ca: str, b: str, cb: str) -> None:
        key = frozenset({(a, ca), (b, cb)})
        if key not in seen and a != b:
            seen.add(key)
            found.append(Join(a, ca, b, cb))

    def is_key(table: str, column: str) -> bool:
        return qualified(table, column) in unique or _is_key(tables[table], column)

    names = sorted(tables)
    for i, a in enumerate(names):
        cols_a = [c for c, _ in tables[a].columns]
        for b in names[i + 1:]:
            cols_b = {c for c, _ in tables[b].columns}
            for col in cols_a:
                if col in cols_b and _KEY_NAME.search(col) and col.lower() != "id" and (is_key(a, col) or is_key(b, col)):
                    add(a, col, b, col) if is_key(b, col) else add(b, col, a, col)
    for a in names:
        for col, _ in tables[a].columns:
            stem = col.lower()[:-3] if col.lower().endswith("_id") else None
            for b in names:
                if stem and b != a and b.lower() in {stem, stem + "s", stem + "es"} and "id" in {c.lower() for c, _ in tables[b].columns}:
                    add(a, col, b, next(c for c, _ in tables[b].columns if c.lower() == "id"))
    return tuple(found)


Constraints = tuple[list[tuple[str, str, str, str]], set[tuple[str, str]]]
"""The catalog's foreign keys (table, column, referenced table, column) and key columns (table, column)."""


def database_schema(datasets: Iterable[Any], values: Values | None = None, constraints: Constraints | None = None) -> DatabaseSchema:
    """The schema over every database table among ``datasets`` (those with ``.table``). ``values``
    reads a category's values (None: none are read, as under ``data_sharing = "schema"``);
    ``constraints``: the catalog's (``engine.constraints()``), declared joins and keys first."""
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


def table_joins(infos: Iterable[Any], constraints: Constraints | None = None) -> tuple[tuple[Join, ...], frozenset[str]]:
    """The joins between described tables (``sources.tables.TableInfo``) and their key columns
    (``table.column``): the catalog's foreign keys and keys (``constraints``, default those the
    tables were described with), then those found by the columns' names (:func:`joins_of`)."""
    tables = {info.name: info for info in infos}
    foreign, unique = constraints or ([(i.name, c, rt, rc) for i in tables.values() for c, rt, rc in getattr(i, "foreign_keys", ())],
                                      {(i.name, c) for i in tables.values() for c in getattr(i, "keys", ())})
    declared = [Join(t, c, rt, rc) for t, c, rt, rc in foreign if t in tables and rt in tables]
    keys = frozenset({qualified(name, col) for name, info in tables.items() for col, _ in info.columns if _is_key(info, col)}
                     | {qualified(t, c) for t, c in unique} | {qualified(j.right, j.right_column) for j in declared})
    return joins_of(tables, declared, keys), keys


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
