"""A scale the question restates for a column: "salary is in thousands of dollars; answer in
thousands". The column already holds that unit, so the answer takes its values as written; a small
model that reads "in thousands" divides by 1000 anyway (0.707 for a median salary of 707; Q 10187,
10197, 10201, seen), and its check, written by the same model, can share the slip.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

_FACTORS = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
SCALE_WORD = re.compile(r"\b(thousand|million|billion)s?\b", re.I)
_SAID = r"\s+(?:is|are|was|were)\s+(?:(?:given|written|measured|expressed|recorded|stored|reported|counted)\s+)?in\s+" \
        r"(?:thousand|million|billion)s?\b"
_CONVERSION = re.compile(r"\bin\s+(?:dollars?|euros?|pounds?|yen|units?|cents?)\b|\bconvert|\bmultipl", re.I)
_FULL_UNITS = re.compile(r"\bper\s+(?:1[, ]?000|thousand|million|billion)\b|\$\s?\d|\b\d{1,3}(?:,\d{3})+\b|"
                         r"\b\d+(?:\.\d+)?\s+(?:thousand|million|billion)\b", re.I)


def restated_scale(question: str, columns: Iterable[str]) -> str | None:
    """"thousand", "million" or "billion" when the question says a column is in that scale
    ("salary is in thousands of dollars": the subject a column's name) and names no other scale,
    no conversion (into dollars, units) and no amount in full units ("$100,000", "per 1,000"): the
    answer is in the column's own unit. None otherwise ("What was revenue in millions?" asks a
    conversion)."""
    text = question or ""
    if _CONVERSION.search(text) or _FULL_UNITS.search(text):
        return None
    names = sorted({str(c) for c in columns if str(c).strip()}, key=len, reverse=True)
    if not names or not re.search("(?<![\\w])(?:" + "|".join(re.escape(n) for n in names) + ")" + _SAID, text, re.I):
        return None
    words = {word.lower() for word in SCALE_WORD.findall(text)}
    return words.pop() if len(words) == 1 else None


def rescaled(question: str, tree: ast.AST, columns: Iterable[str]) -> tuple[str, list[ast.BinOp]]:
    """The scale the question restates and each division or multiplication of the code by its
    factor outside a comparison (a threshold may be written in full units): the operations to take
    out; ``("", [])`` when the question restates none."""
    scale = restated_scale(question, columns)
    if scale is None:
        return "", []
    factor = _FACTORS[scale]
    compared = {id(n) for node in ast.walk(tree) if isinstance(node, ast.Compare) for n in ast.walk(node)}
    return scale, [node for node in ast.walk(tree)
                   if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.Mult, ast.FloorDiv))
                   and id(node) not in compared
                   and any(isinstance(side, ast.Constant) and type(side.value) in (int, float) and side.value == factor
                           for side in (node.left, node.right))]


def rescaled_misfit(question: str, tree: ast.AST, columns: Iterable[str]) -> str | None:
    """Code that divides or multiplies by the factor of a scale the question only restates."""
    scale, nodes = rescaled(question, tree, columns)
    if not nodes:
        return None
    return (f"ResultDoesNotFitQuestion: the question says the values are in {scale}s and asks for {scale}s, but "
            f"`{ast.unparse(nodes[0])[:80]}` scales them by {_FACTORS[scale]:,.0f}. Take the values as the column writes "
            "them (no conversion).")


def unscaled(node: ast.BinOp) -> ast.AST:
    """The side of ``x / 1000`` (``1000 * x``) that is not the factor."""
    return node.right if isinstance(node.left, ast.Constant) else node.left
