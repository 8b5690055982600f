"""A share of rows computed over the wrong things, by the shape of the division:

- a column's sum over a row count: "in what percentage of the records was there rain" written
  ``100 * df['precip'].sum() / len(df)`` (R 10230, seen), which is 100 × the mean rainfall. A
  column of 0 and 1 (or True and False) is left alone: its sum counts rows;
- a share over every row of the table where the question keeps only the rows whose column is
  present ("use only rows where arr_delay is present"), and the code never tests that column (or
  the table) for missing values (R 10231, seen: 23.05 % for 23.71 %);
- the group with the most rows that meet a condition where the question ranks the groups by their
  share of such rows ("which origin had the highest share of cancelled flights" written
  ``df.loc[cancelled, 'origin'].value_counts().idxmax()``; R 10245, seen).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping

from dsagent.workflows.common.fit.sanity import row_count_of, without_factor
from dsagent.workflows.common.wording import CHANGE, first_sentence

_SHARE = re.compile(r"\b(?:percentage|percent|share|proportion|fraction)\b", re.I)
_BINARY = frozenset({0, 1, True, False})
_MISSING_TESTS = {"dropna", "notna", "notnull", "isna", "isnull", "count", "fillna", "nunique"}
_PRESENT = (r"(?:is|are|was|were)\s+(?:present|recorded|known|available|not\s+(?:missing|null|empty|blank|NA|NaN)|"
            r"non-?missing|given)\b")


def _column_of(node: ast.AST) -> str | None:
    """The column ``x['col']`` selects (``x.col`` too), else None."""
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        return node.slice.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.attr
    return None


def _rows_counted(node: ast.AST) -> bool:
    """``len(x)``, ``x.shape[0]`` or ``x['c'].count()`` / ``.size``: a number of rows."""
    if row_count_of(node) is not None:
        return True
    if isinstance(node, ast.Attribute) and node.attr == "size":
        return True
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "count" and not node.args


def sum_as_share(question: str, tree: ast.AST, values: Mapping[str, frozenset]) -> ast.BinOp | None:
    """The division ``x['col'].sum() / <rows>`` of a share question, where ``col`` is no 0/1 column;
    not when the question's first sentence asks a mean ("the average rate, in percent": a mean of
    a column of percentages is its sum over the rows)."""
    first = first_sentence(question)
    if not _SHARE.search(question or "") or CHANGE.search(question or "") or re.search(r"\b(?:average|mean)\b", first, re.I):
        return None
    for node in ast.walk(tree):
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and _rows_counted(node.right)):
            continue
        summed = without_factor(node.left)
        if not (isinstance(summed, ast.Call) and isinstance(summed.func, ast.Attribute) and summed.func.attr == "sum"
                and not summed.args):
            continue
        column = _column_of(summed.func.value)
        if column is not None and not (values.get(column) and values[column] <= _BINARY):
            return node
    return None


def present_column(question: str, columns: Iterable[str]) -> str | None:
    """The column whose rows the question keeps only where it is present ("rows where delay is
    present", "whose delay is not missing", "non-missing delay"), else None."""
    names = sorted({str(c) for c in columns if str(c).strip()}, key=len, reverse=True)
    if not names:
        return None
    name = "(?P<col>" + "|".join(re.escape(n) for n in names) + ")"
    found = (re.search(rf"(?<![\w]){name}\s+{_PRESENT}", question or "", re.I)
             or re.search(rf"\bnon-?missing\s+{name}(?![\w])", question or "", re.I))
    if not found:
        return None
    return next((n for n in names if n.lower() == found.group("col").lower()), None)


def all_rows_share(question: str, tree: ast.AST, columns: Iterable[str]) -> tuple[str, ast.BinOp] | None:
    """The present column the question keeps and the share's division by all of ``df``'s rows, when
    the code never tests anything for missing values; else None."""
    if not _SHARE.search(question or ""):
        return None
    column = present_column(question, columns)
    if column is None:
        return None
    if any(isinstance(n, ast.Attribute) and n.attr in _MISSING_TESTS for n in ast.walk(tree)):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and row_count_of(node.right) == "df":
            return column, node
    return None


_RANKED_SHARE = re.compile(r"\b(?:highest|largest|lowest|smallest|greatest|biggest|top|most|least)\s+(?:\w+\s+)?"
                           r"(?:share|percentage|proportion|rate|fraction)\b", re.I)
_PICKS = {"idxmax", "idxmin", "nlargest", "nsmallest"}


def _subset_column(node: ast.AST) -> tuple[str, str] | None:
    """(frame, column) of ``F.loc[cond, 'X']`` or ``F[cond]['X']`` (F a name): one column of some rows."""
    if not (isinstance(node, ast.Subscript)):
        return None
    if isinstance(node.value, ast.Attribute) and node.value.attr == "loc" and isinstance(node.value.value, ast.Name):
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else []
        if len(parts) == 2 and isinstance(parts[1], ast.Constant) and isinstance(parts[1].value, str):
            return node.value.value.id, parts[1].value
    if (isinstance(node.value, ast.Subscript) and isinstance(node.value.value, ast.Name)
            and not isinstance(node.value.slice, ast.Constant) and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, str)):
        return node.value.value.id, node.slice.value
    return None


def counted_for_share(question: str, tree: ast.AST) -> list[tuple[ast.Call, str, str]]:
    """Each ``<some rows>['X'].value_counts()`` that a pick ranks (``.idxmax()``) where the question's
    first sentence ranks groups by a share: (the value_counts call, the frame, the column)."""
    first = first_sentence(question)
    if not _RANKED_SHARE.search(first):
        return []
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and node.attr in _PICKS):
            continue
        counts = node.value
        if (isinstance(counts, ast.Call) and isinstance(counts.func, ast.Attribute) and counts.func.attr == "value_counts"
                and not counts.args and not counts.keywords and (subset := _subset_column(counts.func.value))):
            found.append((counts, *subset))
    return found


def share_misfit(question: str, tree: ast.AST, columns: Iterable[str], values: Mapping[str, frozenset]) -> str | None:
    """Either wrong share, said for the code step."""
    summed = sum_as_share(question, tree, values)
    if summed is not None:
        total = ast.unparse(without_factor(summed.left))
        return (f"ResultDoesNotFitQuestion: `{ast.unparse(summed)}` divides {total} by a number of rows: that is a mean of "
                f"the values, not a share of rows. Count the rows that meet the question's condition: "
                f"100 * (df['col'] > value).sum() / len(df).")
    found = all_rows_share(question, tree, columns)
    if found is not None:
        column, node = found
        return (f"ResultDoesNotFitQuestion: the question keeps only the rows where {column} is present, but "
                f"`{ast.unparse(node)}` divides by every row of df. Divide by the rows it keeps: df[{column!r}].notna().sum().")
    counted = counted_for_share(question, tree)
    if counted:
        call, frame, column = counted[0]
        return (f"ResultDoesNotFitQuestion: `{ast.unparse(call)}` counts rows, so its pick is the group with the most such "
                f"rows, not the highest share the question ranks by. Divide each group's count by all its rows first: "
                f"({ast.unparse(call)} / {frame}[{column!r}].value_counts()).")
    return None
