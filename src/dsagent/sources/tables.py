"""The tables of a database source as datasets: listed and profiled with SQL run in the database.

Each table costs one statistics query (row count, and per column the non-null and distinct counts,
the minimum and maximum where the type is ordered) and, unless ``data_sharing = "schema"``, one
query for a few sample rows. The profile says that the table is not in pandas and how to query it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from dsagent.data.table_profile import APPROX_DISTINCT, SAMPLE_ROWS, quoted, sql_name
from dsagent.sources.fetch import TooLarge
from dsagent.sources.guard import translate

MAX_TABLES = 30
"""Tables profiled in full; more are listed by name and column count only."""
MAX_COLUMNS = 60
"""Columns a statistics query covers (the rest are listed by name and type)."""
_ORDERED = re.compile(r"int|real|float|double|numeric|decimal|date|time|number|money|serial", re.IGNORECASE)


@dataclass
class TableInfo:
    """One table (or view) of a database source."""

    name: str
    """The name the model writes in SQL."""
    source: str
    """The source it lives in, password masked (``postgresql://reader@db/shop``, ``shop.duckdb``)."""
    dialect: str
    """The database's SQL dialect (sqlglot's name): the model writes DuckDB SQL, translated to this."""
    rows: int | None
    columns: list[tuple[str, str]]
    """(name, database type) of every column."""
    stats: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Per column: ``nonnull``, ``distinct`` and, for ordered types, ``min`` and ``max``."""
    foreign_keys: list[tuple[str, str, str]] = field(default_factory=list)
    """The catalog's single-column foreign keys: (column, referenced table, referenced column)."""
    keys: list[str] = field(default_factory=list)
    """The catalog's single-column keys (primary keys; DuckDB's unique constraints too)."""


def _stats_query(table: str, columns: list[tuple[str, str]], dialect: str) -> str:
    distinct = "APPROX_COUNT_DISTINCT({c})" if dialect in APPROX_DISTINCT else "COUNT(DISTINCT {c})"
    parts = ["COUNT(*) AS n"]
    for i, (name, dtype) in enumerate(columns[:MAX_COLUMNS]):
        c = quoted(name)
        parts += [f"COUNT({c}) AS nn_{i}", f"{distinct.format(c=c)} AS u_{i}"]
        if _ORDERED.search(dtype):
            parts += [f"MIN({c}) AS lo_{i}", f"MAX({c}) AS hi_{i}"]
    return translate(f"SELECT {', '.join(parts)} FROM {quoted(table)}", dialect)


def describe(engine: Any, sharing: str) -> list[tuple[TableInfo, Any]]:
    """Every table of ``engine`` with its statistics, and its first rows (an empty frame for
    ``schema``), the tables past :data:`MAX_TABLES` without statistics. A table the database will
    not read is a :class:`UserError` that names it and says what to do."""
    import pandas as pd

    out = []
    foreign, unique = _constraints(engine)
    for n, table in enumerate(engine.tables()):
        columns = engine.columns(table)
        info = TableInfo(table, engine.label, engine.dialect, None, columns,
                         foreign_keys=[(c, rt, rc) for t, c, rt, rc in foreign if t == table],
                         keys=sorted(c for t, c in unique if t == table))
        sample = pd.DataFrame(columns=[c for c, _ in columns])
        if n < MAX_TABLES:
            frame, _ = _read(engine, table, _stats_query(table, columns, engine.dialect), 1)
            row = frame.iloc[0].to_dict()
            info.rows = int(row["n"])
            for i, (name, dtype) in enumerate(columns[:MAX_COLUMNS]):
                info.stats[name] = {"nonnull": row.get(f"nn_{i}"), "distinct": row.get(f"u_{i}"),
                                    "min": row.get(f"lo_{i}"), "max": row.get(f"hi_{i}")}
            if sharing != "schema":
                try:
                    query = translate(f"SELECT * FROM {quoted(table)} LIMIT {SAMPLE_ROWS}", engine.dialect)
                    sample, _ = _read(engine, table, query, SAMPLE_ROWS)
                except TooLarge:
                    pass  # a row over the byte budget: the profile shows no sample rows
        out.append((info, sample))
    return out


def _constraints(engine: Any) -> tuple[list[tuple[str, str, str, str]], set[tuple[str, str]]]:
    """The catalog's foreign keys and key columns (``engine.constraints()``), read once with the
    tables; none when the engine has no such reading or the catalog refuses it (the joins are then
    found by the columns' names, :mod:`dsagent.data.joins`)."""
    if not hasattr(engine, "constraints"):
        return [], set()
    try:
        return engine.constraints()
    except Exception:  # noqa: BLE001 - the keys only help; a catalog that will not say them loses nothing else
        return [], set()


def _read(engine: Any, table: str, query: str, max_rows: int) -> tuple[Any, bool]:
    """``engine.run``, with the database's refusal to read ``table`` made a :class:`UserError`."""
    from dsagent.errors import UserError

    try:
        return engine.run(query, max_rows)
    except TooLarge:
        raise
    except Exception as exc:  # noqa: BLE001 - the database's error, about this table: the user's to fix
        spec = getattr(engine, "spec", None)
        message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        for secret in getattr(spec, "secrets", ()):
            message = message.replace(secret, "***")
        if not _denied(exc, message):
            raise UserError(f"{engine.label}: table {table} could not be profiled ({message}). Check it in the "
                            "database (or leave it out of the role's grants).") from None
        role = _role(spec)
        raise UserError(f"{engine.label}: {'the role ' + role if role else 'the role'} may not read table {table} "
                        f"({message}). Grant it in the database (GRANT SELECT ON {sql_name(table)} TO {role or '<role>'};), "
                        "or connect as a role that can read every table it sees.") from None


def _denied(exc: BaseException, message: str) -> bool:
    """True when the database refused for lack of a privilege (SQLSTATE 42501, or its message says so)."""
    code = getattr(exc, "sqlstate", None) or getattr(exc, "pgcode", None) or getattr(getattr(exc, "orig", None), "sqlstate", None)
    return code == "42501" or any(w in message.lower() for w in ("permission denied", "insufficient privilege", "access denied"))


def _role(spec: Any) -> str | None:
    if spec is None or getattr(spec, "kind", "") != "sqlalchemy":
        return None
    from sqlalchemy.engine import make_url

    try:
        return make_url(spec.url).username
    except Exception:  # noqa: BLE001 - only a better message is lost
        return None
