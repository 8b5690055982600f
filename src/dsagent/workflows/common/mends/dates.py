"""Before the run: a bound written as a day that misses that day's rows, ``.dt`` on dates written
as text and a date part of one such value, a sort on such dates, period labels read without their
format, and rows listed newest first read in their order (mends of ``BEFORE_RUN``, kept here so ``before_run`` stays small)."""

from __future__ import annotations

import ast
import datetime
import re

from dsagent.workflows.common.mends._edit import mend_nodes
from dsagent.workflows.common.mends.facts import MendFacts
from dsagent.workflows.common.naming import assigned_from

_DAY = r"(['\"])(\d{{4}}-\d{{2}}-\d{{2}})\{n}"  # a quoted day; {n} is the number of its quote's group
_UP_TO_DAY = re.compile(r"<=\s*" + _DAY.format(n=1))
_BETWEEN_DAYS = re.compile(r"([\w.()\[\]'\"]+)\s+(BETWEEN|between)\s+" + _DAY.format(n=3) + r"\s+(AND|and)\s+" + _DAY.format(n=6))
_PANDAS_BETWEEN = re.compile(r"\.between\(\s*" + _DAY.format(n=1) + r"\s*,\s*" + _DAY.format(n=3) + r"\s*\)")


def _day_after(day: str) -> str | None:
    """The ISO day after ``day``; None when ``day`` is no real day ('2025-02-30')."""
    try:
        return (datetime.date.fromisoformat(day) + datetime.timedelta(days=1)).isoformat()
    except ValueError:
        return None


def mend_last_day(code: str, facts: MendFacts | None = None) -> str:
    """A bound written as a day, ``<= '2025-12-31'`` (pandas, a query string or SQL), misses that
    day's rows whenever the column also holds a time of day ('2025-12-31 14:00' sorts after
    '2025-12-31'; a timestamp compares with its midnight): written ``< '2026-01-01'``, which keeps
    the whole day for dates with or without a time. Also SQL's ``x BETWEEN 'a' AND 'b'`` and
    pandas' ``.between('a', 'b')`` on days."""
    def up_to(match: re.Match[str]) -> str:
        after = _day_after(match.group(2))
        return f"< {match.group(1)}{after}{match.group(1)}" if after else match.group(0)

    def between(match: re.Match[str]) -> str:
        column, word, q1, first, conj, q2, last = match.groups()
        after = _day_after(last)
        if not after or column.count("(") != column.count(")") or column.count("[") != column.count("]"):
            return match.group(0)  # only a whole column or call: repeated, a cut one would break the query
        return f"{column} >= {q1}{first}{q1} {conj} {column} < {q2}{after}{q2}"

    def pandas_between(match: re.Match[str]) -> str:
        q1, first, q2, last = match.groups()
        after = _day_after(last)
        return f".between({q1}{first}{q1}, {q2}{after}{q2}, inclusive='left')" if after else match.group(0)

    code = _UP_TO_DAY.sub(up_to, code)
    code = _BETWEEN_DAYS.sub(between, code)
    return _PANDAS_BETWEEN.sub(pandas_between, code)


def mend_text_dates(code: str, facts: MendFacts | None = None) -> str:
    """``frame['col'].dt`` (or ``frame.col.dt``) on a column whose dates a CSV gave as text fails
    with "Can only use .dt accessor with datetimelike values", and a retry told so tends to fail the
    same way: written ``pd.to_datetime(frame['col']).dt``, parsed where it is used (the frame is
    not changed; a column already parsed by the code is read as it is)."""
    if facts is None or not facts.date_text:
        return code
    names = "|".join(re.escape(c) for c in sorted(facts.date_text, key=len, reverse=True))
    quoted = re.compile(r"(?<![\w.)\]])([A-Za-z_]\w*\[(['\"])(?:" + names + r")\2\])\.dt\b")
    code = quoted.sub(lambda m: f"pd.to_datetime({m.group(1)}).dt", code)
    if all(c.isidentifier() for c in facts.date_text):
        attribute = re.compile(r"(?<![\w.)\]])([A-Za-z_]\w*\.(?:" + names + r"))\.dt\b")
        code = attribute.sub(lambda m: f"pd.to_datetime({m.group(1)}).dt", code)
    return code


_DATE_PARTS = {"strftime", "year", "month", "day", "hour", "minute", "quarter", "day_name", "month_name", "dayofweek",
               "weekday", "date", "isoformat"}


def mend_text_date_value(code: str, facts: MendFacts | None = None) -> str:
    """A date part of one value of dates a CSV gave as text (``df.loc[i, 'DATE'].strftime('%Y-%m')``,
    ``df['DATE'].iloc[0].year``) is "'str' object has no attribute …": the value is parsed where it
    is used, ``pd.to_datetime(df.loc[i, 'DATE']).strftime(…)``. Only a value picked out of such a
    column by a subscript (a whole column has no ``.year``; a row number from idxmax is no date)."""
    if facts is None or not facts.date_text:
        return code
    quoted = {repr(c) for c in facts.date_text} | {'"' + c + '"' for c in facts.date_text}

    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        if not (isinstance(node, ast.Attribute) and node.attr in _DATE_PARTS and isinstance(node.value, ast.Subscript)):
            return None
        value = node.value
        picked = ast.unparse(value)
        whole_column = (isinstance(value.slice, ast.Constant) and isinstance(value.slice.value, str)
                        and isinstance(value.value, ast.Name))
        if whole_column or not any(q in picked for q in quoted) or "to_datetime" in picked:
            return None
        return value, f"pd.to_datetime({picked})"

    return mend_nodes(code, edit)


_DATES_KEY = "key=lambda s: pd.to_datetime(s, errors='coerce', format='mixed')"


def mend_text_date_sort(code: str, facts: MendFacts | None = None) -> str:
    """``sort_values('Date')`` (or ``by='Date'``) on a column whose dates a CSV gave as text sorts
    the text ('1-Aug-03' before '19-Sep-03' before '2-Jul-03'): given a key that reads the dates,
    so the rows run in time order. A sort that has its own key is left alone."""
    if facts is None or not facts.date_text:
        return code
    names = "|".join(re.escape(c) for c in sorted(facts.date_text, key=len, reverse=True))
    sort = re.compile(r"\.sort_values\(\s*(?:by\s*=\s*)?(['\"])(?:" + names + r")\1(?=\s*[,)])([^()]*?)\)")
    return sort.sub(lambda m: m.group(0) if "key" in m.group(2) else m.group(0)[:-1] + f", {_DATES_KEY})", code)


_ORDERED = re.compile(r"\.(iloc|iat|head|tail|diff|pct_change|shift|rolling|expanding|ewm|cumsum|cumprod|cummax|cummin)\b"
                      r"|\.values\[")
"""Code that reads the rows' order: a first or last row, a change between rows, a moving window."""


def mend_time_order(code: str, facts: MendFacts | None = None) -> str:
    """Rows listed newest first (``MendFacts.newest_first``) read by code that reads their order
    and never sorts them: ``df = df.sort_values('Date', key=…)`` (parsed as dates) is put after the
    code's last ``df = datasets[…]`` before its first statement, else first. Sorting is a no-op for
    code that reads no order, and the same line again changes nothing, so a retry is safe."""
    if (facts is None or not facts.newest_first or not _ORDERED.search(code)
            or re.search(r"\bsort_(values|index)\b|\[\s*::\s*-1\s*\]|\breversed\(", code)):
        return code  # the code puts the rows in an order of its own (sorts, or turns them round)
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    if not any(isinstance(n, ast.Name) and n.id == "df" for n in ast.walk(tree)):
        return code
    after = 0
    for node in tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)) or (
                isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["df"]
                and not _ORDERED.search(ast.unparse(node.value))):
            after = node.end_lineno or after
            continue
        break
    line = (f"df = df.sort_values({facts.newest_first!r}, {_DATES_KEY})"
            "  # rows in time order: the data lists the latest first\n")
    lines = code.splitlines(keepends=True)
    if after and not lines[after - 1].endswith("\n"):
        lines[after - 1] += "\n"
    lines.insert(after, line)
    return "".join(lines)


def mend_period_format(code: str, facts: MendFacts | None = None) -> str:
    """``pd.to_datetime(df['month'])`` on month labels as statistics packages print them ('1972m1')
    fails, "minute must be in 0..59", and a retry told so rarely finds the format: it is given
    ``format='%Ym%m'`` (``MendFacts.period_labels``). A call with its own format, or on labels the
    code rewrites first, is left alone.
    Quarter labels ('1960q1') pandas still reads."""
    if facts is None or not facts.period_labels:
        return code
    from dsagent.data.timeline import PERIOD_FORMATS

    quoted = {kind: {repr(c) for c, k in facts.period_labels.items() if k == kind} | {f'"{c}"' for c, k in facts.period_labels.items() if k == kind}
              for kind in PERIOD_FORMATS}

    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        if not (isinstance(node, ast.Call) and ast.unparse(node.func) in ("pd.to_datetime", "pandas.to_datetime") and node.args
                and not any(k.arg == "format" for k in node.keywords)):
            return None
        if any(isinstance(n, ast.Call) for n in ast.walk(node.args[0])):
            return None  # the code rewrites the labels first ('.str.replace'): its own reading
        first = ast.unparse(node.args[0])
        kind = next((k for k, names in quoted.items() if any(q in first for q in names)), None)
        if kind is None:
            return None
        return node, ast.unparse(node)[:-1] + f", format={PERIOD_FORMATS[kind]!r})"

    return mend_nodes(code, edit)


_MONTH_GROUP = re.compile(r"\.dt\.month\b(?!_)|\.month\b(?!_)")


def _month_number(expr: ast.AST, tree: ast.AST) -> bool:
    """Is ``expr`` the month number an idxmax/idxmin over values grouped by ``.dt.month`` gives
    (directly, or through a name the code binds to one, or to idxmax of a name bound to such groups:
    ``monthly = df.groupby(df['d'].dt.month)[…].mean(); peak = monthly.idxmax()``)?"""
    def numbered(e: ast.AST) -> bool:
        text = ast.unparse(e)
        return bool(re.search(r"\.idx(max|min)\(", text)) and bool(_MONTH_GROUP.search(text))

    def month_groups(e: ast.AST) -> bool:
        text = ast.unparse(e)
        return bool(_MONTH_GROUP.search(text)) and "groupby" in text

    def ranked_groups(e: ast.AST) -> bool:
        return (isinstance(e, ast.Call) and isinstance(e.func, ast.Attribute) and e.func.attr in ("idxmax", "idxmin")
                and assigned_from(e.func.value, tree, month_groups))

    return numbered(expr) or assigned_from(expr, tree, lambda value: numbered(value) or ranked_groups(value))


def mend_month_number_date(code: str, facts: MendFacts | None = None) -> str:
    """``pd.to_datetime(peak)`` of the month number that grouping by ``.dt.month`` and idxmax give
    (5 for May) reads 5 as nanoseconds after 1970-01-01, so ``.strftime('%B')`` always says
    "January": written ``pd.Timestamp(2000, int(peak), 1)``, the first day of that month in any
    year, whose month name is the month's."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code

    def edit(node: ast.AST) -> tuple[ast.AST, str] | None:
        if not (isinstance(node, ast.Call) and ast.unparse(node.func) in ("pd.to_datetime", "pandas.to_datetime", "pd.Timestamp")
                and len(node.args) == 1 and not node.keywords and _month_number(node.args[0], tree)):
            return None
        return node, f"pd.Timestamp(2000, int({ast.unparse(node.args[0])}), 1)"

    return mend_nodes(code, edit)
