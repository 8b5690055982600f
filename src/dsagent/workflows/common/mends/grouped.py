"""Before the run: a grouping used where its groups, or their labels, were meant.

- ``stats.f_oneway(*df.groupby('g')['v'])``: iterating a grouping gives (label, values) pairs, so
  the test gets pairs, not samples (a TypeError, or a statistic of nothing meant). Written
  ``*[g for _, g in df.groupby('g')['v']]``: one sample per group, as the question means.
- ``df.loc[df.groupby('k')['v'].mean().idxmax(), 'k']``: idxmax of a grouped value gives the
  group's label, no row label of ``df`` (a KeyError for a text label; for a small whole number,
  the value of another row, silently). Written as the label itself: ``….idxmax()``.
- ``stats.chi2_contingency(df['a'], df['b'])``: the test takes one table of counts, and its second
  argument is ``correction``; two columns meant their crosstab: ``chi2_contingency(pd.crosstab(…))``.

Each is ``mend(code, facts=None) -> code`` in :data:`before_run.BEFORE_RUN`.
"""

from __future__ import annotations

import ast
from collections import Counter

from dsagent.workflows.common.mends._edit import mend_nodes, parses, replace_nodes
from dsagent.workflows.common.mends.facts import MendFacts
from dsagent.workflows.common.naming import called_name, group_labels_as_rows

_SAMPLE_TESTS = {"f_oneway", "kruskal", "levene", "bartlett", "fligner", "alexandergovern", "median_test",
                 "friedmanchisquare", "anderson_ksamp", "tukey_hsd"}
"""scipy's tests of several samples, each passed as its own argument (``f(*samples)``)."""


def _groupby_call(expr: ast.AST) -> ast.Call | None:
    """The ``.groupby(...)`` call ``expr`` is, or is one column selection of (``df.groupby('g')['v']``)."""
    if isinstance(expr, ast.Subscript):
        expr = expr.value
    return expr if isinstance(expr, ast.Call) and called_name(expr) == "groupby" else None


def _bound_once(tree: ast.AST) -> dict[str, ast.AST]:
    """Each name the code binds exactly once, with a plain ``name = value``: its value."""
    stores = Counter(n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store))
    return {n.targets[0].id: n.value for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1
            and isinstance(n.targets[0], ast.Name) and stores[n.targets[0].id] == 1}


def mend_grouped_samples(code: str, facts: MendFacts | None = None) -> str:
    """``*<grouping>`` as the samples of a test of several samples (:data:`_SAMPLE_TESTS`; the
    grouping written there, or a name bound once to it) as ``*[g for _, g in <grouping>]``: the
    groups' values, one sample each. Not elsewhere: ``zip(*grouping)`` splits the pairs as meant."""
    try:
        bound = _bound_once(ast.parse(code))
    except SyntaxError:
        return code

    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        if not (isinstance(node, ast.Call) and called_name(node) in _SAMPLE_TESTS and len(node.args) == 1
                and isinstance(node.args[0], ast.Starred)):
            return None
        node = node.args[0]
        grouping = node.value
        if isinstance(grouping, ast.Name) and grouping.id in bound:
            grouping = bound[grouping.id]
        if _groupby_call(grouping) is None:
            return None
        return node, f"*[g for _, g in {ast.unparse(node.value)}]"

    return mend_nodes(code, edit)


def _grouped_by(expr: ast.AST, bound: dict[str, ast.AST]) -> str | None:
    """The one key (a column name) of the grouping a reduced value comes from:
    ``df.groupby('k')['v'].mean()`` → ``'k'``; through a name bound once to it. None when the chain
    numbers its rows again (``reset_index``, ``to_frame``) or groups by more than one key."""
    if isinstance(expr, ast.Name) and expr.id in bound:
        expr = bound[expr.id]
    while isinstance(expr, (ast.Call, ast.Subscript, ast.Attribute)):
        if isinstance(expr, ast.Call) and called_name(expr) == "groupby":
            key = expr.args[0] if len(expr.args) == 1 else None
            if isinstance(key, ast.List) and len(key.elts) == 1:
                key = key.elts[0]
            return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None
        if isinstance(expr, ast.Call) and called_name(expr) in ("reset_index", "to_frame", "sort_index", "rename_axis"):
            return None
        expr = expr.func if isinstance(expr, ast.Call) else expr.value
    return None


def mend_label_at_group(code: str, facts: MendFacts | None = None) -> str:
    """``frame.loc[<grouped>.idxmax(), 'k']`` (or idxmin) that :func:`naming.group_labels_as_rows`
    finds, ``<grouped>`` grouped by ``'k'`` alone, as ``<grouped>.idxmax()``: the label idxmax gives
    is the answer already. Another column looked up stays as written (the fit check sends it back)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    bound, edits = _bound_once(tree), []
    for node in group_labels_as_rows(tree):
        if not (isinstance(node.slice, ast.Tuple) and len(node.slice.elts) == 2):
            continue
        pick, column = node.slice.elts
        if isinstance(column, ast.Constant) and _grouped_by(pick.func.value, bound) == column.value:  # type: ignore[attr-defined]
            edits.append((node, ast.get_source_segment(code, pick) or ast.unparse(pick)))
    mended = replace_nodes(code, edits) if edits else None
    return mended if mended and parses(mended) else code


def _column(node: ast.AST) -> bool:
    """``x['col']`` or ``x.col`` (x a name): one column."""
    if isinstance(node, ast.Subscript):
        return isinstance(node.value, ast.Name) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id not in ("np", "pd", "stats")


def mend_contingency_columns(code: str, facts: MendFacts | None = None) -> str:
    """``chi2_contingency(df['a'], df['b'], …)`` as ``chi2_contingency(pd.crosstab(df['a'], df['b']), …)``."""
    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        if not (isinstance(node, ast.Call) and called_name(node) == "chi2_contingency" and len(node.args) == 2
                and all(_column(a) for a in node.args)):
            return None
        a, b = (ast.get_source_segment(code, a) or ast.unparse(a) for a in node.args)
        rest = "".join(f", {ast.get_source_segment(code, k) or ast.unparse(k)}" for k in node.keywords)
        return node, f"{ast.get_source_segment(code, node.func) or ast.unparse(node.func)}(pd.crosstab({a}, {b}){rest})"

    return mend_nodes(code, edit)
