"""After a misfit: mends of code that ran but whose ``result`` does not fit the question
(:func:`~dsagent.workflows.common.fit.result_misfit`), in the order of :data:`AFTER_MISFIT`.

Shown a misfit, a small model tends to write the same code again. Each mend here is
``mend(question, code, tree, execution_result, facts) -> mended code | None``: a rule about pandas
and the shape of a question, never about a dataset, that applies only when what the code meant is
unambiguous. The code step (``common.attempt``) runs the mended code and keeps it only if the
result then fits (:func:`mend_chain`). A new after-misfit mend is a function of that shape added
to :data:`AFTER_MISFIT` with a label, and tested in ``tests/workflows/common/mends/test_after_misfit.py``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from typing import Any

from dsagent.workflows.common.fit import asks_one_value, decade_number
from dsagent.workflows.common.fit.negation import dropped_form, kept_excluded, kept_text_tests
from dsagent.workflows.common.fit.rows import unnamed_years, year_lag_misfit
from dsagent.workflows.common.fit.named import named_values, written_values
from dsagent.workflows.common.mends.as_asked import (correction_as_asked, ddof_as_asked, end_as_asked, month_named, present_rows,
                                                    share_per_group, unit_as_written)
from dsagent.workflows.common.mends.groups import group_size_kept
from dsagent.workflows.common.mends.picks import group_of_the_value, name_at_row, named_at_row, name_of_the_pick, names_of_rows
from dsagent.workflows.common.fit.sanity import subset_share_division
from dsagent.workflows.common.fit.stats import model_without_intercept, named_rank_method, pearson_calls
from dsagent.workflows.common.naming import GROUPING
from dsagent.workflows.common.mends._edit import parses, rename_name, replace_nodes, uses_df
from dsagent.workflows.common.mends.facts import MendFacts
from dsagent.workflows.common.wording import (AGGREGATE, AGGREGATES, CHANGE, SHARE_OF, YEAR, excluded, first_sentence, ranged_years,
                                              without_examples)

MisfitMend = Callable[[str, str, ast.AST, dict, MendFacts], "str | None"]

_GROUPING = GROUPING | {"pivot", "rolling", "expanding", "unstack"}
"""Calls after which a result's rows are groups or windows, not the table's rows."""
_RANGE_BEFORE = re.compile(r"\b(since|after|before|between|from|until|to|and|through|up to|prior to)\s+$", re.I)


def _asked_aggregate(question: str) -> str | None:
    """The pandas method of the aggregate a one-value question asks for ("what is the mean …" → mean)."""
    first = first_sentence(question)
    match = AGGREGATE.search(first)
    return AGGREGATES[match.group(1).lower()] if match and asks_one_value(question) else None


def _numeric_series(shown: str) -> bool:
    """A printed Series whose values are numbers (each row's last field)."""
    if re.search(r"dtype: (object|str|category|bool)", shown):
        return False
    rows = [line for line in shown.splitlines() if line.strip() and line.strip() != "..."
            and not line.startswith(("Name:", "Length:", "dtype:"))]
    return bool(rows) and all(re.fullmatch(r"-?\d[\d,]*(\.\d+)?(e[+-]?\d+)?|nan", line.split()[-1], re.I) for line in rows)


def _grouped(tree: ast.AST) -> bool:
    """Does the code group rows (its result's rows are groups, not per-row values)?"""
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in _GROUPING for n in ast.walk(tree))


def aggregate_series(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """A per-row numeric Series for "what is the mean …" (the computed column, not reduced): that
    aggregate of it. Not after a grouping, whose rows are groups, not per-row values."""
    agg = _asked_aggregate(question)
    if not agg or er.get("result_type") != "Series" or not _numeric_series(er.get("result_str") or ""):
        return None
    if _grouped(tree):
        return None
    return code.rstrip("\n") + f"\nresult = result.{agg}()\n"


def year_filter(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """"… in 1977" answered over every row (the code never names the year): that year's rows kept
    first. Only when the data has exactly one integer year column, so the filter is unambiguous,
    and not for a year that bounds a range ("since 1977", "between 1952 and 1977"). The filtered
    rows get a name of their own (``df_1977``), used by the rest of the code: the session's ``df``
    stays the whole table for later cells."""
    if len(facts.year_columns) != 1 or not facts.single_frame or not uses_df(tree):
        return None
    lowered, spans, example_free = code.lower(), ranged_years(question), without_examples(question)
    for match in YEAR.finditer(example_free):
        year = match.group(1)
        if year in lowered or year in spans or _RANGE_BEFORE.search(example_free[: match.start()]) or excluded(question, year):
            continue
        return _on_rows(code, tree, f"df_{year}", f"df[df[{facts.year_columns[0]!r}] == {year}]")
    return None


def _on_rows(code: str, tree: ast.AST, name: str, rows: str) -> str | None:
    """``code`` with ``name = rows`` after its last ``df = …`` and ``name`` read where it read
    ``df``: the session's ``df`` stays the whole table for later cells."""
    if name in {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}:
        return None
    body = getattr(tree, "body", [])
    loads = [s for s in body if isinstance(s, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "df" for t in s.targets)]
    at = loads[-1].end_lineno if loads else 0
    rest = rename_name("\n".join(code.splitlines()[at:]) + "\n", "df", name)
    if rest is None:
        return None
    head = "".join(f"{line}\n" for line in code.splitlines()[:at])
    return f"{head}{name} = {rows}\n{rest}"


def excluded_year_dropped(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """"… 2009 is incomplete and left out" answered over every row (the code never names 2009): the
    rows of the years the question leaves out dropped first, by the data's one integer year column."""
    if len(facts.year_columns) != 1 or not facts.single_frame or not uses_df(tree):
        return None
    lowered = code.lower()
    years = list(dict.fromkeys(m.group(1) for m in YEAR.finditer(without_examples(question))
                               if m.group(1) not in lowered and excluded(question, m.group(1))))
    if not years:
        return None
    column = facts.year_columns[0]
    keep = f"df[{column!r}] != {years[0]}" if len(years) == 1 else f"~df[{column!r}].isin([{', '.join(years)}])"
    return _on_rows(code, tree, "df_kept", f"df[{keep}]")


def unnamed_year_dropped(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """Rows kept by a year the question never names (:func:`fit.unnamed_year`): that filter
    dropped, ``df[df['year'] == 1970]['volume']`` → ``df['volume']`` and ``df.loc[df['year'] ==
    1970, 'volume']`` → ``df.loc[:, 'volume']``. Only where the comparison is the whole filter of
    a selection; anywhere else it is left to the model."""
    compares = unnamed_years(question, tree)
    edits: list[tuple[ast.AST, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Subscript) or not isinstance(node.ctx, ast.Load):
            continue  # an assignment to the selected rows (df[mask] = 0) is no selection to drop
        if any(node.slice is compare for compare in compares):
            owner = node.value
            if isinstance(owner, ast.Attribute) and owner.attr in ("loc", "iloc"):
                owner = owner.value  # df.loc[mask] is the rows of df
            edits.append((node, ast.get_source_segment(code, owner) or ast.unparse(owner)))
        elif (isinstance(node.slice, ast.Tuple) and node.slice.elts and any(node.slice.elts[0] is c for c in compares)
              and isinstance(node.value, ast.Attribute) and node.value.attr == "loc"):
            edits.append((node.slice.elts[0], ":"))
    mended = replace_nodes(code, edits) if edits else None
    return mended if mended and parses(mended) else None


def excluded_dropped(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """``df['year'] == 2009`` where the question leaves 2009 out (:func:`fit.kept_excluded`): the
    rows other than those, ``df['year'] != 2009``."""
    edits = [(node, dropped_form(node)) for node in kept_excluded(question, tree) or kept_text_tests(question, tree)]
    mended = replace_nodes(code, edits) if edits else None
    return mended if mended and parses(mended) else None


def decade_named(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """``year // 10`` for a question about decades (:func:`fit.decade_number`): ``year // 10 * 10``."""
    node = decade_number(question, tree)
    mended = replace_nodes(code, [(node, f"({ast.get_source_segment(code, node) or ast.unparse(node)}) * 10")]) if node else None
    return mended if mended and parses(mended) else None


def precedence(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """``df['a'] / df['b'].mean()`` for "the mean ratio of a to b" (operator precedence: the mean
    of b, not of the ratio): the aggregate of the per-row values (``(df['a'] / df['b']).mean()``),
    and a following ``result = result.iloc[0]`` dropped."""
    agg = _asked_aggregate(question)
    if not agg:
        return None
    changed = False

    class Fix(ast.NodeTransformer):
        def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
            nonlocal changed
            self.generic_visit(node)
            right = node.right
            if (isinstance(right, ast.Call) and isinstance(right.func, ast.Attribute) and right.func.attr == agg and not right.args
                    and isinstance(right.func.value, ast.Subscript) and isinstance(node.left, ast.Subscript)
                    and isinstance(node.op, (ast.Div, ast.Mult, ast.Sub, ast.Add))):
                changed = True
                return ast.Call(func=ast.Attribute(value=ast.BinOp(left=node.left, op=node.op, right=right.func.value), attr=agg,
                                                   ctx=ast.Load()), args=[], keywords=[])
            return node

    mended = Fix().visit(ast.parse(code))
    if not changed:
        return None
    mended.body = [s for s in mended.body if not (isinstance(s, ast.Assign) and re.fullmatch(
        r"result = result\.(iloc|values)\[0\]|result = result\[0\]", ast.unparse(s)))]
    return ast.unparse(ast.fix_missing_locations(mended)) + "\n"


def share_of_totals(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """``result = df['a'] / df['b'] * 100`` (each row's ratio) for "what share of all b is a": the
    share of the totals, ``df['a'].sum() / df['b'].sum() * 100``. Not when the question asks an
    aggregate of the shares ("the mean share"), nor after a grouping."""
    if not (SHARE_OF.search(question or "") and asks_one_value(question) and not CHANGE.search(question or "")
            and not _asked_aggregate(question)) or er.get("result_type") != "Series" or not _numeric_series(er.get("result_str") or ""):
        return None
    last = next((s for s in reversed(getattr(tree, "body", [])) if isinstance(s, ast.Assign)
                 and [ast.unparse(t) for t in s.targets] == ["result"]), None)
    if _grouped(tree) or last is None:
        return None
    ratios = [n for n in ast.walk(last.value) if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div)
              and isinstance(n.left, ast.Subscript) and isinstance(n.right, ast.Subscript)]
    if len(ratios) != 1:
        return None
    ratio = ratios[0]
    ratio.left, ratio.right = (ast.Call(func=ast.Attribute(value=side, attr="sum", ctx=ast.Load()), args=[], keywords=[])
                               for side in (ratio.left, ratio.right))
    lines = code.rstrip("\n").splitlines()
    return "\n".join(lines[:last.lineno - 1] + [ast.unparse(ast.fix_missing_locations(last))] + lines[last.end_lineno:]) + "\n"


def rank_method(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """Pearson's correlation for a question that names Spearman's (or Kendall's): ``method=`` added
    to each ``.corr()`` / ``.corrwith()`` and ``pearsonr`` called as ``spearmanr`` (``kendalltau``),
    which unpack the same way (statistic, p-value); a method given as 'pearson' is replaced. ``np.corrcoef``
    has no such twin: left as is."""
    method = named_rank_method(question)
    edits = []
    for call in pearson_calls(question, tree):
        func = call.func
        twin = "spearmanr" if method == "spearman" else "kendalltau"
        if isinstance(func, ast.Attribute) and func.attr in ("corr", "corrwith"):
            args = ([ast.unparse(a) for a in call.args if not (isinstance(a, ast.Constant) and isinstance(a.value, str))]
                    + [ast.unparse(k) for k in call.keywords if k.arg != "method"] + [f"method={method!r}"])
            edits.append((call, f"{ast.unparse(func)}({', '.join(args)})"))
        elif isinstance(func, ast.Attribute) and func.attr == "pearsonr":
            edits.append((func, ast.unparse(func)[:-len("pearsonr")] + twin))
        elif isinstance(func, ast.Name) and func.id == "pearsonr":  # imported bare: the sandbox binds stats
            edits.append((func, f"stats.{twin}"))
    mended = replace_nodes(code, edits) if edits else None
    return mended if mended and parses(mended) else None


def intercept_added(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """``sm.OLS(y, X)`` with no constant (``fit.stats.model_without_intercept``): X written
    ``sm.add_constant(X)``. Not when the code reads the coefficients by position (``params[1]``,
    ``params.iloc[0]``): a constant first would shift them."""
    call = model_without_intercept(question, tree)
    if call is None or re.search(r"\.(?:params|bse|pvalues|tvalues)(?:\.(?:iloc|values))?\[\s*-?\d", code):
        return None
    exog = call.args[1] if len(call.args) >= 2 else next(k.value for k in call.keywords if k.arg == "exog")
    mended = replace_nodes(code, [(exog, f"sm.add_constant({ast.unparse(exog)})")])
    return mended if mended and parses(mended) else None


_COUNT = re.compile(r"\bhow many\b|\bnumber of\b|\bcount\b", re.I)


def counts_summed(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """A count asked ("how many … of both types together") and a named value that is a dict of
    counts per group (``{'type1|2': 117, 'type3': 47}``; batch K, seen, verified so): the counts
    added up. Only whole numbers, and only when the question asks a count."""
    if not _COUNT.search(question or "") or er.get("result_type") != "dict":
        return None
    values = named_values(er.get("result_str")) or {}
    keys = [k for k, node in values.items() if isinstance(node, ast.Dict) and node.values and all(
        isinstance(v, ast.Constant) and type(v.value) is int for v in node.values)]
    if len(keys) != 1 or keys[0] not in written_values(tree):
        return None
    return code.rstrip("\n") + f"\nresult[{keys[0]!r}] = sum(result[{keys[0]!r}].values())\n"


def year_lag(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """A year-on-year change on quarterly or monthly rows lagged by another number of rows
    (``fit.rows.year_lag_misfit``): each such lag written as the rows in a year."""
    found = year_lag_misfit(question, tree, facts.per_year)
    if found is None:
        return None
    edits = [(n.args[0] if n.args else next(k.value for k in n.keywords if k.arg in ("periods", "n")), str(facts.per_year))
             for n in ast.walk(tree) if isinstance(n, ast.Call) and year_lag_misfit(question, ast.Expression(body=n), facts.per_year)]
    mended = replace_nodes(code, edits) if edits else None
    return mended if mended and parses(mended) else None


_SUBSET_CLAUSE = re.compile(r"\b(?:among|of|out of|within)\s+(?:the\s+|all\s+|those\s+)?(?:[\w|-]+\s+){0,4}?"
                            r"(?:whose|with|where|that|which|who|having)\b([^,;?]*)", re.I)
"""A subset the question names: "Of the stays whose codes value is 9", "among the rows with codes 9"."""


def _and_terms(node: ast.AST) -> list[ast.AST]:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd):
        return _and_terms(node.left) + _and_terms(node.right)
    return [node]


def _named_in(condition: ast.AST, clauses: list[str]) -> bool:
    """Does a subset clause of the question name the condition's column or its text value?"""
    words = {n.slice.value for n in ast.walk(condition) if isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant)
             and isinstance(n.slice.value, str)}
    words |= {n.attr for n in ast.walk(condition) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}
    words |= {n.value for n in ast.walk(condition) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    return any(re.search(rf"(?<![\w|]){re.escape(w.lower())}(?![\w|])", clause) for w in words if w for clause in clauses)


def share_of_subset(question: str, code: str, tree: ast.AST, er: dict, facts: MendFacts) -> str | None:
    """``len(df[(a) & (b)]) / len(df)`` for "of the rows whose a, what share are b"
    (``fit.sanity.subset_share_misfit``): divided by the rows of the subset the question names,
    ``len(df[a])``. Only when the question's subset clause names some of the conditions and not
    all of them (which condition makes the subset is then not a guess)."""
    found = subset_share_division(question, tree)
    if found is None:
        return None
    division, counted, whole = found
    if not (isinstance(counted, ast.Subscript) and ast.unparse(counted.value) == whole):
        return None
    terms = _and_terms(counted.slice)
    clauses = [m.group(0).lower() for m in _SUBSET_CLAUSE.finditer(without_examples(question))]
    base = [t for t in terms if _named_in(t, clauses)]
    if not base or len(base) == len(terms):
        return None
    subset = " & ".join(f"({ast.unparse(t)})" for t in base) if len(base) > 1 else ast.unparse(base[0])
    mended = replace_nodes(code, [(division.right, f"len({whole}[{subset}])")])
    return mended if mended and parses(mended) else None


AFTER_MISFIT: list[tuple[str, MisfitMend]] = [
    ("rank correlation named", rank_method),
    ("intercept added", intercept_added),
    ("ddof as asked", ddof_as_asked),
    ("continuity correction as asked", correction_as_asked),
    ("unit kept as written", unit_as_written),
    ("month named as asked", month_named),
    ("the end the question asks", end_as_asked),
    ("share of the present rows", present_rows),
    ("share per group ranked", share_per_group),
    ("a year back in rows", year_lag),
    ("year filter added", year_filter),
    ("unnamed year's filter dropped", unnamed_year_dropped),
    ("left-out rows dropped", excluded_dropped),
    ("left-out year dropped", excluded_year_dropped),
    ("decade named by its first year", decade_named),
    ("the group of the value beside it", group_of_the_value),  # before the next two: its idxmin gives a row number too
    ("row label → name", name_at_row),
    ("row label → value at the row", named_at_row),
    ("row numbers → names", names_of_rows),
    ("the picked row's name, not its value", name_of_the_pick),
    ("share among the subset asked", share_of_subset),
    ("share of the totals", share_of_totals),  # before the mean of the per-row shares
    ("aggregate of the per-row values", precedence),  # before the next: a / b.mean() is no per-row value
    ("aggregate of the per-row values", aggregate_series),
    ("counts per group added up", counts_summed),
    ("groups kept by their size", group_size_kept),
]
"""The after-misfit mends in the order they are tried: (label for the run log, mend)."""


def mend_misfit(question: str, code: str, execution_result: dict | None, facts: MendFacts) -> tuple[str, str] | None:
    """The first mend that applies: (mended code, what it did), else None."""
    try:
        tree = ast.parse(code or "")
    except SyntaxError:
        return None
    for label, mend in AFTER_MISFIT:
        mended = mend(question, code, tree, execution_result or {}, facts)
        if mended and mended.strip() != code.strip():
            return mended, label
    return None


def mend_chain(question: str, code: str, execution_result: dict | None, facts: MendFacts,
               run: Callable[[str], tuple[Any, dict | None]], misfit: Callable[[str, dict | None], str | None],
               steps: int = 3) -> tuple[str, Any, dict | None, list[str]] | None:
    """Mend, run and check up to ``steps`` times (a year filter, then the name at idxmax's row);
    (code, run, result, labels) once the result fits, else None (the model's own code is kept)."""
    labels: list[str] = []
    for _ in range(steps):
        found = mend_misfit(question, code, execution_result, facts)
        if found is None:
            return None
        code, label = found
        labels.append(label)
        outcome, execution_result = run(code)
        if not outcome.success:
            return None
        if misfit(code, execution_result) is None:
            return code, outcome, execution_result, labels
    return None
