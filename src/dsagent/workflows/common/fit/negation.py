"""Filters that keep the rows the question leaves out, or no row at all: ``== value`` for a value
the question leaves out, a text test or a membership it negates ("not ending with ' landscape'",
"not in the 2018 edition"), and one column asked for two values on one row. The after-misfit mend
"left-out rows dropped" writes each kept filter in its :func:`dropped_form`.
"""

from __future__ import annotations

import ast
import re

from dsagent.workflows.common.fit.rows import compared_value
from dsagent.workflows.common.wording import excluded


def dropped_form(kept: ast.Compare | ast.Call) -> str:
    """``column == value`` written as the rows other than those, ``column != value``; a text test
    (:func:`kept_text_tests`) negated and bracketed, ``(~s.str.endswith('x'))``, so a method after
    it (``.sum()``) counts the negated test."""
    if isinstance(kept, ast.Call):
        return f"(~{ast.unparse(kept)})"
    return ast.unparse(ast.Compare(left=kept.left, ops=[ast.NotEq()], comparators=kept.comparators))


def _dropping(tree: ast.AST) -> set[int]:
    """The ids of the nodes inside a negation: under ``~`` or ``not``, compared ``== False``, inside
    ``.drop(…)``, or a mask named and then negated (``m = …`` … ``df[~m]``)."""
    dropping: set[int] = set()
    negated_names = {node.operand.id for node in ast.walk(tree) if isinstance(node, ast.UnaryOp)
                     and isinstance(node.op, (ast.Invert, ast.Not)) and isinstance(node.operand, ast.Name)}
    for node in ast.walk(tree):
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Invert, ast.Not)):
            dropping |= {id(n) for n in ast.walk(node.operand)}
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "drop":
            dropping |= {id(n) for arg in [*node.args, *(k.value for k in node.keywords)] for n in ast.walk(arg)}
        elif isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in negated_names for t in node.targets):
            dropping |= {id(n) for n in ast.walk(node.value)}
        elif (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.comparators[0], ast.Constant)
              and isinstance(node.left, (ast.Compare, ast.Call)) and type(node.comparators[0].value) in (bool, int)
              and ((node.comparators[0].value == 0 and isinstance(node.ops[0], ast.Eq))
                   or (node.comparators[0].value == 1 and isinstance(node.ops[0], ast.NotEq)))):  # a test's False
            dropping |= {id(n) for n in ast.walk(node.left)}
    return dropping


_REDUCED = {"sum", "mean", "any", "all", "count_nonzero"}


def _used_as_kept(test: ast.Call, tree: ast.AST) -> bool:
    """Is the test's True what the code keeps: inside a selection (``df[…]``, ``.loc[…]``), or
    counted (``test.sum()``), and not subtracted from a whole (``len(df) - test.sum()`` counts
    the others)? A test only named (``m = …``) counts where the name is used so."""
    parents = {id(child): node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    names = {t.id for node in ast.walk(tree) if isinstance(node, ast.Assign) and any(n is test for n in ast.walk(node.value))
             for t in node.targets if isinstance(t, ast.Name)}
    uses = [test] + [n for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in names and isinstance(n.ctx, ast.Load)]
    for use in uses:
        node, child = parents.get(id(use)), use
        while node is not None:
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and node.right is child:
                break  # the others: a whole minus the test's count
            if isinstance(node, ast.Subscript) and node.value is not child:
                return True
            if isinstance(node, ast.Attribute) and node.attr in _REDUCED and isinstance(parents.get(id(node)), ast.Call):
                reduced = parents[id(node)]
                grand = parents.get(id(reduced))
                return not (isinstance(grand, ast.BinOp) and isinstance(grand.op, ast.Sub) and grand.right is reduced)
            if isinstance(node, ast.stmt):
                break
            node, child = parents.get(id(node)), node
    return False


_TEXT_VERBS = {"endswith": r"end", "startswith": r"(?:start|begin)", "contains": r"contain"}


def kept_text_tests(question: str, tree: ast.AST) -> list[ast.Call]:
    """Each ``s.str.endswith('x')`` (``startswith``, ``contains``) that keeps the rows the question
    negates ("not ending with ' landscape'", "does not contain 'Pad'"), and each ``isin`` of the rows
    it says "not in" (:func:`_not_in`): not negated anywhere in the code (:func:`_dropping`)."""
    dropping, found = _dropping(tree), []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "isin" and node.args
                and id(node) not in dropping and _not_in(question, node.args[0])):
            found.append(node) if _used_as_kept(node, tree) else None
            continue
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _TEXT_VERBS
                and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "str" and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)) or id(node) in dropping:
            continue
        said = re.escape(node.args[0].value.strip())
        if said and re.search(rf"(?:\bnot|n't|\bnever)\s+{_TEXT_VERBS[node.func.attr]}\w*(?:\s+with)?\s+(?:the\s+\w+\s+)?"
                              rf"['\"]?\s*{said}", question or "", re.I) and _used_as_kept(node, tree):
            found.append(node)
    return found


def _not_in(question: str, members: ast.AST) -> bool:
    """Does the question say "not in" the rows a literal of ``members`` picks ("not in the 2018
    edition" for ``isin(df[df['edition'] == 2018]['quantity'])``)?"""
    for node in ast.walk(members):
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, str)) and not isinstance(node.value, bool):
            said = re.escape(str(node.value))
            if len(str(node.value)) > 1 and re.search(rf"\bnot\s+(?:in|among|listed in|present in|found in|part of)\s+"
                                                      rf"(?:the\s+)?(?:\w+\s+){{0,2}}?['\"]?{said}(?![\w])", question or "", re.I):
                return True
    return False


def kept_excluded(question: str, tree: ast.AST) -> list[ast.Compare]:
    """Each ``column == value`` that keeps only the rows the question leaves out (``df['year'] ==
    2009`` for "2009 is incomplete and left out"); none of a value the code drops anywhere
    (``!= 2009``, under ``~`` or ``not``, inside ``.drop(…)``, or a mask named and then negated,
    ``m = df['year'] == 2009`` … ``df[~m]``), where the ``==`` serves that drop."""
    dropping = _dropping(tree)
    kept, dropped = [], set()
    for node in ast.walk(tree):
        found = compared_value(node) if isinstance(node, ast.Compare) else None
        if found is None:
            continue
        op, value = found
        if id(node) in dropping or isinstance(op, ast.NotEq):
            dropped.add(value)
        elif isinstance(op, ast.Eq) and excluded(question, str(value)):
            kept.append((node, value))
    return [node for node, value in kept if value not in dropped]


def _and_parts(node: ast.AST) -> list[ast.AST]:
    """The conditions ``a & b & c`` joins, flattened."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd):
        return _and_parts(node.left) + _and_parts(node.right)
    return [node]


def contradictory_filter(tree: ast.AST) -> str | None:
    """``(df['year'] == 'a') & (df['year'] == 'b')``: one column asked for two values on the same
    row keeps no row (a count of 0 stated as the answer; Q 10206, 10208, seen). What is in both is
    found across rows."""
    for node in ast.walk(tree):
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd)):
            continue
        asked: dict[str, object] = {}
        for part in _and_parts(node):
            if not (isinstance(part, ast.Compare) and len(part.ops) == 1 and isinstance(part.ops[0], ast.Eq)
                    and isinstance(part.comparators[0], ast.Constant)):
                continue
            side, value = ast.unparse(part.left), part.comparators[0].value
            if side in asked and asked[side] != value:
                return (f"ResultDoesNotFitQuestion: `{side} == {asked[side]!r}` and `{side} == {value!r}` joined with & keep no "
                        f"row: a row holds one value of {side}. What is in both is found across rows: the ids of one "
                        f"(set(df.loc[{side} == {asked[side]!r}, 'id_col'])) that are also in the other, or one row per id "
                        "with a column per value (df.pivot_table(index='id_col', columns='col', values='x')).")
            asked[side] = value
    return None
