"""Before the run: ``for row in df.iterrows()`` read as rows. ``iterrows()`` gives (index, row)
pairs, so ``row['Year']`` then fails ("tuple indices must be integers or slices, not str"), and a
small model's fix is often a different loop that computes something else. When the loop's name
is only used as a row (a column read by name or attribute), the loop is written
``for _, row in df.iterrows()``: what the code means is unambiguous."""

from __future__ import annotations

import ast

from dsagent.workflows.common.mends._edit import parsed, replace_nodes
from dsagent.workflows.common.mends.facts import MendFacts

_TUPLE_USES = frozenset({"count", "index"})
"""Attributes a tuple has: a name read through them may be the pair itself."""


def _row_reads(tree: ast.AST, name: str) -> tuple[int, int]:
    """(reads of ``name`` as a row: ``name['col']``, ``name.col``; every other read of ``name``)."""
    rows = others = 0
    owners = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == name:
            owners.add(id(node.value))
            is_text = isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)
            rows, others = (rows + 1, others) if is_text else (rows, others + 1)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == name:
            owners.add(id(node.value))
            rows, others = (rows, others + 1) if node.attr in _TUPLE_USES else (rows + 1, others)
    others += sum(1 for node in ast.walk(tree) if isinstance(node, ast.Name) and node.id == name
                  and isinstance(node.ctx, ast.Load) and id(node) not in owners)
    return rows, others


def mend_iterrows_pair(code: str, facts: MendFacts | None = None) -> str:
    """``for row in x.iterrows()`` (a loop or a comprehension) whose ``row`` is read only as a row
    (``row['col']``, ``row.col``) as ``for _, row in x.iterrows()``; left alone when the name is
    also used whole (``row[0]``, ``print(row)``) or is assigned elsewhere."""
    tree = parsed(code)
    if tree is None:
        return code
    edits = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.For, ast.comprehension)) or not isinstance(node.target, ast.Name):
            continue
        call = node.iter
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "iterrows"):
            continue
        name = node.target.id
        stores = sum(1 for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store))
        rows, others = _row_reads(tree, name)
        if stores == 1 and rows and not others:
            edits.append((node.target, f"_, {name}"))
    return (replace_nodes(code, edits) if edits else None) or code
