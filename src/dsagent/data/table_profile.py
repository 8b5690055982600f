"""How a database table is described to the model: its profile text and the guide to ``sql()``.

The statistics come from the database (``sources/tables.py`` runs the queries and fills a
``TableInfo``); the words the model reads are written here, beside the profile of a file's table
(``profile.py``), so everything the model is shown of the data is in ``data/``.
"""

from __future__ import annotations

import re
from typing import Any

TABLE_TOKEN_BUDGET = 700
SAMPLE_ROWS = 3
"""Rows of a table shown in its profile (the sample query reads no more)."""
APPROX_DISTINCT = {"duckdb", "spark", "databricks", "snowflake", "bigquery", "trino", "presto", "redshift"}
"""Engines with an approximate distinct count (a sketch, not a sort); the others count exactly."""


def quoted(name: str) -> str:
    """``name`` as a double-quoted DuckDB identifier."""
    from sqlglot import exp

    return exp.to_identifier(name, quoted=True).sql("duckdb")


def sql_name(name: str) -> str:
    """A name as the model should write it: bare when lower-case and simple, else double-quoted."""
    return name if re.fullmatch(r"[a-z_][a-z0-9_]*", name) else quoted(name)


def _column_line(info: Any, name: str, dtype: str, sharing: str) -> str:
    """One column of a table's profile: name, type, missing share, distinct count, and (unless
    ``schema``) its range."""
    from dsagent.data.rendering import column_name as _name, num, pct as _pct, value_text as _value

    s = info.stats.get(name) or {}
    part = f"- {sql_name(name) if len(name) <= 60 else _name(name)} {dtype}"
    nonnull, distinct = s.get("nonnull"), s.get("distinct")
    if info.rows and nonnull is not None and nonnull < info.rows:
        part += f" miss={_pct(info.rows - int(nonnull), info.rows)}"
    if distinct is not None:
        part += f" u={'~' if info.dialect in APPROX_DISTINCT else ''}{int(distinct):,}"
    if sharing != "schema" and s.get("min") is not None:
        low, high = s["min"], s["max"]
        fmt = (lambda v: num(v)) if isinstance(low, (int, float)) and not isinstance(low, bool) else _value
        part += f" min={fmt(low)} max={fmt(high)}"
    return part


def profile_text(info: Any, sample: Any, sharing: str, dataset_id: str) -> str:
    """The prompt's description of one table, within :data:`TABLE_TOKEN_BUDGET` tokens."""
    from dsagent.data.tokens import count_tokens, within_budget

    rows = "? rows" if info.rows is None else f"{info.rows:,} rows"
    head = (f"table {info.name} (database {info.source}, id {dataset_id!r}): {rows} x {len(info.columns)} cols; "
            f"in the database, not in pandas: query it with sql(\"SELECT … FROM {sql_name(info.name)} …\")")
    if sharing == "schema":
        head += " (schema only: values are not shown)"
    parts = [_column_line(info, name, dtype, sharing) for name, dtype in info.columns]
    kept, left, used = within_budget(parts, TABLE_TOKEN_BUDGET, count_tokens(head))
    lines = [head, *kept]
    if left:
        lines.append(f"({left} more columns not shown: over the profile's token budget)")
    if sharing != "schema" and len(sample):
        shown = sample.head(SAMPLE_ROWS).to_string(index=False, max_colwidth=24)
        if used + count_tokens(shown) < TABLE_TOKEN_BUDGET + 200:
            lines.append("first rows:\n" + shown)
    return "\n".join(lines)


MAX_JOINS = 40
"""Joins the profile's line names; more are counted, not listed (a wide catalog's line stays short)."""


def joins_text(infos: list[Any]) -> str:
    """How several tables join, one line for code that writes SQL over them: the catalog's foreign
    keys, then key columns matched by name (``orders.customer_id`` → ``customers.id``), as
    :func:`dsagent.data.joins.table_joins` finds them. Empty when none is found."""
    from dsagent.data.joins import table_joins

    joins, _ = table_joins(infos)
    if not joins:
        return ""
    shown = [f"{sql_name(j.left)}.{sql_name(j.left_column)} = {sql_name(j.right)}.{sql_name(j.right_column)}" for j in joins[:MAX_JOINS]]
    more = f" (and {len(joins) - MAX_JOINS} more)" if len(joins) > MAX_JOINS else ""
    return "Joins: " + ", ".join(shown) + more


SQL_GUIDE = (
    "Database tables are not loaded in pandas: sql(query) runs one SELECT in the database and returns a "
    "pandas DataFrame of at most {max_rows:,} rows. Write DuckDB SQL (it is translated for {dialects}); "
    "aggregate in SQL (WHERE, GROUP BY, SUM/AVG/COUNT, ORDER BY, LIMIT) and bring only small results into pandas. "
    "Only reading is allowed."
)
