"""A chosen operation written as readable pandas: the code the user sees, runs and can re-run.

Each operation is one small function from a checked :class:`~dsagent.ops.choice.Choice` to source
lines that end in ``result = …``. The code reads only ``df`` (or the frame name given) and
pandas/scipy, so it runs in the sandbox as a model's code would and outside dsagent unchanged.
Filter values are written as the column holds them (a category value in its own spelling, a number
as a number, a date compared as a date), which is what makes a choice's code right where a
model's hand-written filter often is not.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from dsagent.ops.choice import Choice, Filter, matched_value, problems
from dsagent.ops.schema import TableSchema

_PANDAS_AGG = {"mean": "mean", "median": "median", "sum": "sum", "min": "min", "max": "max", "std": "std",
               "count": "count", "nunique": "nunique"}
_FREQ = {"day": "D", "week": "W", "month": "MS", "quarter": "QS", "year": "YS"}


MARK = "# operation: "
"""The first line of compiled code: which operation it computes (read back by :func:`composed`)."""


class NotCompilable(ValueError):
    """The choice cannot run on this table; the message lists why (``choice.problems``)."""


def typed_value(value: Any, column: Any) -> int | float | str:
    """``value`` as the column holds it: a category value in its own spelling, a number as an int
    (a whole number) or a float, else text. The pandas and the SQL writers both write it."""
    if column is not None and column.values:
        matched = matched_value(value, column.values)
        if matched is not None:
            value = matched
    if column is not None and (column.numeric or column.kind == "number"):
        number = float(value)
        return int(number) if number.is_integer() else number
    return str(value)


def _literal(value: Any, column: Any) -> str:
    """``value`` as a Python literal of the column's own type."""
    return repr(typed_value(value, column))


_PARTIAL_DATE = re.compile(r"(\d{4})(?:-(\d{1,2}))?")


def period_bounds(value: Any, as_text: bool = False) -> tuple[str, str] | None:
    """A year (``2015``) or a month (``2015-03``) written as a date filter's value: the first day of
    that period and of the next (ISO dates), so "in 2015" means the whole year, not its first
    instant. ``as_text``: the period itself and the next (``2015-03``, ``2015-04``), bounds that
    compare right, as text, with ISO dates, timestamps and ``YYYY-MM`` values alike (SQL compares the
    column cast to text). None for a full date or anything else (it compares as written)."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    m = _PARTIAL_DATE.fullmatch(str(value).strip())
    if m is None:
        return None
    year, month = int(m.group(1)), m.group(2)
    if month is None:
        return (f"{year:04d}", f"{year + 1:04d}") if as_text else (f"{year:04d}-01-01", f"{year + 1:04d}-01-01")
    if not 1 <= int(month) <= 12:
        return None
    after = (year + 1, 1) if int(month) == 12 else (year, int(month) + 1)
    if as_text:
        return f"{year:04d}-{int(month):02d}", f"{after[0]:04d}-{after[1]:02d}"
    return f"{year:04d}-{int(month):02d}-01", f"{after[0]:04d}-{after[1]:02d}-01"


def period_terms(op: str, bounds: tuple[str, str]) -> tuple[list[tuple[str, str]], str]:
    """The comparisons a filter ``op <period>`` means, against the period's bounds, and how they
    combine (``and`` / ``or``): ``== 2015`` is from 2015-01-01 up to 2016-01-01, ``> 2015`` from 2016-01-01."""
    start, end = bounds
    return {"==": ([(">=", start), ("<", end)], "and"), "!=": ([("<", start), (">=", end)], "or"),
            ">=": ([(">=", start)], "and"), "<": ([("<", start)], "and"),
            ">": ([(">=", end)], "and"), "<=": ([("<", end)], "and")}[op]


def _date_condition(left: str, f: Filter) -> str:
    bounds = period_bounds(f.value)
    if bounds is None:
        return f"(pd.to_datetime({left}) {f.op} pd.Timestamp({str(f.value)!r}))"
    terms, joined = period_terms(f.op, bounds)
    parts = [f"(pd.to_datetime({left}) {op} pd.Timestamp({bound!r}))" for op, bound in terms]
    return parts[0] if len(parts) == 1 else "(" + (" & " if joined == "and" else " | ").join(parts) + ")"


def _mask(frame: str, filters: list[Filter], schema: TableSchema) -> str:
    parts = []
    for f in filters:
        col = schema.column(f.column)
        left = f"{frame}[{f.column!r}]"
        if col is not None and col.kind == "date":
            parts.append(_date_condition(left, f))
        else:
            parts.append(f"({left} {f.op} {_literal(f.value, col)})")
    return " & ".join(parts)


def _data(frame: str, filters: list[Filter], schema: TableSchema) -> list[str]:
    if not filters:
        return [f"data = {frame}"]
    return [f"data = {frame}[{_mask(frame, filters, schema)}]"]


def _agg(choice: Choice) -> str:
    return _PANDAS_AGG[choice.agg or "mean"]


def _value(c: Choice) -> str:
    """The value column, or its product with ``times`` row by row (units × price)."""
    if c.times:
        return f"(data[{c.column!r}] * data[{c.times!r}])"
    return f"data[{c.column!r}]"


def _aggregate(c: Choice, s: TableSchema) -> list[str]:
    return [f"result = {_value(c)}.{_agg(c)}()"]


def _grouped(c: Choice) -> str:
    if c.column is None or c.agg == "count" and c.column == c.by:
        return f"data[{c.by!r}].value_counts()"
    if c.times:
        return f"{_value(c)}.groupby(data[{c.by!r}]).{_agg(c)}()"
    return f"data.groupby({c.by!r})[{c.column!r}].{_agg(c)}()"


def _group_aggregate(c: Choice, s: TableSchema) -> list[str]:
    ascending = c.direction == "lowest"
    lines = [f"result = {_grouped(c)}.sort_values(ascending={ascending})"]
    if c.top:
        lines.append(f"result = result.head({int(c.top)})")
    return lines


def _extreme_group(c: Choice, s: TableSchema) -> list[str]:
    pick = "idxmin" if c.direction == "lowest" else "idxmax"
    what = f"{c.agg or 'mean'} of {c.column}{' * ' + c.times if c.times else ''}" if c.column else "rows"
    return [f"per_group = {_grouped(c)}",
            f"result = {{{c.by!r}: per_group.{pick}(), {what!r}: per_group.loc[per_group.{pick}()]}}"]


def _extreme_row(c: Choice, s: TableSchema) -> list[str]:
    pick = "idxmin" if c.direction == "lowest" else "idxmax"
    label = c.by or c.other
    lines = [f"row = data.loc[data[{c.column!r}].{pick}()]"]
    if label:
        return [*lines, f"result = {{{label!r}: row[{label!r}], {c.column!r}: row[{c.column!r}]}}"]
    return [*lines, f"result = row[{c.column!r}]"]


def _count_rows(c: Choice, s: TableSchema) -> list[str]:
    return ["result = len(data)"]


def _share(c: Choice, s: TableSchema) -> list[str]:
    return [f"meets = {_mask('data', c.condition, s)}", "result = 100 * meets.mean()  # percent of the rows"]


def _distinct_count(c: Choice, s: TableSchema) -> list[str]:
    return [f"result = data[{c.column!r}].nunique()"]


def _correlation(c: Choice, s: TableSchema) -> list[str]:
    return [f"result = data[{c.column!r}].corr(data[{c.other!r}])"]


def _change(c: Choice, s: TableSchema) -> list[str]:
    by = s.column(c.by or "")
    agg = c.agg or ("sum" if _repeats(s, c) or c.freq else "mean")
    if by is not None and by.kind == "date" and c.freq:  # a period of dates: month, year, …
        grouped = (f"per_period = data.set_index(pd.to_datetime(data[{c.by!r}]))[{c.column!r}]"
                   f".resample({_FREQ[c.freq]!r}).{_PANDAS_AGG[agg]}()")
    else:
        key = f"pd.to_datetime(data[{c.by!r}])" if by is not None and by.kind == "date" else f"data[{c.by!r}]"
        grouped = f"per_period = data.groupby({key})[{c.column!r}].{_PANDAS_AGG[agg]}().sort_index()"
    return [grouped,
            "first, last = per_period.iloc[0], per_period.iloc[-1]",
            "result = {'first period': per_period.index[0], 'last period': per_period.index[-1], 'first': first, "
            "'last': last, 'change': last - first, 'percent change': 100 * (last - first) / first}"]


def _repeats(s: TableSchema, c: Choice) -> bool:
    """A period column with fewer distinct values than rows: each period sums several rows."""
    col = s.column(c.by or "")
    return bool(col is not None and col.values and len(col.values) < s.rows)


def _quantile(c: Choice, s: TableSchema) -> list[str]:
    q = c.q if c.q is not None and c.q <= 1 else (c.q or 50) / 100
    return [f"result = data[{c.column!r}].quantile({q!r})"]


def _outliers(c: Choice, s: TableSchema) -> list[str]:
    return [f"values = data[{c.column!r}]",
            "q1, q3 = values.quantile(0.25), values.quantile(0.75)",
            "iqr = q3 - q1",
            "outside = (values < q1 - 1.5 * iqr) | (values > q3 + 1.5 * iqr)",
            "result = int(outside.sum())"]


def _compare_groups(c: Choice, s: TableSchema) -> list[str]:
    by = s.column(c.by or "")
    a, b = (_literal(g, by) for g in c.groups[:2])
    return ["from scipy import stats",
            f"a = data.loc[data[{c.by!r}] == {a}, {c.column!r}].dropna()",
            f"b = data.loc[data[{c.by!r}] == {b}, {c.column!r}].dropna()",
            "test = stats.ttest_ind(a, b, equal_var=False)  # Welch's t-test",
            f"result = {{'mean ' + str({a}): a.mean(), 'mean ' + str({b}): b.mean(), "
            "'t statistic': test.statistic, 'p value': test.pvalue}"]


def _regression(c: Choice, s: TableSchema) -> list[str]:
    return ["from scipy import stats",
            f"pairs = data[[{c.other!r}, {c.column!r}]].dropna()",
            f"fit = stats.linregress(pairs[{c.other!r}], pairs[{c.column!r}])",
            "result = {'slope': fit.slope, 'intercept': fit.intercept, 'r squared': fit.rvalue ** 2}"]


def _resample(c: Choice, s: TableSchema) -> list[str]:
    return [f"series = data.set_index(pd.to_datetime(data[{c.by!r}]))[{c.column!r}]",
            f"result = series.resample({_FREQ[c.freq or 'month']!r}).{_agg(c)}()"]


_WRITERS: dict[str, Callable[[Choice, TableSchema], list[str]]] = {
    "aggregate": _aggregate, "group_aggregate": _group_aggregate, "extreme_group": _extreme_group,
    "extreme_row": _extreme_row, "count_rows": _count_rows, "share": _share, "distinct_count": _distinct_count,
    "correlation": _correlation, "change": _change, "quantile": _quantile, "outliers": _outliers,
    "compare_groups": _compare_groups, "regression": _regression, "resample": _resample,
}


def compile_choice(choice: Choice, schema: TableSchema, frame: str = "df") -> str:
    """The pandas code for ``choice`` on the table ``frame`` (raises :class:`NotCompilable`)."""
    found = problems(choice, schema)
    if found:
        raise NotCompilable("; ".join(found))
    lines = [f"{MARK}{choice.op}", "import pandas as pd", *_data(frame, choice.filters, schema), *_WRITERS[choice.op](choice, schema)]
    return "\n".join(lines) + "\n"


def composed(code: str | None) -> str | None:
    """The operation a code was compiled from (its first line says so), else None."""
    first = (code or "").split("\n", 1)[0]
    return first[len(MARK):].strip() if first.startswith(MARK) else None


def run_choice(choice: Choice, frame: Any) -> Any:
    """Run the compiled code on ``frame`` (a copy: the caller's frame is never changed); returns ``result``.

    The same code the sandbox runs, run here: what the tests and a verifier compare."""
    from dsagent.ops.schema import table_schema

    code = compile_choice(choice, table_schema(frame))
    namespace: dict[str, Any] = {"df": frame.copy()}
    exec(compile(code, "<operation>", "exec"), namespace)  # noqa: S102 — our own generated code
    return namespace["result"]
