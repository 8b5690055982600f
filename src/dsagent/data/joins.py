"""How the tables of a database join: the catalog's foreign keys, then key columns found by name.

A question over a database often needs two or more tables. The joins between them are found by code
from what the tables were described with (``sources.tables.TableInfo``: columns, statistics, the
catalog's keys): declared foreign keys first, then columns of one key-like name of which one side
is a key of its table (its distinct count is its row count: ``orders.customer_id`` →
``customers.customer_id``), then ``<table>_id`` → that table's ``id``. The profile shows them to the
model (:func:`dsagent.data.table_profile.joins_text`) and the operations follow them
(:mod:`dsagent.ops.dbschema`), so both read the same joins.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

_KEY_NAME = re.compile(r"(id|_key|_code|_no|_number)$", re.I)
"""A column named as a key: two tables join on a column of one such name (never on ``name``, ``city``)."""


@dataclass(frozen=True)
class Join:
    """``left.left_column = right.right_column``: one edge of the join graph."""

    left: str
    left_column: str
    right: str
    right_column: str


def qualified(table: str, column: str) -> str:
    return f"{table}.{column}"


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
