"""result_misfit: every fit check, in the order they are tried, and the wording checks it keeps here.

A new check goes in :func:`result_misfit` (a check of each value of a dict of named values in
``fit.named``); a mend that fixes a misfit by code goes to ``mends/after_misfit.py``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping

from dsagent.workflows.common.fit.cycle import cycle_misfit, month_name_misfit
from dsagent.workflows.common.fit.ends import wrong_end_misfit
from dsagent.workflows.common.fit.shares import share_misfit
from dsagent.workflows.common.fit.labels import code_not_held, numbered_names, period_without_year
from dsagent.workflows.common.fit.named import finer_than_year, named_misfit
from dsagent.workflows.common.fit.regression import swapped_response
from dsagent.workflows.common.fit.negation import contradictory_filter, dropped_form, kept_excluded, kept_text_tests
from dsagent.workflows.common.fit.rows import (group_size_asked, group_size_unread, idle_loop,
                                              part_of_year, unmatched_filter, unnamed_year, whole_table_column, year_lag_misfit)
from dsagent.workflows.common.fit.sanity import (degenerate_test, every_row_unusual, impossible_result, period_count_misfit,
                                                  statistic_out_of_range, subset_share_misfit)
from dsagent.workflows.common.fit.units import rescaled_misfit
from dsagent.workflows.common.fit.unused import unused_label_misfit
from dsagent.workflows.common.fit.stats import one_value_sample, stats_misfit, target_as_answer
from dsagent.workflows.common.fit.wide import wide_period_misfit
from dsagent.workflows.common.naming import (FIGURE_MAKERS, FIGURE_NAMES, group_label, group_label_as_row, label_ranked, name_column, named_after_which, position_call, time_column)
from dsagent.workflows.common.wording import AGGREGATE, WHICH, WHICH_OPENS, first_sentence, requested_keys

_ONE_VALUE = re.compile(r"^\W*(?:(?:in|on|at|for|from|of)\s+)?(what(?:'s| is| was| are)?\s+(?:the\s+)?(?:mean|average|median|total|sum|maximum|minimum|"
                        r"highest|lowest|largest|smallest|percentage|share|proportion|fraction|number|count|standard deviation|"
                        r"variance|correlation|ratio)\b|which\b|who\b|how many\b|how much\b)", re.I)
_MANY = re.compile(r"\b(each|every|per (?!capita|cent|person|head)|(?<!divided )(?<!multiplied )by|list|top\s*\d*|bottom\s*\d*|"
                   r"first\s+\d+|rank|ranking|show|plot|chart|graph|visuali[sz]e|distribution|breakdown|trend|over time|"
                   r"compare)\b|\b(which|what)\s+\w+\s+(are|were)\b|\bthree|\btwo\b|\bfive\b|\bten\b|\d+\s+\w+(ies|s)\b",
                   re.I)
_MULTIROW = re.compile(r"\n.*\n")


def asks_one_value(question: str) -> bool:
    """The question asks for one value: "what is the mean …", "which country …", "how many …"."""
    first = first_sentence(question)
    return bool(_ONE_VALUE.search(first)) and not _MANY.search(question or "")


def result_misfit(question: str, code: str, execution_result: dict | None, labels: Iterable[str] = (),
                  text_columns: Iterable[str] = (), columns: Iterable[str] = (), periods: Mapping[str, int] | None = None,
                  values: Mapping[str, frozenset] | None = None, per_year: int | None = None, rows: int | None = None) -> str | None:
    """Why a successful run's ``result`` does not answer ``question``, said for the code step; else None.

    ``labels``: the data's text values (grounding.data_labels), to check that a group the question
    names is used by the code; ``text_columns``: the names of the data's text columns, to say which
    one holds the name a "which …" question asks for; ``columns``: every column name, to see a
    number column the question aggregates that the code only counted; ``periods``: the distinct
    calendar periods the data covers (``MendFacts.periods``), to see a count of months that counted rows;
    ``values``: the values of the data's columns of few values (``MendFacts.values``), to see a filter
    that keeps no row; ``per_year``: 4 or 12 when each row is a quarter or a month (``MendFacts.per_year``);
    ``rows``: the one table's row count (``MendFacts.rows``), to see a count of outliers that is every row.
    """
    er = execution_result or {}
    try:
        tree = ast.parse(code or "")
    except SyntaxError:
        return None
    figure = _figure_as_result(tree)
    if figure:
        return (f"ResultIsAFigure: `result = {figure}` replaces the answer with a chart. Keep the chart in `fig` "
                "and the computed answer (the numbers or the name) in `result`.")
    kind, shown = er.get("result_type") or "", er.get("result_str") or ""
    ranked = label_ranked(tree, text_columns)
    if ranked:
        call, column = ranked
        return (f"ResultDoesNotFitQuestion: `{call}` ranks the text of the labels themselves and gives a row number, "
                f"not the group the question asks for. Compute the value per group and take the top one, e.g. "
                f"df.groupby({column!r})['value_col'].mean().{call.rsplit('.', 1)[-1]}.")
    row_by_group = group_label_as_row(tree)
    if row_by_group:
        return (f"ResultDoesNotFitQuestion: `{row_by_group}` looks a row up by the group label that "
                f"`{group_label(row_by_group)}` gives (a group's name or number, not a row's), so it reads an unrelated row. "
                f"The group label is the answer itself: use `{group_label(row_by_group)}` directly.")
    wide = (wide_period_misfit(question, kind, shown, columns) or cycle_misfit(question, kind, shown)
            or month_name_misfit(question, kind, shown))
    if wide:
        return wide
    single = one_value_sample(tree)
    if single:
        return (f"ResultDoesNotFitQuestion: `{single[:80]}` gives the test one value as a sample (x[0] is the first row, "
                "not a group). A sample is all the rows of one group: a = df.loc[df['group_col'] == value_1, 'x']; "
                "b = df.loc[df['group_col'] == value_2, 'x']; then run the test on a and b.")
    named = named_misfit(question, tree, shown, columns, text_columns) if kind == "dict" else None
    if named:
        return named
    one = asks_one_value(question)
    impossible = (impossible_result(question, kind, shown, one or bool(requested_keys(question)))
                  or _counted(question, code, columns, text_columns, values) or _self_grouped(code)
                  or period_count_misfit(question, code, kind, shown, periods or {}) or subset_share_misfit(question, tree)
                  or share_misfit(question, tree, columns, values or {})
                  or every_row_unusual(question, kind, shown, rows) or rescaled_misfit(question, tree, columns)
                  or contradictory_filter(tree) or swapped_response(question, tree, columns) or wrong_end_misfit(question, tree))
    if impossible:
        return impossible
    invented = unnamed_year(question, tree)
    if invented is not None:
        return (f"ResultDoesNotFitQuestion: `{ast.unparse(invented)}` filters the rows on a year the question does not ask "
                "about (it never names it, or names it only as an end of the span it asks about as a whole). Use the rows "
                "the question asks about: all of them unless it names one year or period.")
    unmatched = unmatched_filter(tree, values or {})
    if unmatched is not None:
        compare, column, held = unmatched
        return (f"ResultDoesNotFitQuestion: `{ast.unparse(compare)}` keeps no row: the column {column!r} holds {held}, so the "
                "result comes from no data. Filter on a value the column holds, or leave the filter out when the question's "
                "value describes something else (a column's name, such as 'x80' for 1980).")
    lagged = year_lag_misfit(question, tree, per_year)
    if lagged is not None:
        return (f"ResultDoesNotFitQuestion: `{ast.unparse(lagged[0])}` compares rows {ast.unparse(lagged[0].args[0]) if lagged[0].args else ''} "
                f"apart, but each row is one {'quarter' if lagged[1] == 4 else 'month'}: the same period a year earlier is "
                f"{lagged[1]} rows back ({lagged[0].func.attr}({lagged[1]}), rows in time order).")
    loop = idle_loop(tree)
    if loop is not None:
        head = ast.unparse(loop).splitlines()[0]
        return (f"ResultDoesNotFitQuestion: the loop `{head}` never reads {ast.unparse(loop.target).strip('()')} in what it computes, so "
                "every pass computes the same value over all the rows. Select each pass's rows by its group, "
                "df[df['col'] == value], or compute every group at once with df.groupby('col').")
    size = group_size_unread(question, tree)
    if size is not None:
        compared = (group_size_asked(question) or (">=", size))[0]
        said = {">=": "at least", ">": "more than", "<": "fewer than", "<=": "at most"}[compared]
        return (f"ResultDoesNotFitQuestion: the question keeps the groups that have {said} {size} rows, but the code "
                f"never counts rows per group (a value compared with {size} is no group size). Count them first: n = "
                f"df.groupby('key').size(); kept = df[df['key'].isin(n[n {compared} {size}].index)], then compute on the kept rows.")
    part = part_of_year(question, tree)
    if part is not None:
        return (f"ResultDoesNotFitQuestion: the question names the year {part[1]} as a whole, but `{ast.unparse(part[0])}` keeps "
                f"only one part of it. A year is all of its rows: select them by the year (the part of the label before its "
                f"quarter or month, or the dates' .dt.year == {part[1]}), then take from them what the question asks (their total or "
                f"mean, or one of its ends).")
    constant = whole_table_column(tree)
    if constant is not None:
        return (f"ResultDoesNotFitQuestion: `{constant}` is one number for the whole table (each aggregate reads every row), so "
                "every group gets the same value. Aggregate per group first, e.g. g = df.groupby('key')[['a', 'b']].sum(), "
                "then compute the value from each group's totals: g['a'] / g['b'].")
    statistic = (stats_misfit(question, tree, kind, shown) or target_as_answer(question, kind, shown, list(columns))
                 or statistic_out_of_range(kind, shown) or degenerate_test(kind, shown, tree))
    if statistic:
        return statistic
    decade = decade_number(question, tree)
    if decade is not None:
        text = ast.unparse(decade)
        return (f"ResultDoesNotFitQuestion: `{text}` numbers the decades (195 for the 1950s), but a decade is named by its "
                f"first year: `{text} * 10` (1950).")
    kept = kept_excluded(question, tree) or kept_text_tests(question, tree)
    if kept:
        return (f"ResultDoesNotFitQuestion: the question leaves those rows out, but `{ast.unparse(kept[0])}` keeps only them. "
                f"Keep the other rows instead: `{dropped_form(kept[0])}`.")
    if one and kind in ("Series", "DataFrame") and _MULTIROW.search(shown):
        rows = _rows(shown)
        return (f"ResultDoesNotFitQuestion: the question asks for one value, but `result` is a {kind}"
                f"{f' of {rows} rows' if rows else ''}. Reduce it to the single answer (for example .mean() or .sum() "
                "of the computed column, or the top label of the grouped values with .idxmax()), and put that in `result`.")
    stray = code_not_held(question, kind, shown, values or {})
    if stray is not None:
        value, column, held = stray
        return (f"ResultDoesNotFitQuestion: `result` is {value}, but {column!r} holds only {', '.join(map(str, held[:12]))}: "
                f"{value} is a row number or a count, not the {column} the question asks for. Compute the value per {column} "
                f"and take the label of the top one, e.g. result = df.groupby({column!r})['value_col'].mean().idxmax().")
    finer = finer_than_year(question, shown.strip().strip("'\"")) if kind in ("str", "Period", "Timestamp") else None
    if finer:
        return finer
    bare = period_without_year(question, code, kind, shown, values or {})
    if bare is not None:
        label, period, year = bare
        return (f"ResultDoesNotFitQuestion: `result` gives {label!r}, a {period} label that every year in {year!r} has, but the "
                f"question asks for one moment. Name it with its year, e.g. f\"{{row[{year!r}]}}-{{row[{period!r}]}}\" for the row "
                f"picked, written as the question's format asks.")
    whole = kind in ("int", "int64", "int32") and position_call(tree) is None and named_after_which(question, text_columns)
    if WHICH_OPENS.search(question or "") and (kind in ("float", "float64", "float32") or whole):
        name = name_column(question, text_columns)
        return (f"ResultDoesNotFitQuestion: the question asks which one (a name), but `result` is the number {shown.strip()[:40]}. "
                f"Compute the value for every {repr(name) if name else 'group'} and take the label of the top one, e.g. "
                f"result = df.groupby({name or 'name_col'!r})['value_col'].sum().idxmax().")
    first_row = _first_row_of_aggregate(question, code)
    if first_row:
        return (f"ResultDoesNotFitQuestion: `{first_row}` takes the first row's value, not the aggregate the question asks for. "
                "Compute the per-row values as a column first (df['r'] = df['a'] / df['b']), then aggregate that column "
                "(result = df['r'].mean()).")
    call = position_call(tree)
    if WHICH.search(question or "") and kind in ("int", "int64", "int32") and call:
        name = name_column(question, text_columns) or time_column(question, text_columns)
        fix = (f"result = df.loc[{call}, {name!r}]" if name else
               f"result = df.loc[{call}, 'name_col'] with the column that holds the names")
        return (f"ResultDoesNotFitQuestion: the question asks which one (a name), but `result` is {shown.strip()}, the "
                f"row label that {call.rsplit('.', 1)[-1]} gives, not the name. Take the name at that row: {fix}.")
    numbered = numbered_names(question, code, er, text_columns)
    if numbered:
        return (f"ResultDoesNotFitQuestion: the question asks which ones (names), but the rows of `result` are row numbers, "
                f"not names. Label them with the names: {numbered}")
    return unused_label_misfit(question, code, tree, labels, columns)


def _counted(question: str, code: str, columns: Iterable[str], text_columns: Iterable[str],
             values: Mapping[str, frozenset] | None = None) -> str | None:
    """``value_counts()`` (rows per group) where the question asks the total, the mean or the rate
    ("the share of its passengers with survived equal to 1") of a number column it names, which
    the code never reads (by ``['col']`` or ``.col``). A rate only of a 0/1 column, and not when the
    counts are normalized (``value_counts(normalize=True)`` is a share of rows, which may be asked)."""
    aggregate = AGGREGATE.search(question or "")
    rate = not aggregate
    asked = aggregate or _RATE.search(question or "")
    if not asked or "value_counts(" not in (code or "") or (rate and "normalize" in code):
        return None
    texts = set(text_columns)
    for column in columns:
        if column in texts or not re.search(rf"(?<!\w){re.escape(column)}(?!\w)", question, re.I):
            continue
        if rate and not (set((values or {}).get(column, ())) <= {0, 1} and (values or {}).get(column)):
            continue  # a rate is the mean of a 0/1 column
        if not re.search(rf"['\"]{re.escape(column)}['\"]|\.{re.escape(column)}\b", code):
            return (f"ResultDoesNotFitQuestion: value_counts() counts the rows of each group, but the question asks for the "
                    f"{asked.group(1).lower()} of {column!r}, which the code never reads. Aggregate that column per group, "
                    f"e.g. df.groupby('group_col')[{column!r}].{'mean()' if rate else 'sum()'}"
                    f"{' (the share of rows where it is 1)' if rate else ''}.")
    return None


_RATE = re.compile(r"\b(rate|chance|likelihood|probability|proportion|share|fraction|percentage)\b", re.I)

_SELF_GROUPED = re.compile(r"\.groupby\(\s*(['\"])([^'\"]+)\1\s*\)\s*\[\s*(['\"])\2\3\s*\]")


def _self_grouped(code: str) -> str | None:
    """``df.groupby('a')['a']``: a column grouped by its own values (each group's mean is its value)."""
    match = _SELF_GROUPED.search(code or "")
    if not match:
        return None
    return (f"ResultDoesNotFitQuestion: .groupby({match.group(2)!r})[{match.group(2)!r}] groups a column by its own values, "
            "so each group's aggregate is just its value. To compare columns, aggregate each column: "
            "df[['col_a', 'col_b']].mean().idxmax(); to compare groups, group by another column.")


_FIRST_ROW = re.compile(r"^result\s*=\s*(.+?(?:\.iloc\[0\]|\.values\[0\]|\.iat\[0\]))\s*$", re.M)


def _first_row_of_aggregate(question: str, code: str) -> str | None:
    """``result = x.iloc[0]`` for "what is the mean …", with nothing sorted or ranked first: the first
    row, not the aggregate (the model's way of making a Series fit)."""
    first = first_sentence(question)
    if not (asks_one_value(question) and AGGREGATE.search(first)):
        return None
    if re.search(r"sort_values|nlargest|nsmallest|idxmax|idxmin|groupby", code or ""):
        return None
    match = _FIRST_ROW.search(code or "")
    return match.group(0).strip() if match else None


def _rows(shown: str) -> int | None:
    match = re.search(r"\[([\d,]+) rows x|Length: ([\d,]+)", shown)
    if match:
        return int((match.group(1) or match.group(2)).replace(",", ""))
    lines = [line for line in shown.splitlines() if line.strip() and not line.startswith("Name:")]
    return max(len(lines) - 1, 0) or None


def _figure_as_result(tree: ast.AST) -> str | None:
    """The source of the last value assigned to ``result`` when it is a figure (``fig`` or a chart call)."""
    last = None
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "result" for t in node.targets):
            if last is None or (node.lineno, node.col_offset) > (last.lineno, last.col_offset):
                last = node
    if last is None:
        return None
    value = last.value
    if isinstance(value, ast.Name) and value.id in FIGURE_NAMES:
        return value.id
    if isinstance(value, ast.Call) and FIGURE_MAKERS.match(ast.unparse(value.func)):
        return ast.unparse(value.func) + "(...)"
    return None


def decade_number(question: str, tree: ast.AST) -> ast.BinOp | None:
    """``year // 10`` for a question about decades, never scaled back by 10: the decade's number
    (195), not the decade the question names by its first year (1950). Scaled: a product with 10
    anywhere above it in its statement (``(y // 10).astype(int) * 10``), or a name it is assigned
    to that the code multiplies by 10 (``d = y // 10`` … ``d *= 10`` or ``d * 10``)."""
    if not re.search(r"\bdecades?\b", question or "", re.I):
        return None
    ten = lambda node: isinstance(node, ast.Constant) and node.value == 10  # noqa: E731
    scaled_names = {n.target.id for n in ast.walk(tree) if isinstance(n, ast.AugAssign) and isinstance(n.op, ast.Mult)
                    and isinstance(n.target, ast.Name) and ten(n.value)}
    scaled_names |= {side.id for n in ast.walk(tree) if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult)
                     for side, other in ((n.left, n.right), (n.right, n.left)) if isinstance(side, ast.Name) and ten(other)}
    for statement in ast.walk(tree):
        if not isinstance(statement, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Return)):
            continue  # simple statements: a compound one's parts are visited on their own
        targets = {t.id for t in getattr(statement, "targets", []) if isinstance(t, ast.Name)}
        if targets & scaled_names:
            continue
        products = [n for n in ast.walk(statement) if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult)
                    and (ten(n.left) or ten(n.right))]
        under_product = {id(inner) for product in products for inner in ast.walk(product)}
        for node in ast.walk(statement):
            if (isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv) and ten(node.right)
                    and id(node) not in under_product):
                return node
    return None
