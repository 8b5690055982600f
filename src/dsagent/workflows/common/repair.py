"""Mend, before it runs, a mistake the small model makes over and over and cannot fix itself.

Asked for a dict of named answers, the 1.5B model writes one literal whose later values read its
earlier keys::

    result = {'r': df['a'].corr(df['b']),
              'kind': 'positive' if result['r'] > 0 else 'negative'}

which fails with ``NameError: name 'result' is not defined`` — and, shown that error, it writes the
same literal again (in the run log: nine failed attempts of this one shape, whole runs given up on
it). What it means is unambiguous, so code builds the dict key by key instead::

    result = {}
    result['r'] = df['a'].corr(df['b'])
    result['kind'] = 'positive' if result['r'] > 0 else 'negative'

Only when the name is bound nowhere before that statement (otherwise the read is of the earlier
value, and the code may be right); the rest of the code, comments included, is kept as written.

And it learned ``mean_squared_error(y, p, squared=False)`` for an RMSE, which scikit-learn 1.6
removed: shown the TypeError and a hint naming ``root_mean_squared_error``, it wrote the same call
five times in one run. The intent is unambiguous: ``np.sqrt(mean_squared_error(y, p))`` (``np`` is
bound in the sandbox) works with every scikit-learn version.

And a scipy.stats test returns (statistic, p-value), but it writes
``shapiro_p_value, distribution_type = stats.shapiro(x)``: no error, a wrong number, and an
independent check written by the same model often agrees with it. When the first name says p-value
and the second does not, the two names are swapped.

Keywords scikit-learn renamed and then removed (``OneHotEncoder(sparse=False)``, now
``sparse_output``) fail with a TypeError the model cannot place: they are written under the new name.

And it copies the data profile's header line as code (``df = datasets['sales'] = sales.csv: 891
rows x 12 cols``): a SyntaxError before anything runs. What it means is the dataset, so the line
keeps its assignment (``df = datasets['sales']``) and loses the description.

Imports that can only fail are mended in :mod:`~dsagent.workflows.common.repair_imports`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable



# The profile's header (data/profile.py: ``df = datasets['id'] = name: R rows x C cols …``) copied as a line of code.
_PROFILE_HEADER = re.compile(r"^([ \t]*(?:[A-Za-z_]\w*[ \t]*=[ \t]*)*datasets\[(['\"])[^'\"\n]+\2\])[ \t]*=[ \t]*[^\n]*?:[ \t]*~?[\d,]+ rows x [\d,]+ cols\b[^\n]*$", re.M)


def mend_profile_header(code: str) -> str:
    """``code`` with a copied profile header line cut to its assignment (``df = datasets['id']``),
    when the code does not parse."""
    try:
        ast.parse(code)
        return code
    except SyntaxError:
        pass
    return _PROFILE_HEADER.sub(r"\1", code)  # such a line never runs: cut even if another line still fails


def _line_offsets(code: str) -> list[int]:
    """The character offset at which each line of ``code`` starts (index 0 is line 1)."""
    offsets = [0]
    for line in code.splitlines(keepends=True):
        offsets.append(offsets[-1] + len(line))
    return offsets


_SQUARED_METRICS = ("mean_squared_error", "mean_squared_log_error")


def mend_squared_keyword(code: str) -> str:
    """``code`` with ``mean_squared_error(..., squared=False)`` as ``np.sqrt(mean_squared_error(...))``
    and ``squared=True`` dropped (see the module)."""
    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        keep = _squared(node) if isinstance(node, ast.Call) else None
        if keep is None:
            return None
        node.keywords = [k for k in node.keywords if k.arg != "squared"]
        return node, ast.unparse(node) if keep else f"np.sqrt({ast.unparse(node)})"

    return _mend_nodes(code, edit)  # nested metric calls overlap: left to the error and its hint


# scikit-learn keywords renamed, then removed (1.2 → 1.4), that the model learned under the old name.
_RENAMED_KEYWORDS = {("OneHotEncoder", "sparse"): "sparse_output"}


def mend_renamed_keywords(code: str) -> str:
    """``code`` with a keyword scikit-learn renamed written under its new name
    (``OneHotEncoder(sparse=False)`` → ``sparse_output=False``: a TypeError the model repeats)."""
    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        if not isinstance(node, ast.Call):
            return None
        names = {k.arg for k in node.keywords}
        renames = {old: new for (called, old), new in _RENAMED_KEYWORDS.items()
                   if called == _called_name(node) and old in names and new not in names}
        if not renames:
            return None
        for keyword in node.keywords:
            keyword.arg = renames.get(keyword.arg, keyword.arg)
        return node, ast.unparse(node)

    return _mend_nodes(code, edit)


def _mend_nodes(code: str, edit: Callable[[ast.AST], tuple[ast.AST, str] | None]) -> str:
    """``code`` with the nodes ``edit`` rewrites (``edit(node)`` → (the node to replace, its new
    source) or None) replaced; unchanged when it does not parse or two rewrites overlap."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    edits = [found for node in ast.walk(tree) if (found := edit(node)) is not None]
    return (_replace_nodes(code, edits) if edits else None) or code


def _replace_nodes(code: str, edits: list[tuple[ast.AST, str]]) -> str | None:
    """``code`` with each node's source replaced by its text; None when two nodes overlap."""
    offsets = _line_offsets(code)
    spans = sorted((offsets[node.lineno - 1] + node.col_offset, offsets[node.end_lineno - 1] + node.end_col_offset, text)
                   for node, text in edits)
    if any(later[0] < earlier[1] for earlier, later in zip(spans, spans[1:])):
        return None
    for start, end, text in reversed(spans):
        code = code[:start] + text + code[end:]
    return code


def _called_name(call: ast.Call) -> str | None:
    """``f`` of ``f(...)`` or ``m.f(...)``."""
    return call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", None)


def _squared(call: ast.Call) -> bool | None:
    """The literal ``squared=`` value of a squared-error metric call, or None."""
    if _called_name(call) not in _SQUARED_METRICS:
        return None
    for keyword in call.keywords:
        if keyword.arg == "squared" and isinstance(keyword.value, ast.Constant) and isinstance(keyword.value.value, bool):
            return keyword.value.value
    return None


# scipy.stats tests that return (statistic, pvalue).
_TESTS = frozenset({"shapiro", "normaltest", "pearsonr", "spearmanr", "kendalltau", "pointbiserialr", "ttest_ind",
                    "ttest_rel", "ttest_1samp", "f_oneway", "kruskal", "mannwhitneyu", "wilcoxon", "kstest",
                    "ks_2samp", "levene", "bartlett", "chisquare", "jarque_bera"})
_P_NAME = re.compile(r"(^|_)p(_?val(ue)?s?)?$|(^|_)p_?val", re.I)


def mend_test_unpacking(code: str) -> str:
    """``code`` with ``p_value, x = stats.shapiro(...)`` as ``x, p_value = ...``: a test returns
    (statistic, p-value), and a first name that says p-value gets the statistic (see the module)."""
    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call)):
            return None
        target = node.targets[0]
        if _called_name(node.value) not in _TESTS or not isinstance(target, ast.Tuple) or len(target.elts) != 2:
            return None
        first, second = target.elts
        if (isinstance(first, ast.Name) and isinstance(second, ast.Name) and _P_NAME.search(first.id)
                and not _P_NAME.search(second.id)):
            return target, f"{second.id}, {first.id}"
        return None

    return _mend_nodes(code, edit)


def mend_self_reference(code: str) -> str:
    """``code`` with each dict literal that reads its own keys built key by key (see the module)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    lines = code.splitlines(keepends=True)
    mends = [node for node in ast.walk(tree) if _reads_itself(node, tree) and owns_its_lines(node, lines)]
    for node in sorted(mends, key=lambda n: n.lineno, reverse=True):
        name = node.targets[0].id
        indent = " " * node.col_offset
        built = [f"{indent}{name} = {{}}\n"]
        built += [f"{indent}{name}[{ast.unparse(k)}] = {ast.unparse(v)}\n" for k, v in zip(node.value.keys, node.value.values)]
        lines[node.lineno - 1:node.end_lineno] = built
    return "".join(lines)


def _reads_itself(node: ast.AST, tree: ast.Module) -> bool:
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Dict) and node.value.keys and None not in node.value.keys):
        return False
    name = node.targets[0].id
    reads = any(isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == name
                for v in node.value.values for n in ast.walk(v))
    bound_before = any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
                       and n.lineno < node.lineno for n in ast.walk(tree))
    return reads and not bound_before


def owns_its_lines(node: ast.Assign, lines: list[str]) -> bool:
    """The statement starts its first line and ends its last (no ``;`` neighbours) to be replaced whole."""
    first, last = lines[node.lineno - 1], lines[node.end_lineno - 1]
    rest = last[node.end_col_offset:].strip()
    return not first[:node.col_offset].strip() and (not rest or rest.startswith("#"))


def mend_groupby_tuple(code: str) -> str:
    """``code`` with ``df.groupby(k)['a', 'b']`` written ``df.groupby(k)[['a', 'b']]``: pandas 2 removed
    selecting several columns of a groupby with a tuple (a ValueError the model repeats on retry)."""
    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call) and _called_name(node.value) == "groupby"
                and isinstance(node.slice, ast.Tuple) and len(node.slice.elts) > 1
                and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.slice.elts)):
            return node.slice, "[" + ", ".join(ast.unparse(e) for e in node.slice.elts) + "]"
        return None

    return _mend_nodes(code, edit)


_AGGREGATES = {"sum", "mean", "min", "max", "median", "count"}


def mend_groupby_arithmetic(code: str) -> str:
    """``code`` with ``df.groupby(k)['a'] * df['b'].sum()`` written
    ``(df['a'] * df['b']).rename('a * b').groupby(df[k]).sum()``:
    a GroupBy cannot take part in arithmetic (pandas fails with "setting an array element with a
    sequence"), and what such a line means is the aggregate of the per-row product, per group."""
    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div, ast.Add, ast.Sub))):
            return None
        left, right = node.left, node.right
        if not (isinstance(left, ast.Subscript) and isinstance(left.value, ast.Call) and _called_name(left.value) == "groupby"
                and isinstance(left.value.func, ast.Attribute) and len(left.value.args) == 1 and not left.value.keywords
                and isinstance(left.value.args[0], ast.Constant) and isinstance(left.slice, ast.Constant)):
            return None
        frame = ast.unparse(left.value.func.value)
        if not (isinstance(right, ast.Call) and isinstance(right.func, ast.Attribute) and right.func.attr in _AGGREGATES
                and not right.args and not right.keywords and isinstance(right.func.value, ast.Subscript)
                and ast.unparse(right.func.value.value) == frame and isinstance(right.func.value.slice, ast.Constant)):
            return None
        op = ast.unparse(ast.BinOp(left=ast.Name("a"), op=node.op, right=ast.Name("b")))[1:-1].strip()
        key, a, b = (ast.unparse(n) for n in (left.value.args[0], left.slice, right.func.value.slice))
        name = repr(f"{left.slice.value} {op} {right.func.value.slice.value}")  # named after what it computes
        return node, f"({frame}[{a}] {op} {frame}[{b}]).rename({name}).groupby({frame}[{key}]).{right.func.attr}()"

    return _mend_nodes(code, edit)


_FIGURE_CALL = re.compile(r"^(px\.\w+|go\.Figure|make_subplots)$")


def mend_result_figure(code: str) -> str:
    """``code`` without a top-level ``result = fig`` that overwrites the answer computed before it
    (a chart is kept in ``fig``; the sandbox saves it), and with ``result = px.bar(...)`` written
    ``fig = px.bar(...)`` when it does."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    lines = code.splitlines(keepends=True)
    answered = False
    drop, rename = [], []
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == "result"):
            continue
        value = node.value
        figure_name = isinstance(value, ast.Name) and value.id == "fig"
        figure_call = isinstance(value, ast.Call) and bool(_FIGURE_CALL.match(ast.unparse(value.func)))
        if (figure_name or figure_call) and answered and owns_its_lines(node, lines):
            (drop if figure_name else rename).append(node)
        elif not (figure_name or figure_call):
            answered = True
    for node in sorted(drop + rename, key=lambda n: n.lineno, reverse=True):
        if node in drop:
            del lines[node.lineno - 1:node.end_lineno]
        else:
            first = lines[node.lineno - 1]
            lines[node.lineno - 1] = first[:node.col_offset] + re.sub(r"^result\s*=", "fig =", first[node.col_offset:])
    return "".join(lines)

