"""After a misfit: groups kept by a value where the question keeps them by their number of rows.

"Among the file types that appear at least three times, which has the largest mean size?" written
``m = df.groupby('suffix')['bytes'].mean()`` then ``m[m >= 3]`` keeps the groups whose *mean* is at
least 3 (:func:`fit.rows.group_size_unread` sends it back). Shown that, a small model writes the
same filter again; the comparison is read as meant: ``m[df.groupby('suffix').size() >= 3]``, the
groups' row counts on the same key, so the index lines up with ``m``.
"""

from __future__ import annotations

import ast

from dsagent.workflows.common.fit.rows import group_size_asked, group_size_unread
from dsagent.workflows.common.mends._edit import parses, replace_nodes
from dsagent.workflows.common.mends.facts import MendFacts

def _grouped_names(code: str, tree: ast.AST) -> dict[str, str]:
    """``{name: "frame.groupby(key)"}`` for each name assigned once from a chain that groups a frame
    (``m = df.groupby('k')['v'].mean()``), with the grouping written as in the code."""
    found: dict[str, str] = {}
    stores: dict[str, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            stores[node.id] = stores.get(node.id, 0) + 1
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
            continue
        grouping = next((n for n in ast.walk(node.value) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                         and n.func.attr == "groupby" and n.args and not n.keywords), None)
        last = node.value.func.attr if isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Attribute) else None
        if grouping is not None and last not in ("reset_index", "to_frame"):  # those number the rows again
            frame = ast.get_source_segment(code, grouping.func.value) or ast.unparse(grouping.func.value)
            key = ast.get_source_segment(code, grouping.args[0]) or ast.unparse(grouping.args[0])
            found[node.targets[0].id] = f"{frame}.groupby({key})"
    return {name: grouping for name, grouping in found.items() if stores.get(name) == 1}


def group_size_kept(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """``m[m >= N]`` (or ``>``; ``<`` / ``<=`` for "fewer than N rows") on a grouped value, where the
    question keeps the groups by their number of rows, as ``m[<frame>.groupby(<key>).size() >= N]``
    with the comparison the question words ("more than 3 rows" keeps ``> 3``, whatever the code
    wrote); None when the code has no such comparison."""
    asked = group_size_asked(question)
    if asked is None or group_size_unread(question, tree) is None:
        return None
    compared, size = asked
    same_way = (ast.Lt, ast.LtE) if compared.startswith("<") else (ast.GtE, ast.Gt)
    grouped = _grouped_names(code, tree)
    edits: list[tuple[ast.AST, str]] = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id in grouped
                and isinstance(node.slice, ast.Compare) and len(node.slice.ops) == 1
                and isinstance(node.slice.ops[0], same_way)):
            continue
        left, right = node.slice.left, node.slice.comparators[0]
        if (isinstance(left, ast.Name) and left.id == node.value.id and isinstance(right, ast.Constant)
                and right.value == size and not isinstance(right.value, bool)):
            edits.append((node.slice, f"{grouped[left.id]}.size() {compared} {size}"))
    mended = replace_nodes(code, edits) if edits else None
    return mended if mended and parses(mended) else None
