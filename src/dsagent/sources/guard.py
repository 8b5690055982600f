"""The read-only guard of database sources: one read statement in, refused before the database
sees anything else; and the translation from the dialect the model writes (DuckDB's) to the
database's own.

The guard parses with sqlglot. A query passes only when it is exactly one statement whose root
is a SELECT (with its WITH), a set operation (UNION / INTERSECT / EXCEPT) or a parenthesised
one of these, and nothing inside it writes, locks, reads files, calls out of the database or
changes a setting. The connection is read-only as well where the database can do it (see
broker.py): the guard is the first of two locks, not the only one.
"""

from __future__ import annotations

import re
from typing import Any

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
# Functions that read or write files, call the operating system or another server, sleep,
# change settings or sequences, or reveal the parent process's environment.
_FORBIDDEN_FUNCTIONS = re.compile(
    r"^(read_\w*|read\w*csv\w*|readparquet|readjson\w*|read\w*|sniff_csv|glob|parquet_\w+|csv_\w+|json_read\w*"
    r"|pg_read\w*|pg_ls_\w+|pg_stat_file|pg_file_\w+|lo_\w+|dblink\w*|set_config|current_setting|pg_sleep\w*"
    r"|pg_terminate_backend|pg_cancel_backend|pg_reload_conf|pg_rotate_logfile|pg_switch_wal|pg_promote"
    r"|pg_create_\w+|pg_drop_\w+|pg_advisory\w*|pg_notify|nextval|setval|query_to_xml\w*|load_extension"
    r"|readfile|writefile|fts_\w+|getenv|reflect|java_method|http_\w+|system|shell\w*)$",
    re.IGNORECASE,
)
_TABLE_FUNCTIONS = {"generate_series", "exploding_generate_series", "range", "unnest", "explode", "values"}
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
    return type(node).__name__ if not hasattr(node, "sql_name") else node.sql_name()


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
            name = _function_name(node)
            if _FORBIDDEN_FUNCTIONS.match(name):
                raise RefusedQuery(f"the function {name}() is not allowed: it reads files, calls out or changes state")
        if isinstance(node, exp.Table):
            _check_table(node)
    return tree


def _check_table(node: Any) -> None:
    from sqlglot import exp

    this = node.this
    if isinstance(this, exp.Func) or not isinstance(this, exp.Identifier):
        name = _function_name(this) if isinstance(this, exp.Func) else type(this).__name__
        if name.lower() not in _TABLE_FUNCTIONS:
            raise RefusedQuery(f"FROM {name}(…) is not allowed: query the tables of the source by name")
        return
    if _PATH_LIKE.search(this.name):
        raise RefusedQuery(f"FROM {this.name!r} reads a file: query the tables of the source by name")
    if str(node.args.get("db") or "").lower() in _FILE_FORMATS:
        raise RefusedQuery("reading files by path is not allowed: query the tables of the source by name")


def translate(query: str, target: str, source: str = MODEL_DIALECT) -> str:
    """``query`` checked, then written in the ``target`` dialect and checked again there."""
    tree = check_read_only(query, source)
    if target == source:
        return query
    text = tree.sql(dialect=target)
    check_read_only(text, target)
    return text
