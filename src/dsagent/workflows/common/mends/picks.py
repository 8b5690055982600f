"""After-misfit mends for "which …" answers: the name of the row or the group the question picks,
where the code gave a row number, the picked value itself, or ranked the names' text.

Each is an after-misfit mend (``mend(question, code, tree, execution_result, facts)``, registered
in ``after_misfit.AFTER_MISFIT``); the code step keeps its code only when the result then fits.
"""

from __future__ import annotations

import ast

from dsagent.workflows.common.fit import name_at_label, numbered_names
from dsagent.workflows.common.fit.named import named_values, written_values
from dsagent.workflows.common.mends._edit import parses, replace_nodes, uses_df
from dsagent.workflows.common.mends.facts import MendFacts
from dsagent.workflows.common.naming import GROUPING, key_column, key_word_column, label_ranked, row_number_call, which_column
from dsagent.workflows.common.wording import WHICH


def name_at_row(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """idxmax's row label for "which country …": the name at that row (:func:`fit.name_at_label`)."""
    return name_at_label(question, code, er, facts.text_columns) if facts.single_frame else None


def names_of_rows(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """A ranked Series whose rows are row numbers for "which three countries …": labelled by the
    names at those rows (:func:`fit.numbered_names`)."""
    line = numbered_names(question, code, er, facts.text_columns) if facts.single_frame else None
    return code.rstrip("\n") + f"\n{line}\n" if line else None


def named_at_row(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """A named value the code writes as a plain ``idxmax()`` that gives a row number
    (:func:`naming.row_number_call`) under a key that names a column (``{'year': df['gas'].idxmax()}``),
    or one word of a text column's name (:func:`naming.key_word_column`), printed as a whole number:
    the value of that column at that row,
    ``df.loc[df['gas'].idxmax(), 'year']``. Only in the one frame, with row labels kept (no reset_index)."""
    if er.get("result_type") != "dict" or not facts.single_frame or "reset_index" in code or not uses_df(tree):
        return None
    shown = named_values(er.get("result_str")) or {}
    edits = []
    for key, value in written_values(tree).items():
        column, printed = key_column(key, facts.columns) or key_word_column(key, facts.text_columns), shown.get(key)
        if (column and isinstance(printed, ast.Constant) and type(printed.value) is int and row_number_call(value, tree)):
            edits.append((value, f"df.loc[{ast.unparse(value)}, {column!r}]"))
    mended = replace_nodes(code, edits) if edits else None
    return mended if mended and parses(mended) else None


_PICKS = {"max": "idxmax", "min": "idxmin"}


def _bound(expr: ast.AST, tree: ast.AST) -> ast.AST:
    """The value a name is bound to once (``most = df['b'].max()``), else ``expr`` itself."""
    if not isinstance(expr, ast.Name):
        return expr
    values = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
              and isinstance(n.targets[0], ast.Name) and n.targets[0].id == expr.id]
    return values[0] if len(values) == 1 else expr


def _unrounded(node: ast.AST) -> ast.AST:
    """``x`` of ``x.round(2)`` or ``round(x, 2)``."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "round":
        return node.func.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "round" and node.args:
        return node.args[0]
    return node


def _column_of(node: ast.AST) -> tuple[str, str] | None:
    """(frame, column) of ``frame['column']`` with a plain frame name, else None."""
    if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Constant)
            and isinstance(node.slice.value, str)):
        return node.value.id, node.slice.value
    return None


def _grouped_by(node: ast.AST) -> str | None:
    """The one column a chain groups by (``….groupby('nation')[…]``), else None."""
    keys = [n.args[0].value for n in ast.walk(node) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr == "groupby" and len(n.args) == 1 and isinstance(n.args[0], ast.Constant)
            and isinstance(n.args[0].value, str)]
    return keys[0] if len(keys) == 1 else None


def name_of_the_pick(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """"Which nation won the most bronze?" answered with the number (``fit.named``: a name was
    wanted): the name of the row or group that number picks. ``df.loc[df['b'].idxmax(), 'b']``
    takes the name column instead; ``df['b'].max()`` becomes ``df.loc[df['b'].idxmax(), 'nation']``;
    ``df.groupby('nation')['b'].sum().max()`` becomes ``….idxmax()``. Only the one value a
    "which" question asks (or a key named after a text column), in the one frame."""
    if er.get("result_type") != "dict" or not facts.single_frame or "reset_index" in code:
        return None
    shown, written = named_values(er.get("result_str")) or {}, written_values(tree)
    texts = list(facts.text_columns)
    edits = []
    for key, expr in written.items():
        printed = shown.get(key)
        if not (isinstance(printed, ast.Constant) and type(printed.value) in (int, float)):
            continue
        name = key_column(key, texts, whole=True) or (which_column(question, texts) if WHICH.search(question or "")
                                                      and len(written) == 1 else None)
        value = _bound(expr, tree)
        if name is None:
            continue
        if (isinstance(value, ast.Subscript) and isinstance(value.value, ast.Attribute) and value.value.attr == "loc"
                and isinstance(value.slice, ast.Tuple) and len(value.slice.elts) == 2
                and isinstance(value.slice.elts[0], ast.Call) and isinstance(value.slice.elts[0].func, ast.Attribute)
                and value.slice.elts[0].func.attr in _PICKS.values() and isinstance(value.slice.elts[1], ast.Constant)
                and value.slice.elts[1].value not in texts):
            edits.append((value.slice.elts[1], repr(name)))
        elif (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in _PICKS
              and not value.args and not value.keywords):
            inner, pick = value.func.value, _PICKS[value.func.attr]
            column = _column_of(inner)
            if column and not any(isinstance(n, ast.Attribute) and n.attr in GROUPING for n in ast.walk(inner)):
                frame, _ = column
                edits.append((value, f"{frame}.loc[{ast.unparse(inner)}.{pick}(), {name!r}]"))
            elif _grouped_by(inner) == name:
                edits.append((value, f"{ast.unparse(inner)}.{pick}()"))
    if not edits or (any("loc[" in text for _, text in edits) and not uses_df(tree)):
        return None
    mended = replace_nodes(code, edits)
    return mended if mended and parses(mended) else None


def group_of_the_value(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """``{'level': df['msmoke'].idxmin(), 'mean': df.groupby('msmoke')['w'].mean().min()}``: the
    label column ranked by its own text (``naming.label_ranked``) beside the group's value computed
    right. The label is that of the value beside it: ``df.groupby('msmoke')['w'].mean().idxmin()``.
    Only when exactly one value beside it reduces groups of that column with the same direction."""
    ranked = label_ranked(tree, facts.text_columns)
    if ranked is None:
        return None
    call_text, column = ranked
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and ast.unparse(n) == call_text]
    if len(calls) != 1:
        return None
    call = calls[0]
    direction = {v: k for k, v in _PICKS.items()}[call.func.attr]  # type: ignore[attr-defined]
    siblings = [_unrounded(_bound(v, tree)) for v in written_values(tree).values()]
    sources = [v.func.value for v in siblings if isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute)
               and v.func.attr == direction and not v.args and _grouped_by(v.func.value) == column]
    if len(sources) != 1:
        return None
    mended = replace_nodes(code, [(call, f"{ast.unparse(sources[0])}.{call.func.attr}()")])  # type: ignore[attr-defined]
    return mended if mended and parses(mended) else None
