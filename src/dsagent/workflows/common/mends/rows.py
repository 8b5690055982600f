"""Before the run: rows dropped by a value of a column as if it were their index label.

``df.drop(['Other sectors', 'All industries'])`` drops rows by their *index* labels; in a table read
from a file the index is the row number, so the call fails ("['Other sectors'] not found in axis")
and a small model's next try is often a different computation. When every value dropped is a value
of one text column (and none is a column name, the code sets no index, and the frame is the
loaded table or rows of it, not a grouped or counted result whose index holds names), the code
meant the rows that hold them: ``df[~df['sector'].isin(['Other sectors', 'All industries'])]``.
"""

from __future__ import annotations

import ast
import re

from dsagent.workflows.common.mends._edit import parsed, replace_nodes
from dsagent.workflows.common.mends.facts import MendFacts
from dsagent.workflows.common.naming import LABEL_CHAINS, drop_labels


def _spine(expr: ast.AST) -> tuple[set[str], ast.AST]:
    """The calls and attributes along an expression's own chain (not inside its filters or
    arguments) and the name or value it starts from: ``df[df['a'] > df['a'].std()].copy()`` →
    ({"copy"}, ``df``)."""
    attrs: set[str] = set()
    while True:
        if isinstance(expr, ast.Call):
            expr = expr.func
        elif isinstance(expr, ast.Attribute):
            attrs.add(expr.attr)
            expr = expr.value
        elif isinstance(expr, ast.Subscript):
            expr = expr.value
        else:
            return attrs, expr


def _table_rows(name: str, tree: ast.AST, depth: int = 0) -> bool:
    """Is ``name`` the loaded table or rows of it (``df``, ``datasets['x']``, ``df[df['a'] > 0]``,
    ``df.copy()``, a name bound to such rows): every value bound to it starts from ``df`` or
    ``datasets`` and its chain calls nothing that turns the index into names (a ``groupby``'s sums,
    ``value_counts``, ``set_index`` …: ``naming.LABEL_CHAINS``) or gives other columns (``melt``)?
    What its filters compute does not count."""
    bound = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign)
             and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)]
    if not bound:
        return name == "df"
    for value in bound:
        attrs, start = _spine(value)
        if attrs & (LABEL_CHAINS | {"melt"}) or not isinstance(start, ast.Name):
            return False
        if start.id not in ("df", "datasets") and (start.id == name or depth >= 3 or not _table_rows(start.id, tree, depth + 1)):
            return False
    return True


def mend_drop_values(code: str, facts: MendFacts | None = None) -> str:
    """``x.drop(['A', 'B'])`` (or ``x.drop('A')``, ``index=``; ``inplace=True`` as a statement) where
    'A' and 'B' are values of one text column as ``x[~x['col'].isin(['A', 'B'])]``; unchanged otherwise."""
    tree = parsed(code)
    if tree is None or facts is None or re.search(r"set_index|index_col|set_axis|\.index\s*=(?!=)", code):
        return code  # the code made the names the index: drop() by them is right
    columns = {str(c) for c in facts.columns}
    statements = {id(s.value): s for s in ast.walk(tree) if isinstance(s, ast.Expr)}
    edits: list[tuple[ast.AST, str]] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "drop"
                and isinstance(node.func.value, ast.Name) and _table_rows(node.func.value.id, tree)):
            continue  # a grouped or counted result's index holds the names: drop() by them is right there
        labels = drop_labels(node)
        if not labels or not all(isinstance(x, str) for x in labels) or columns & set(labels):
            continue
        holders = [c for c in facts.text_columns if set(labels) <= set(facts.values.get(c, ()))]
        if len(holders) != 1:
            continue
        owner = node.func.value.id
        kept = f"{owner}[~{owner}[{holders[0]!r}].isin({labels!r})]"
        inplace = any(k.arg == "inplace" and isinstance(k.value, ast.Constant) and k.value.value is True for k in node.keywords)
        if inplace and id(node) in statements:
            edits.append((statements[id(node)], f"{owner} = {kept}"))
        elif not inplace:
            edits.append((node, kept))
    mended = replace_nodes(code, edits) if edits else None
    return mended if mended and parsed(mended) is not None else code
