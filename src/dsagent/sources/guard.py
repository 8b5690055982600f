"""The read-only guard of database sources: one read statement in, refused before the database
sees anything else; and the translation from the dialect the model writes (DuckDB's) to the
database's own.

The guard parses with sqlglot. A query passes only when it is exactly one statement whose root
is a SELECT (with its WITH), a set operation (UNION / INTERSECT / EXCEPT) or a parenthesised
one of these; nothing inside it writes or locks; every function it calls is on the allow-list of
pure functions for its dialect (allowed.py: anything else, a user's function or a schema-qualified
one included, is refused by name); every cast is to a built-in type; and it reads tables by name,
none of the database's own catalog. The connection is read-only as well where the database can do
it (see engines.py): the guard is the first of two locks, not the only one.
"""

from __future__ import annotations

import re
from typing import Any

from dsagent.sources import allowed

# The model writes DuckDB SQL: the same dialect as the sandbox's sql() over files.
MODEL_DIALECT = "duckdb"

# Nodes that write, lock or change state, by sqlglot class name (looked up by name: sqlglot
# versions differ in which of them exist).
_FORBIDDEN_NODES = (
    "Insert", "Update", "Delete", "Merge", "Create", "Drop", "Alter", "AlterColumn", "TruncateTable",
    "Command", "Copy", "Pragma", "Set", "SetItem", "Attach", "Detach", "Install", "Use", "Transaction",
    "Commit", "Rollback", "Lock", "Into", "LoadData", "Grant", "Revoke", "Describe", "Analyze",
    "Cache", "Uncache", "Refresh", "Kill", "Export",
)
_FILE_FORMATS = {"csv", "parquet", "json", "orc", "text", "binaryfile", "avro", "delta", "jdbc", "hive"}
_PATH_LIKE = re.compile(r"[/\\]|://|\.(csv|tsv|parquet|json|jsonl|ndjson|gz|zst|txt|db|duckdb|sqlite\d?)$", re.IGNORECASE)

# SQLAlchemy dialect names → sqlglot's, where they differ.
_SQLGLOT_NAMES = {"postgresql": "postgres", "mssql": "tsql", "sqlite": "sqlite", "mysql": "mysql", "mariadb": "mysql",
                  "oracle": "oracle", "snowflake": "snowflake", "bigquery": "bigquery", "redshift": "redshift",
                  "trino": "trino", "presto": "presto", "databricks": "databricks", "duckdb": "duckdb",
                  "spark": "spark", "clickhouse": "clickhouse", "teradata": "teradata", "hive": "hive"}


class RefusedQuery(Exception):
    """The query is not a single read: the message says why and what to write instead."""


def sqlglot_dialect(name: str) -> str | None:
    """The sqlglot dialect for a SQLAlchemy dialect name, or None when sqlglot has none."""
    return _SQLGLOT_NAMES.get(name.split("+")[0].lower())


def _parse(query: str, dialect: str) -> Any:
    import logging

    import sqlglot
    from sqlglot import exp
    from sqlglot.errors import ParseError, TokenError

    logging.getLogger("sqlglot").setLevel(logging.ERROR)  # "falling back to a Command": refused below anyway

    if not isinstance(query, str) or not query.strip():
        raise RefusedQuery("sql() needs a query: a SELECT statement as a string")
    try:
        statements = [s for s in sqlglot.parse(query, read=dialect) if s is not None]
    except (ParseError, TokenError) as exc:
        first = str(exc).splitlines()[0]
        raise RefusedQuery(f"the query could not be parsed as {dialect} SQL ({first}); write one plain SELECT") from None
    if len(statements) != 1:
        raise RefusedQuery(f"one statement per sql() call, not {len(statements)}: only a single SELECT is allowed")
    tree = statements[0]
    root = tree.this if isinstance(tree, exp.Subquery) else tree
    if not isinstance(root, (exp.Select, exp.SetOperation)):
        raise RefusedQuery(f"only reading is allowed (SELECT, WITH … SELECT, UNION), not {_kind(tree)}")
    return tree


def _kind(node: Any) -> str:
    if type(node).__name__ == "Command":
        return f"{str(node.this).upper()}"
    return type(node).__name__.upper()


def _function_name(node: Any) -> str:
    from sqlglot import exp

    if isinstance(node, exp.Anonymous):
        return str(node.name)
    return node.sql_name().lower()


def check_read_only(query: str, dialect: str = MODEL_DIALECT) -> Any:
    """The parsed statement when ``query`` is one read; raises :class:`RefusedQuery` otherwise."""
    from sqlglot import exp

    tree = _parse(query, dialect)
    forbidden = tuple(getattr(exp, name) for name in _FORBIDDEN_NODES if hasattr(exp, name))
    for node in tree.walk():
        if isinstance(node, forbidden):
            raise RefusedQuery(f"only reading is allowed; the query contains {_kind(node)}")
        if isinstance(node, exp.Select) and node.args.get("locks"):
            raise RefusedQuery("only reading is allowed; FOR UPDATE/FOR SHARE locks rows")
        if isinstance(node, exp.Func):
            _check_function(node, dialect)
        if isinstance(node, exp.Table):
            _check_table(node)
        if isinstance(node, exp.DataType) and node.this == exp.DataType.Type.USERDEFINED:
            raise RefusedQuery(f"the type {node.sql(dialect)} is not a built-in type: cast to numbers, text, "
                               "dates, times or booleans")
        if isinstance(node, exp.ObjectIdentifier):  # regclass, regproc, …: catalog look-ups, not data
            raise RefusedQuery(f"the type {node.sql(dialect)} is not allowed: cast to numbers, text, dates, times "
                               "or booleans")
    return tree


def _check_function(node: Any, dialect: str) -> None:
    """Refuse a function that is not on the allow-list of ``dialect`` (allowed.py), or that names a schema."""
    from sqlglot import exp

    name = _function_name(node)
    parent = node.parent
    if isinstance(parent, exp.Dot) and parent.expression is node:
        raise RefusedQuery(f"the function {parent.this.sql(dialect)}.{name}() is not allowed: call the database's "
                           "built-in functions by their plain name")
    if isinstance(node, exp.Anonymous):
        ok = name.lower() in allowed.pure_names(dialect)
    else:
        ok = type(node).__name__ in allowed.PURE_CLASSES
    if not ok:
        raise RefusedQuery(f"the function {name}() is not on the allow-list of pure functions ({dialect}): sql() may "
                           "use aggregates, window functions, arithmetic, text, date/time functions, casts and CASE; "
                           "compute anything else in pandas")


def _check_table(node: Any) -> None:
    from sqlglot import exp

    this = node.this
    if isinstance(this, exp.Func) or not isinstance(this, exp.Identifier):
        name = _function_name(this) if isinstance(this, exp.Func) else type(this).__name__
        if name.lower() not in allowed.TABLE_FUNCTIONS:
            raise RefusedQuery(f"FROM {name}(…) is not allowed: query the tables of the source by name")
        return
    if _PATH_LIKE.search(this.name):
        raise RefusedQuery(f"FROM {this.name!r} reads a file: query the tables of the source by name")
    schemas = [str(node.args.get(part) or "").lower() for part in ("db", "catalog")]
    if any(s in _FILE_FORMATS for s in schemas[:1]):
        raise RefusedQuery("reading files by path is not allowed: query the tables of the source by name")
    if any(s in allowed.CATALOG_SCHEMAS for s in schemas) or this.name.lower().startswith(allowed.CATALOG_PREFIXES):
        shown = ".".join(p for p in (str(node.args.get("db") or ""), this.name) if p)
        raise RefusedQuery(f"{shown} is the database's own catalog, not data: query the tables of the source "
                           "(the profile lists them)")


def translate(query: str, target: str, source: str = MODEL_DIALECT) -> str:
    """``query`` checked, then written in the ``target`` dialect and checked again there."""
    tree = check_read_only(query, source)
    if target == source:
        return query
    text = tree.sql(dialect=target)
    check_read_only(text, target)
    return text
