"""Arithmetic whose brackets the code left out: a percent change minus one, a difference of two
aggregates of one column scaled on its second side only (``a.mean() - b.mean() * 1e7`` for "the
difference in units of 10^-7"), and a difference of two aggregates rounded on its second side only
(``a.mean() - b.mean().round(2)``: the rounding binds to ``b``, so the difference keeps b's
rounding error and a's decimals; Q 10186, seen)."""

from __future__ import annotations

import ast

from dsagent.workflows.common.mends._edit import mend_nodes
from dsagent.workflows.common.mends.facts import MendFacts
from dsagent.workflows.common.naming import REDUCTIONS, column_read

def _hundred(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) in (int, float) and node.value == 100


def mend_percent_change(code: str, facts: MendFacts | None = None) -> str:
    """``100 * a / b - 1`` (and ``a / b * 100 - 1``): a percent minus one is no quantity, and the
    change in percent the code meant is ``100 * (a / b - 1)``; a growth of 10.36 % came out as
    125.23 (batch K, seen). Only with exactly 100 and 1, so nothing else is read as a change."""
    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and isinstance(node.right, ast.Constant)
                and node.right.value == 1 and isinstance(node.left, ast.BinOp)):
            return None
        left = node.left
        if isinstance(left.op, ast.Div) and isinstance(left.left, ast.BinOp) and isinstance(left.left.op, ast.Mult) and _hundred(left.left.left):
            ratio = ast.BinOp(left=left.left.right, op=ast.Div(), right=left.right)  # 100 * a / b - 1
        elif isinstance(left.op, ast.Mult) and _hundred(left.right) and isinstance(left.left, ast.BinOp) and isinstance(left.left.op, ast.Div):
            ratio = left.left  # a / b * 100 - 1
        else:
            return None
        return node, f"100 * ({ast.unparse(ratio)} - 1)"

    return mend_nodes(code, edit)


def _power_of_ten(node: ast.AST) -> bool:
    """A constant 10, 100, 1000 … (or 1e7): a change of unit, never a quantity of the data."""
    if not (isinstance(node, ast.Constant) and type(node.value) in (int, float) and node.value >= 10):
        return False
    exponent = len(str(int(node.value))) - 1
    return float(node.value) == 10.0 ** exponent


def _aggregated_column(node: ast.AST) -> str | None:
    """The column ``node`` aggregates (``df[m]['x'].mean()`` or ``df.x.mean()`` → 'x'), else None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in REDUCTIONS):
        return None
    return column_read(node.func.value)


def mend_scaled_difference(code: str, facts: MendFacts | None = None) -> str:
    """``a.mean() - b.mean() * 1e7`` as ``(a.mean() - b.mean()) * 1e7`` (and ``* 100``, ``/ 1000``; only
    the scale written after the second aggregate): the two aggregates of one column are in one unit, so a scale on one side only
    mixes units (-1,078,681,255.7 for a difference of 174.1 × 10^-7 in batch L, seen)."""
    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and isinstance(node.right, ast.BinOp)):
            return None
        scaled = node.right
        if not (isinstance(scaled.op, (ast.Mult, ast.Div)) and _power_of_ten(scaled.right)):
            return None
        column = _aggregated_column(node.left)
        if column is None or column != _aggregated_column(scaled.left):
            return None
        difference = ast.BinOp(left=node.left, op=ast.Sub(), right=scaled.left)
        return node, f"({ast.unparse(difference)}) {'*' if isinstance(scaled.op, ast.Mult) else '/'} {ast.unparse(scaled.right)}"

    return mend_nodes(code, edit)


def _rounded(node: ast.AST) -> tuple[ast.AST, str] | None:
    """(what is rounded, the decimals' source) of ``x.round(n)`` or ``round(x, n)``, else None."""
    if not isinstance(node, ast.Call) or len(node.args) > 2 or node.keywords:
        return None
    if isinstance(node.func, ast.Attribute) and node.func.attr == "round" and len(node.args) == 1:
        return node.func.value, ast.unparse(node.args[0])
    if isinstance(node.func, ast.Name) and node.func.id == "round" and len(node.args) == 2:
        return node.args[0], ast.unparse(node.args[1])
    return None


def mend_rounded_side(code: str, facts: MendFacts | None = None) -> str:
    """``a.mean() - b.mean().round(2)`` (or ``+``, or ``round(b.mean(), 2)``) as
    ``round(a.mean() - b.mean(), 2)``: the rounding meant for the difference. Only when both sides
    are aggregates of a column and the first is not rounded itself."""
    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Sub, ast.Add))):
            return None
        rounded = _rounded(node.right)
        if rounded is None or _rounded(node.left) is not None:
            return None
        inner, decimals = rounded
        if _aggregated_column(node.left) is None or _aggregated_column(inner) is None:
            return None
        sign = "-" if isinstance(node.op, ast.Sub) else "+"
        left = ast.get_source_segment(code, node.left) or ast.unparse(node.left)
        right = ast.get_source_segment(code, inner) or ast.unparse(inner)
        return node, f"round({left} {sign} {right}, {decimals})"

    return mend_nodes(code, edit)
