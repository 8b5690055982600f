"""Row masks whose brackets the code left out: Python binds ``&`` and ``|`` before comparisons and
``.sum()`` before ``&``, so a mask written without brackets fails or means something else.

- ``df['a'] != 'x' & df['b'] != 'y'`` is ``df['a'] != ('x' & df['b']) != 'y'``: a TypeError (or
  the truth value of a Series), and shown it the model often writes the line again.
- ``(a > 1) & (b == 0).sum()`` sums the last condition alone: a Series where a count was meant.
- ``df['x'] == None`` (``np.nan``, ``float('nan')``, ``pd.NA``, ``pd.NaT``) is False on every row:
  pandas finds no missing value equal to anything. The test for a missing value is ``pd.isna``.
"""

from __future__ import annotations

import ast

from dsagent.workflows.common.mends._edit import mend_nodes
from dsagent.workflows.common.mends.facts import MendFacts

_MASKS = (ast.BitAnd, ast.BitOr)
_SYMBOL = {ast.BitAnd: "&", ast.BitOr: "|"}


def _mask(node: ast.AST) -> bool:
    """A comparison, or comparisons joined by & / | (a row mask)."""
    return isinstance(node, ast.Compare) or (isinstance(node, ast.BinOp) and isinstance(node.op, _MASKS)
                                             and _mask(node.left) and _mask(node.right))


def mend_mask_precedence(code: str, facts: MendFacts | None = None) -> str:
    """``(a > 1) & (b == 0).sum()`` (``.sum()`` binds before ``&``: a mask and a number, a Series
    where one count was meant) as ``((a > 1) & (b == 0)).sum()``; also ``.mean()`` (a share).
    Only when every side is a comparison, so the aggregate can only have meant the whole mask."""
    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, _MASKS) and _mask(node.left)):
            return None
        right = node.right
        if not (isinstance(right, ast.Call) and not right.args and not right.keywords and isinstance(right.func, ast.Attribute)
                and right.func.attr in ("sum", "mean") and _mask(right.func.value)):
            return None
        whole = ast.unparse(ast.BinOp(left=node.left, op=node.op, right=right.func.value))  # unparse brackets each comparison
        return node, f"({whole}).{right.func.attr}()"

    return mend_nodes(code, edit)


def _column(node: ast.AST) -> bool:
    """Does ``node`` hold a column, ``x['name']`` (or a call on one, ``x['name'].isin(…)``)?"""
    return any(isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant) and isinstance(n.slice.value, str)
               for n in ast.walk(node))


def _joined(node: ast.AST) -> bool:
    return isinstance(node, ast.BinOp) and isinstance(node.op, _MASKS)


def _split(compare: ast.Compare) -> str | None:
    """The comparisons ``compare`` chained through & / |, each in brackets, joined as written."""
    sides, joins = [compare.left], []
    for i, comparator in enumerate(compare.comparators):
        if i == len(compare.comparators) - 1:
            sides.append(comparator)
        elif _joined(comparator) and not _joined(comparator.left) and not _joined(comparator.right):
            sides += [comparator.left, comparator.right]
            joins.append(_SYMBOL[type(comparator.op)])
        else:
            return None
    if len(compare.ops) == 1:  # ``a > 2 & mask``: a number joined to a mask
        last = compare.comparators[0]
        if not (_joined(last) and isinstance(last.left, ast.Constant) and not isinstance(last.right, ast.Constant)):
            return None
        sides[-1:] = [last.left, last.right]
        joins.append(_SYMBOL[type(last.op)])
        compare = ast.Compare(left=compare.left, ops=compare.ops, comparators=[last.left])
        return f"({ast.unparse(compare)}) {joins[0]} ({ast.unparse(last.right)})"
    parts = [ast.unparse(ast.Compare(left=sides[2 * i], ops=[op], comparators=[sides[2 * i + 1]]))
             for i, op in enumerate(compare.ops)]
    return "".join(f"({part})" + (f" {joins[i]} " if i < len(joins) else "") for i, part in enumerate(parts))


def mend_chained_mask(code: str, facts: MendFacts | None = None) -> str:
    """``df['a'] != 'x' & df['b'] != 'y'`` as ``(df['a'] != 'x') & (df['b'] != 'y')``, and
    ``df['n'] > 2 & df['r'].isin(v)`` as ``(df['n'] > 2) & (df['r'].isin(v))``: comparisons chained
    through & or | are never meant as Python reads them. Only when a column is compared."""
    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        if not (isinstance(node, ast.Compare) and any(_joined(c) for c in node.comparators) and _column(node)):
            return None
        text = _split(node)
        return (node, text) if text is not None else None

    return mend_nodes(code, edit)


def _missing(node: ast.AST) -> bool:
    """``None``, ``np.nan`` / ``numpy.NaN``, ``pd.NA`` / ``pd.NaT``, ``float('nan')``."""
    if isinstance(node, ast.Constant):
        return node.value is None
    if isinstance(node, ast.Attribute):
        return node.attr in ("nan", "NaN", "NA", "NaT") and isinstance(node.value, ast.Name)
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "float" and len(node.args) == 1
            and isinstance(node.args[0], ast.Constant) and str(node.args[0].value).lower() == "nan")


def mend_missing_compare(code: str, facts: MendFacts | None = None) -> str:
    """``x == None`` as ``pd.isna(x)`` and ``x != None`` as ``pd.notna(x)`` (also against ``np.nan``,
    ``float('nan')``, ``pd.NA``, ``pd.NaT``), where ``x`` is a selection, an attribute or a call
    (``df['delay']``, ``df.delay``, ``s.shift()``): as written it is False (True) on every row.
    A plain name (``result == None``) is Python's own test and is left alone, as is ``is None``."""
    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq))):
            return None
        left, right = node.left, node.comparators[0]
        if _missing(left):
            left, right = right, left
        if not _missing(right) or not isinstance(left, (ast.Subscript, ast.Attribute, ast.Call)) or _missing(left):
            return None
        test = "isna" if isinstance(node.ops[0], ast.Eq) else "notna"
        return node, f"pd.{test}({ast.get_source_segment(code, left) or ast.unparse(left)})"

    return mend_nodes(code, edit)
