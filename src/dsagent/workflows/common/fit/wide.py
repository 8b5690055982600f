"""A wide table's periods are its columns: "which month …" over a table with one column per month
(``JAN`` … ``DEC``) or "which year …" over one column per year is answered by a column's name.
Checked by code after a run: a small model reads such a table as if it were long, and answers
with a row label or a value (seen in measured runs, and named in issue 40). The rule knows the
shapes of period names, never a dataset."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable

from dsagent.data.shape import period_columns
from dsagent.workflows.common.fit.named import named_values

def _answers(kind: str, shown: str) -> list[str]:
    """The values ``result`` gives as text: a dict's values, a list's or a tuple's items, or the one value."""
    if kind == "dict":
        values = named_values(shown) or {}
        nodes = list(values.values())
    elif kind in ("list", "tuple"):
        try:
            node = ast.parse(shown.strip(), mode="eval").body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return []
        nodes = list(node.elts) if isinstance(node, (ast.List, ast.Tuple)) else []
    else:
        return [shown.strip().strip("'\"")]
    items = [n for node in nodes for n in (node.elts if isinstance(node, (ast.List, ast.Tuple)) else [node])]
    return [str(n.value) if isinstance(n, ast.Constant) else ast.unparse(n) for n in items]


def _is_period(value: str, period: str, names: list[str]) -> bool:
    """Is ``value`` one of the period columns, written as the column is or as that period
    (``'July'`` or ``'JUL'`` for ``Jul``; ``2018`` for ``pop_2018``)?"""
    value = value.strip()
    if value in names:
        return True
    if period == "month":
        return len(value) >= 3 and value[:3].lower() in {n.strip()[:3].lower() for n in names}
    if period == "year":
        return bool(re.fullmatch(r"(1[89]|20)\d\d(\.0)?", value)) and any(value[:4] in n for n in names)
    return any(value.replace(" ", "").upper() == n.replace(" ", "").upper() for n in names)


def wide_period_misfit(question: str, kind: str, shown: str, columns: Iterable[str]) -> str | None:
    """The misfit of a "which month / year / quarter" answer over a table whose periods are its
    columns, when no value of ``result`` is one of those columns; else None."""
    found = period_columns(columns)
    if found is None or kind in ("", "Series", "DataFrame"):
        return None
    period, names = found
    if not re.search(rf"\b(?:which|what)\s+(?:\w+\s+)?{period}s?\b(?!-)", question or "", re.I):
        return None
    given = _answers(kind, shown)
    if not given or any(_is_period(value, period, names) for value in given):
        return None
    listed = ", ".join(repr(n) for n in names[:3]) + (", …" if len(names) > 3 else "")
    return (f"ResultDoesNotFitQuestion: in this table each {period} is a column ({listed}), so the {period} asked for is a "
            f"column's name, but `result` gives {given[0][:40]}. Compare the values across those columns and take the "
            f"top column's name: df.loc[<the row asked about>, {period}_columns].squeeze().idxmax() within one row, or "
            f"df[{period}_columns].mean().idxmax() over all rows (idxmin for the lowest), with "
            f"{period}_columns = [{listed}].")
