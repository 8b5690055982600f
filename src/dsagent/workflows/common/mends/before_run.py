"""Before the run: mends of written code (text → text), applied in the order of :data:`BEFORE_RUN`.

Each mend is ``mend(code, facts=None) -> code``: it rewrites one mistake small models make over and
over and cannot fix from the error (or that gives no error and a wrong number), only where what the
code means is unambiguous, and returns the code unchanged otherwise. The rest of the code, comments
included, is kept as written. A new before-run mend is a function of that shape in this package,
added to :data:`BEFORE_RUN` with a label, and tested in ``tests/workflows/common/mends/test_before_run.py``.
The code step (``common.attempt``) applies them; callers that write code outside it (robust's
checks, clean's cleaner, the assistant's stage 4) call :func:`mend_before_run`.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from dsagent.workflows.common.mends._edit import mend_nodes, owns_its_lines
from dsagent.workflows.common.naming import called_name
from dsagent.workflows.common.mends.database import mend_read_sql, mend_sql_shadowed
from dsagent.workflows.common.mends.dates import (mend_last_day, mend_month_number_date, mend_period_format, mend_text_date_sort, mend_text_date_value,
                                                     mend_text_dates, mend_time_order)
from dsagent.workflows.common.mends.facts import MendFacts
from dsagent.workflows.common.mends.grouped import mend_contingency_columns, mend_grouped_samples, mend_label_at_group
from dsagent.workflows.common.mends.imports import mend_imports
from dsagent.workflows.common.mends.loops import mend_iterrows_pair
from dsagent.workflows.common.mends.arithmetic import mend_percent_change, mend_rounded_side, mend_scaled_difference
from dsagent.workflows.common.mends.columns import mend_column_spelling, mend_strip_on_numbers
from dsagent.workflows.common.mends.masks import mend_chained_mask, mend_mask_precedence, mend_missing_compare
from dsagent.workflows.common.mends.result_dict import mend_result_unbound, mend_self_reference
from dsagent.workflows.common.mends.rows import mend_drop_values
from dsagent.workflows.common.mends.syntax import mend_syntax_slips

Mend = Callable[[str, "MendFacts | None"], str]

# The profile's header (data/profile.py: ``df = datasets['id'] = name: R rows x C cols …``) copied as a line of code.
_HEADER_TARGETS = r"^([ \t]*(?:[A-Za-z_]\w*[ \t]*=[ \t]*)*datasets\[(['\"])[^'\"\n]+\2\])[ \t]*=[ \t]*"
"""The header's assignment, ``df = datasets['id'] =``, kept as group 1 by both header mends."""
_PROFILE_HEADER = re.compile(_HEADER_TARGETS + r"[^\n]*?:[ \t]*~?[\d,]+ rows x [\d,]+ cols\b[^\n]*$", re.M)
# Its file name written as a value (``df = datasets['sales'] = sales.csv[df['a'] > 0]``): parses, then a NameError.
_FILE_AS_VALUE = re.compile(_HEADER_TARGETS + r"[A-Za-z_]\w*\.(?:csv|tsv|txt|json|xlsx|xls|parquet)\b", re.M)


def mend_profile_header(code: str, facts: MendFacts | None = None) -> str:
    """The data profile's header line copied as code (``df = datasets['sales'] = sales.csv: 891
    rows x 12 cols``, a SyntaxError before anything runs) cut to its assignment
    (``df = datasets['sales']``), when the code does not parse; and its file name written as a
    value (``df = datasets['sales'] = sales.csv[mask]``, which parses and then fails on the
    undefined name ``sales``) read as the frame (``df = datasets['sales'][mask]``)."""
    try:
        ast.parse(code)
    except SyntaxError:
        code = _PROFILE_HEADER.sub(r"\1", code)  # such a line never runs: cut even if another line still fails
    return _FILE_AS_VALUE.sub(r"\1", code)


_SQUARED_METRICS = ("mean_squared_error", "mean_squared_log_error")


def mend_squared_keyword(code: str, facts: MendFacts | None = None) -> str:
    """``mean_squared_error(..., squared=False)`` (an RMSE as older scikit-learn wrote it; 1.6
    removed the keyword) as ``np.sqrt(mean_squared_error(...))``, which every version computes
    (``np`` is bound in the sandbox), and ``squared=True`` dropped. The one place scikit-learn's
    ``squared=`` is handled: the error it would raise never reaches the model."""
    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        keep = _squared(node) if isinstance(node, ast.Call) else None
        if keep is None:
            return None
        node.keywords = [k for k in node.keywords if k.arg != "squared"]
        return node, ast.unparse(node) if keep else f"np.sqrt({ast.unparse(node)})"

    return mend_nodes(code, edit)  # nested metric calls overlap: left as written


def _squared(call: ast.Call) -> bool | None:
    """The literal ``squared=`` value of a squared-error metric call, or None."""
    if called_name(call) not in _SQUARED_METRICS:
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
_T_TESTS = frozenset({"ttest_ind", "ttest_rel", "ttest_1samp"})
"""The tests whose result holds its degrees of freedom (``.df``, scipy 1.11+) but unpacks to two values."""


def _scipy_call(call: ast.Call, code: str) -> bool:
    """Is this t-test scipy's (``stats.ttest_ind``, ``scipy.stats.ttest_ind``, or a bare name imported
    from scipy.stats)? statsmodels' ``ttest_ind`` returns (t, p, df) as a plain tuple: right as written."""
    if "weightstats" in code:
        return False
    if isinstance(call.func, ast.Attribute):
        return ast.unparse(call.func.value) in ("stats", "scipy.stats", "st", "ss")
    return bool(re.search(r"from\s+scipy\.stats\s+import[^\n]*\bttest_", code))


_DOF_NAME = re.compile(r"(?:^|_)dof(?:$|_)|degrees?_?(?:of_?)?freedom|(?:^|_)df(?:$|_)", re.I)


def mend_test_unpacking(code: str, facts: MendFacts | None = None) -> str:
    """``p_value, x = stats.shapiro(...)`` as ``x, p_value = ...``: a scipy.stats test returns
    (statistic, p-value), so a first name that says p-value would get the statistic — no error,
    a wrong number. Only when the first name says p-value and the second does not. Also
    ``chi2, p = stats.chi2_contingency(t)`` (four values returned: a ValueError) as ``chi2, p, *_ = …``.
    And a t-test's degrees of freedom unpacked (``t, dof = stats.ttest_ind(…)``: the p-value stored
    as the degrees of freedom; three names fail) read from the result: ``(_test := …).statistic, _test.df``.
    And ``f, p = stats.f_oneway(…).pvalue`` (one number into two names: a TypeError) as ``f, p = stats.f_oneway(…)``."""
    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple)
                and len(node.targets[0].elts) == 2 and isinstance(node.value, ast.Attribute)
                and node.value.attr in ("pvalue", "statistic") and isinstance(node.value.value, ast.Call)
                and called_name(node.value.value) in _TESTS and all(isinstance(e, ast.Name) for e in node.targets[0].elts)
                and not _P_NAME.search(node.targets[0].elts[0].id)
                and not any(_DOF_NAME.search(e.id) for e in node.targets[0].elts)):  # one number into (statistic, p-value)
            return node.value, ast.get_source_segment(code, node.value.value) or ast.unparse(node.value.value)
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call)):
            return None
        target = node.targets[0]
        if (called_name(node.value) == "chi2_contingency" and isinstance(target, ast.Tuple) and len(target.elts) == 2
                and all(isinstance(e, ast.Name) for e in target.elts)):  # it returns four values: keep the first two
            return target, f"{target.elts[0].id}, {target.elts[1].id}, *_"
        if (called_name(node.value) in _T_TESTS and _scipy_call(node.value, code)
                and isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts)
                and 2 <= len(target.elts) <= 3 and any(_DOF_NAME.search(e.id) for e in target.elts)):
            parts = ["df" if _DOF_NAME.search(e.id) else "pvalue" if _P_NAME.search(e.id) else "statistic" for e in target.elts]
            if len(set(parts)) == len(parts):  # each name says what it holds: read each from the result
                value = f"(_test := {ast.get_source_segment(code, node.value) or ast.unparse(node.value)}).{parts[0]}"
                return node.value, ", ".join([value, *(f"_test.{part}" for part in parts[1:])])
        if called_name(node.value) not in _TESTS or not isinstance(target, ast.Tuple) or len(target.elts) != 2:
            return None
        first, second = target.elts
        if (isinstance(first, ast.Name) and isinstance(second, ast.Name) and _P_NAME.search(first.id)
                and not _P_NAME.search(second.id)):
            return target, f"{second.id}, {first.id}"
        return None

    return mend_nodes(code, edit)


# scikit-learn keywords renamed, then removed (1.2 → 1.4), that models learned under the old name.
_RENAMED_KEYWORDS = {("OneHotEncoder", "sparse"): "sparse_output"}


def mend_renamed_keywords(code: str, facts: MendFacts | None = None) -> str:
    """A keyword scikit-learn renamed written under its new name (``OneHotEncoder(sparse=False)`` →
    ``sparse_output=False``: a TypeError whose message does not say the new name)."""
    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        if not isinstance(node, ast.Call):
            return None
        names = {k.arg for k in node.keywords}
        renames = {old: new for (called, old), new in _RENAMED_KEYWORDS.items()
                   if called == called_name(node) and old in names and new not in names}
        if not renames:
            return None
        for keyword in node.keywords:
            keyword.arg = renames.get(keyword.arg, keyword.arg)
        return node, ast.unparse(node)

    return mend_nodes(code, edit)


def mend_groupby_tuple(code: str, facts: MendFacts | None = None) -> str:
    """``df.groupby(k)['a', 'b']`` written ``df.groupby(k)[['a', 'b']]``: pandas 2 removed
    selecting several columns of a groupby with a tuple (a ValueError the model repeats on retry)."""
    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call) and called_name(node.value) == "groupby"
                and isinstance(node.slice, ast.Tuple) and len(node.slice.elts) > 1
                and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.slice.elts)):
            return node.slice, "[" + ", ".join(ast.unparse(e) for e in node.slice.elts) + "]"
        return None

    return mend_nodes(code, edit)


def mend_series_groupby(code: str, facts: MendFacts | None = None) -> str:
    """``frame['x'].groupby('k')`` written ``frame.groupby('k')['x']``: a column selected first has
    no column ``k`` to group by (a KeyError, and shown it the model writes the same line again).
    Only when every key is a column name of the data other than ``x`` (a Series may have an index
    level of that name) and the keys are written as names, not as Series."""
    columns = set(facts.columns) if facts else set()

    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "groupby"
                and len(node.args) == 1 and isinstance(node.func.value, ast.Subscript)):
            return None
        selected, key = node.func.value, node.args[0]
        keys = key.elts if isinstance(key, ast.List) else [key]
        if not (isinstance(selected.slice, ast.Constant) and isinstance(selected.slice.value, str) and keys
                and all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in keys)):
            return None
        names = {k.value for k in keys}
        if not names <= columns or selected.slice.value in names or selected.slice.value not in columns:
            return None  # datasets['t'].groupby('k'): a table's id, not a column selected
        rest = "".join(", " + ast.unparse(k) for k in node.keywords)
        return node, f"{ast.unparse(selected.value)}.groupby({ast.unparse(key)}{rest})[{ast.unparse(selected.slice)}]"

    return mend_nodes(code, edit)


_NUMERIC_ONLY = {"mean", "median", "std", "var", "sum", "corr", "cov"}


def _whole_frame(node: ast.AST) -> bool:
    """``df``, ``datasets['x']``, or rows of one (``df[df['a'] > 0]``, ``df.loc[...]``, ``.head(n)``):
    a frame with all its columns, as far as the code shows."""
    if isinstance(node, ast.Name):
        return node.id == "df"
    if isinstance(node, ast.Subscript):
        base = node.value
        if isinstance(base, ast.Name) and base.id == "datasets":
            return isinstance(node.slice, ast.Constant)
        if isinstance(base, ast.Attribute) and base.attr in ("loc", "iloc"):
            return _whole_frame(base.value) and not isinstance(node.slice, ast.Tuple)
        return _whole_frame(base) and isinstance(node.slice, (ast.Compare, ast.BoolOp, ast.UnaryOp, ast.BinOp))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("head", "tail", "dropna", "copy"):
        return _whole_frame(node.func.value)
    return False


def mend_numeric_only(code: str, facts: MendFacts | None = None) -> str:
    """``df.mean()`` (median, std, var, sum, corr, cov) of a whole frame that has text or date
    columns written ``df.mean(numeric_only=True)``: pandas 2 raises a TypeError (or sums the text)
    where what the line means is the numeric columns; also a row total of a wide table,
    ``df.sum(axis=1)``. Only for calls with no other arguments on the data's frame or rows of it (``df``, ``datasets['x']``, ``df[df['a'] > 0]``), when the data has such columns."""
    if not (facts and facts.mixed_frames):
        return code

    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _NUMERIC_ONLY
                and not node.args and all(k.arg == "axis" for k in node.keywords) and _whole_frame(node.func.value)):
            axis = "".join(f"{ast.unparse(k)}, " for k in node.keywords)
            return node, f"{ast.unparse(node.func.value)}.{node.func.attr}({axis}numeric_only=True)"
        return None

    return mend_nodes(code, edit)


_AGGREGATES = {"sum", "mean", "min", "max", "median", "count"}


def mend_groupby_arithmetic(code: str, facts: MendFacts | None = None) -> str:
    """``df.groupby(k)['a'] * df['b'].sum()`` written ``(df['a'] * df['b']).rename('a * b')
    .groupby(df[k]).sum()``: a GroupBy cannot take part in arithmetic (pandas fails with "setting
    an array element with a sequence"), and what such a line means is the aggregate of the per-row
    product (or ratio, sum, difference), per group."""
    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div, ast.Add, ast.Sub))):
            return None
        left, right = node.left, node.right
        if not (isinstance(left, ast.Subscript) and isinstance(left.value, ast.Call) and called_name(left.value) == "groupby"
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

    return mend_nodes(code, edit)


_FIGURE_CALL = re.compile(r"^(px\.\w+|go\.Figure|make_subplots)$")


def mend_result_figure(code: str, facts: MendFacts | None = None) -> str:
    """A top-level ``result = fig`` that overwrites the answer computed before it dropped (the
    chart stays in ``fig``; the sandbox saves it), and ``result = px.bar(...)`` after an answer
    written ``fig = px.bar(...)``. A lone ``result = fig`` is left to the fit check."""
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


def mend_yes_no(code: str, facts: MendFacts | None = None) -> str:
    """``df['smoker'].sum()`` / ``.mean()`` of a Yes/No text column (a string concatenation, then
    a TypeError, or a wrong number) as ``(df['smoker'] == 'Yes').sum()``, a count (share) of yes;
    not when the code names the yes value itself or assigns the column (a mapped column's sum is right)."""
    for column, yes in (facts.yes_no if facts else {}).items():
        if re.search(rf"['\"]{re.escape(yes)}['\"]", code) or re.search(rf"\[['\"]{re.escape(column)}['\"]\]\s*=[^=]", code):
            continue  # the code already maps or compares the values, or rewrites the column: its sum may be right
        pattern = re.compile(rf"((?:\b\w+)(?:\[[^\[\]]*\]|\.loc\[[^\[\]]*\])*\[(['\"]){re.escape(column)}\2\])\.(sum|mean)\(\)")
        code = pattern.sub(lambda m: f"({m.group(1)} == {yes!r}).{m.group(3)}()", code)
    return code


BEFORE_RUN: list[tuple[str, Mend]] = [
    ("profile header cut", mend_profile_header),  # first: the others need code that parses
    ("a syntax slip", mend_syntax_slips),
    ("dict built key by key", mend_self_reference),
    ("result filled before it exists", mend_result_unbound),
    ("column name spelled as the data has it", mend_column_spelling),
    ("number column not stripped as text", mend_strip_on_numbers),
    ("rows dropped by their value", mend_drop_values),
    ("iterrows read as (index, row)", mend_iterrows_pair),
    ("squared= as np.sqrt", mend_squared_keyword),
    ("test result unpacked", mend_test_unpacking),
    ("renamed keyword", mend_renamed_keywords),
    ("groupby columns as a list", mend_groupby_tuple),
    ("column grouped as the frame", mend_series_groupby),
    ("groups spread as samples", mend_grouped_samples),
    ("group label read as itself", mend_label_at_group),
    ("two columns crossed for a chi-square test", mend_contingency_columns),
    ("whole frame over its numbers", mend_numeric_only),
    ("groupby arithmetic per row", mend_groupby_arithmetic),
    ("chart kept out of result", mend_result_figure),
    ("read_sql as sql()", mend_read_sql),  # before the imports: it leaves sqlite3 / sqlalchemy unused
    ("query text kept apart from sql()", mend_sql_shadowed),
    ("failing import dropped", mend_imports),
    ("Yes/No counted", mend_yes_no),
    ("comparisons bracketed in a mask", mend_chained_mask),
    ("mask aggregated whole", mend_mask_precedence),
    ("a comparison with a missing value as isna", mend_missing_compare),
    ("percent change bracketed", mend_percent_change),
    ("difference scaled whole", mend_scaled_difference),
    ("difference rounded whole", mend_rounded_side),
    ("last day kept whole", mend_last_day),
    ("dates written as text parsed for .dt", mend_text_dates),
    ("one text date parsed", mend_text_date_value),
    ("text dates sorted as dates", mend_text_date_sort),
    ("rows put in time order", mend_time_order),
    ("period labels read with their format", mend_period_format),
    ("month number read as a month", mend_month_number_date),
]
"""The before-run mends in the order they apply: (label for the run log, mend)."""


def mend_before_run(code: str, facts: MendFacts | None = None) -> tuple[str, list[str]]:
    """``code`` with every before-run mend applied in order, and the labels of those that changed it."""
    labels = []
    for label, mend in BEFORE_RUN:
        mended = mend(code, facts)
        if mended != code:
            code = mended
            labels.append(label)
    return code, labels


__all__ = ["BEFORE_RUN", "Mend", "mend_before_run", "mend_chained_mask", "mend_column_spelling", "mend_strip_on_numbers", "mend_groupby_arithmetic", "mend_groupby_tuple", "mend_grouped_samples", "mend_label_at_group",
           "mend_imports", "mend_iterrows_pair", "mend_last_day", "mend_percent_change", "mend_month_number_date", "mend_period_format", "mend_text_date_sort", "mend_text_date_value", "mend_text_dates", "mend_time_order", "mend_mask_precedence", "mend_numeric_only", "mend_read_sql", "mend_profile_header", "mend_renamed_keywords", "mend_result_figure", "mend_scaled_difference", "mend_result_unbound", "mend_self_reference", "mend_series_groupby",
           "mend_squared_keyword", "mend_syntax_slips", "mend_test_unpacking", "mend_yes_no"]
