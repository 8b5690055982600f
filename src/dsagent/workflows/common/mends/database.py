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

from dsagent.workflows.common.mends._edit import owns_its_lines, parsed, parses, replace_nodes
from dsagent.workflows.common.naming import called_name
from dsagent.workflows.common.mends.facts import MendFacts

_READS = {"read_sql", "read_sql_query", "read_sql_table"}
_OPENS = {"connect", "create_engine"}


def _opens(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and called_name(node) in _OPENS


def mend_read_sql(code: str, facts: MendFacts | None = None) -> str:
    """See the module; only over a database source (``facts.database``) and code that parses."""
    tree = parsed(code) if facts is not None and facts.database else None
    if tree is None:
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


def mend_sql_shadowed(code: str, facts: MendFacts | None = None) -> str:
    """``sql = "SELECT …"`` then ``sql(sql)``: the query text bound to the name of the sandbox's
    ``sql()`` ('str' object is not callable). The text gets a name of its own (``query``, or
    ``query_text`` when ``query`` is taken); the calls of ``sql()`` stay. Not when the code has a
    ``sql`` of its own (:func:`_own_sql`), nor when it never calls ``sql()`` (the worker gives the
    next cell ``sql()`` back), nor when the renamed code would not parse."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    names = [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == "sql"]
    called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "sql"}
    bound = any(isinstance(n.ctx, ast.Store) for n in names)
    if not (bound and called) or any(_own_sql(n) for n in ast.walk(tree)):
        return code
    taken = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
    new = "query" if "query" not in taken else "query_text"
    mended = replace_nodes(code, [(n, new) for n in names if id(n) not in called])
    return mended if mended and parses(mended) else code


def _own_sql(node: ast.AST) -> bool:
    """A ``sql`` of the code's own: a function, class, parameter, import, or global/nonlocal name."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name == "sql"
    if isinstance(node, ast.arg):
        return node.arg == "sql"
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return any((a.asname or a.name) == "sql" for a in node.names)
    return isinstance(node, (ast.Global, ast.Nonlocal)) and "sql" in node.names
