"""A before-run mend for code over a database source: pandas' ``read_sql`` on a connection the code
opens itself, written as the sandbox's ``sql()``.

Over a database the tables are not files the sandbox can open and the worker holds no connection:
code reads them with ``sql("select …")``, which the broker answers read-only. A small model writes
what it has seen elsewhere instead (``conn = sqlite3.connect('shop.sqlite')`` then
``pd.read_sql_query(query, conn)``, or SQLAlchemy's ``create_engine``), which fails with an error
that does not say what to do, and its fix tends to open another connection. What that code means is
unambiguous: each ``read_sql*`` call becomes ``sql(query)`` (a table name read whole becomes
``sql('SELECT * FROM name')``), and the statements that only open or close the connection go.
"""

from __future__ import annotations

import ast

from dsagent.workflows.common.mends._edit import called_name, owns_its_lines, replace_nodes
from dsagent.workflows.common.mends.facts import MendFacts

_READS = {"read_sql", "read_sql_query", "read_sql_table"}
_OPENS = {"connect", "create_engine"}


def _opens(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and called_name(node) in _OPENS


def mend_read_sql(code: str, facts: MendFacts | None = None) -> str:
    """See the module; only over a database source (``facts.database``) and code that parses."""
    if facts is None or not facts.database:
        return code
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    lines = code.splitlines(keepends=True)
    connections = {t.id for node in ast.walk(tree) if isinstance(node, ast.Assign) and _opens(node.value)
                   for t in node.targets if isinstance(t, ast.Name)}
    edits: list[tuple[ast.AST, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and called_name(node) in _READS and node.args:
            query = ast.unparse(node.args[0])
            if called_name(node) == "read_sql_table":
                query = f"'SELECT * FROM ' + {query}"
            edits.append((node, f"sql({query})"))
        elif isinstance(node, ast.stmt) and owns_its_lines(node, lines) and _connection_only(node, connections):
            edits.append((node, "pass"))
    if not any(text.startswith("sql(") for _, text in edits):
        return code
    mended = replace_nodes(code, edits)
    if mended is None or connections & {n.id for n in ast.walk(ast.parse(mended)) if isinstance(n, ast.Name)}:
        return code  # the connection is used for more than reading tables (a cursor, execute): not this mistake
    return mended


def _connection_only(node: ast.stmt, connections: set[str]) -> bool:
    """A statement that opens a connection (``conn = sqlite3.connect(…)``) or closes or commits one."""
    if isinstance(node, ast.Assign) and _opens(node.value):
        return True
    call = node.value if isinstance(node, ast.Expr) else None
    return (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in {"close", "commit", "dispose"}
            and isinstance(call.func.value, ast.Name) and call.func.value.id in connections)
