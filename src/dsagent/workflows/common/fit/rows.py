"""Which rows does the code keep? Checked by code against the question's words: a year the
question never names (``df['year'] == 1970`` for "over the hundred years"), or the rows it leaves
out (``df['year'] == 2009`` for "2009 is incomplete and left out"). A quarter read for a year it
names (``df['qtr'] == '1970q1'`` for "from 1970 to 1980"), and a per-row column that is one number
for the whole table, then grouped. All were seen in measured runs as code that ran and answered
about the wrong rows. Used by :func:`fit.result_misfit` and by the
after-misfit mends that drop or flip such a filter."""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping

from dsagent.data.timeline import MONTH_WORDS
from dsagent.workflows.common.naming import GROUPING, REDUCTIONS, drop_labels
from dsagent.workflows.common.wording import CHANGE, RELATIVE_PERIOD, named_years, span_only_years

_ORDER = (ast.Lt, ast.LtE, ast.Gt, ast.GtE)


def unnamed_year(question: str, tree: ast.AST) -> ast.Compare | None:
    """The first comparison of :func:`unnamed_years`, or None."""
    return next(iter(unnamed_years(question, tree)), None)


def unnamed_years(question: str, tree: ast.AST) -> list[ast.Compare]:
    """Each comparison of a column with a year (``df['year'] == 1970``) that the question never names, nor a
    year next to one it names as a bound (``< 2021`` for "in 2020"); and each ``== year`` of a
    year the question names only as an end of the span it asks about ("over all quarters, 1959Q1
    to 2009Q3"), unless it asks a change (then the ends are the values compared). None when the
    question names a period by its place ("the last year"), which the code may read off the data.
    Seen in every such run measured: the model picked a year from the data profile, the format's
    example or the span's end, and answered about that year alone."""
    if RELATIVE_PERIOD.search(question or ""):
        return []
    named, found = named_years(question), []
    ends = set() if CHANGE.search(question or "") else {int(y) for y in span_only_years(question)}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        sides = [node.left, *node.comparators]
        for op, pair in zip(node.ops, zip(sides, sides[1:])):
            for const, other in (pair, pair[::-1]):
                year = _year_constant(const)
                if year is None or not _year_column(other):
                    continue
                unnamed = year not in named and not (isinstance(op, _ORDER) and named & {year - 1, year + 1})
                if (unnamed or (isinstance(op, ast.Eq) and year in ends)) and node not in found:
                    found.append(node)
    return found


def compared_value(node: ast.Compare) -> tuple[ast.cmpop, object] | None:
    """(operator, value) of ``column <op> value`` (either way round) with one operator, the value
    a year or a text; else None."""
    if len(node.ops) != 1:
        return None
    for const, other in ((node.comparators[0], node.left), (node.left, node.comparators[0])):
        if (isinstance(const, ast.Constant) and _column_like(other)
                and (_year_constant(const) is not None or (isinstance(const.value, str) and len(const.value) > 1))):
            return node.ops[0], const.value
    return None


def _year_constant(node: ast.AST) -> int | None:
    """The year a literal writes (an int from 1800 to 2099, the span ``wording.YEAR`` reads), else None."""
    return node.value if isinstance(node, ast.Constant) and type(node.value) is int and 1800 <= node.value <= 2099 else None


YEAR_IN_NAME = re.compile(r"(?<!\d)(?:1[89]|20)\d\d(?!\d)")
"""A year inside a column name: a wide table's column ("pop_2015", "1995-96")."""
_YEARLY = ("year", "yr", "date", "fy", "period", "season")
_YEARISH = re.compile("|".join(w if len(w) > 2 else rf"\b{w}" for w in _YEARLY), re.I)
"""A year or date word anywhere in a name ("fiscal_year", "yr"): a number compared with it is a year."""
_DATE_WORD = re.compile(rf"(?:{'|'.join(_YEARLY)}|time|day|month|quarter|week|datetime|timestamp)s?", re.I)
"""One word that names a date column's content, whole (``date_named``'s last word)."""


def date_named(column: str) -> bool:
    """Does the name say the column holds years or dates: its last word is a date word ("Year",
    "release_date", "fiscal year"), or its first is year, date or period in a short name ("Date of
    sale")? Not a date word inside another name ("Day nursery places", "Full-time pupils", "3 year
    average"), nor a year in the name (a wide table's column)."""
    words = [w for w in re.split(r"[^A-Za-z]+", column) if w]
    if not words or YEAR_IN_NAME.search(column):
        return False
    return bool(_DATE_WORD.fullmatch(words[-1]) or (len(words) <= 3 and re.match(r"(?i)(?:year|date|period)(?![a-z])", column.strip())))


def _year_column(node: ast.AST) -> bool:
    """A column whose name says it holds years or dates (``df['year']``, ``df.YEAR``,
    ``s.dt.year``, ``df['fiscal_year']``): a number like 2000 compared with another column is a
    threshold (``df['sqft'] > 2000``), not a year."""
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str) and bool(_YEARISH.search(node.slice.value))
    return isinstance(node, ast.Attribute) and bool(_YEARISH.search(node.attr))


def _column_like(node: ast.AST) -> bool:
    """A column's values: ``df['year']``, ``row['year']``, ``df.year``, ``s.dt.year``."""
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)
    return isinstance(node, ast.Attribute) and node.attr not in ("size", "shape", "ndim", "columns", "index") and (
        isinstance(node.value, ast.Name) or node.attr == "year")


_PART_OF_YEAR = re.compile(r"^((?:1[89]|20)\d\d)(?:\s*-?\s*[qQ][1-4]|[mM]\d{1,2}|-\d{1,2})$")
"""A period inside one year as data writes it: a quarter ('1970q1', '1970-Q1') or a month ('1970m1',
'1970-01'). Not a day: "the last trading day of 2006" is one row by right."""


def _names_part_of(question: str, year: int) -> bool:
    """Does the question name a quarter, a month or a day of ``year`` ("Q1 1970", "March 1970",
    "1970q1", "the first quarter of 1970"), or an end of it ("the end of 1970": its last quarter by right)?"""
    part = (rf"(?:\b(?:{MONTH_WORDS})\b|\bq[1-4]\b|\b(?:first|second|third|fourth|last|1st|2nd|3rd|4th)\s+quarter)"
            rf"[\s,]*(?:of\s+|in\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)?[\s,]+)?{year}\b")
    after = rf"\b{year}\s*(?:-?\s*q[1-4]\b|m\d|-\d|[\s,]+(?:{MONTH_WORDS})\b)"
    end = rf"\b(?:end|start|beginning|close|opening|first|last|final|latest|earliest)\b\W+(?:\w+\W+){{0,3}}{year}\b"
    return any(re.search(pattern, question, re.I) for pattern in (part, after, end))


def part_of_year(question: str, tree: ast.AST) -> tuple[ast.Compare, int] | None:
    """``df['qtr'] == '1970q1'`` (one quarter, month or day of a year) where the question names the
    year 1970 as a whole and no part of it: (the comparison, the year), else None. Seen verified: a
    growth "from 1970 to 1980" of a quarterly table read off the first quarters alone."""
    named = named_years(question)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare) or len(node.ops) != 1 or not isinstance(node.ops[0], ast.Eq):
            continue
        for const, other in ((node.comparators[0], node.left), (node.left, node.comparators[0])):
            if not (isinstance(const, ast.Constant) and isinstance(const.value, str) and _column_like(other)):
                continue
            match = _PART_OF_YEAR.match(const.value.strip())
            if match and int(match.group(1)) in named and const.value.lower() not in question.lower() and not _names_part_of(question, int(match.group(1))):
                return node, int(match.group(1))
    return None


def whole_table_column(tree: ast.AST) -> str | None:
    """``df['ratio'] = 100 * (1 - df['a'].sum() / df['b'].sum())`` in code that then groups: the new
    column is one number for the whole table (each aggregate reads every row), so every group gets
    the same value. The assignment's source, else None. A per-row value that uses a total
    (``df['x'] / df['x'].sum()``) is left alone."""
    if not any(isinstance(n, ast.Attribute) and n.attr in GROUPING for n in ast.walk(tree)):
        return None
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript)
                and isinstance(node.targets[0].value, ast.Name)):
            continue
        frame = node.targets[0].value.id
        aggregated = [n for n in ast.walk(node.value) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                      and n.func.attr in REDUCTIONS and not n.args and not n.keywords]
        inside = {id(m) for n in aggregated for m in ast.walk(n)}
        columns = [n for n in ast.walk(node.value) if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name)
                   and n.value.id == frame]
        if aggregated and columns and all(id(c) in inside for c in columns) and not any(
                isinstance(n, ast.Name) and n.id == frame and id(n) not in inside for n in ast.walk(node.value)):
            return ast.unparse(node)
    return None


def unmatched_filter(tree: ast.AST, values: Mapping[str, frozenset]) -> tuple[ast.Compare, str, str] | None:
    """``df['year'] == 1980`` where the column ``year`` (of few values, ``MendFacts.values``) holds no
    1980: the filter keeps no row, and a count of 0 or a sum of 0 comes from no data (batch J,
    seen: verified so, both checks wrote the same filter). (comparison, column, what it holds), else
    None. Not a column the code writes itself, nor a comparison the code negates."""
    written = {t.slice.value for n in ast.walk(tree) if isinstance(n, (ast.Assign, ast.AugAssign))
               for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
               if isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant)}
    if any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("rename", "replace", "map", "assign")
           for n in ast.walk(tree)):
        return None  # the code renames or rewrites values: the data's values may not be its
    negated = {id(m) for n in ast.walk(tree) if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.Invert, ast.Not))
               for m in ast.walk(n.operand)}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.Eq)) or id(node) in negated:
            continue
        for column, const in ((node.left, node.comparators[0]), (node.comparators[0], node.left)):
            if not (isinstance(column, ast.Subscript) and isinstance(column.slice, ast.Constant) and isinstance(const, ast.Constant)):
                continue
            name, value = column.slice.value, const.value
            if not isinstance(name, str) or name not in values or name in written or isinstance(value, bool):
                continue
            if isinstance(value, float) and value.is_integer():
                value = int(value)
            held = values[name]
            if value in held or not isinstance(value, (int, str)):
                continue
            return node, name, _held_text(held)
    return None


def _held_text(held: frozenset) -> str:
    numbers = sorted(v for v in held if isinstance(v, (int, float)) and not isinstance(v, bool))
    if numbers and len(numbers) == len(held):
        return f"{numbers[0]} … {numbers[-1]}" if len(numbers) > 6 else ", ".join(map(str, numbers))
    texts = sorted(map(str, held))
    return ", ".join(map(repr, texts[:6])) + (" …" if len(texts) > 6 else "")


_GROUP_SIZE = re.compile(r"\b(?:(?:no|not)\s+(?:fewer|less|more)\s+than|at least|at most|more than|fewer than|less than|a minimum of|"
                         r"a maximum of)\s+(\d{1,3}(?:,\d{3})+|\d+)\s+(?:such\s+)?(?:rows|observations|records)\b"
                         r"|\b(\d{1,3}(?:,\d{3})+|\d+)\s+or\s+more\s+(?:such\s+)?(?:rows|observations|records)\b"
                         r"|\bgroups?\s+of\s+at\s+least\s+(\d+)\b", re.I)
"""A question that keeps groups by how many rows they have ("the values with at least 50 rows")."""
_COUNTS_ROWS = {"size", "count", "value_counts", "filter", "nunique", "len", "shape", "transform"}


def group_size_asked(question: str) -> tuple[str, int] | None:
    """How a question keeps groups by their number of rows, as a comparison and N: ``('>=', 50)``
    for "at least 50 rows" (or "no fewer than"), ``('>', 3)`` for "more than 3 rows", ``('<', 5)``
    for "fewer than 5 rows", ``('<=', 5)`` for "at most 5 rows"; None when it keeps none that way."""
    asked = _GROUP_SIZE.search(question or "")
    if not asked:
        return None
    words = re.sub(r"\s+", " ", asked.group(0).lower())
    compared = (">" if words.startswith("more than") else "<" if words.startswith(("fewer than", "less than"))
                else "<=" if words.startswith(("no more than", "not more than", "at most", "a maximum of")) else ">=")
    return compared, int(next(g for g in asked.groups() if g).replace(",", ""))


def group_size_unread(question: str, tree: ast.AST) -> int | None:
    """The question keeps groups by their number of rows (at least N), but the code counts no rows
    at all (no size, count, value_counts, filter, len, nunique of groups): it read N as a threshold
    of a value (``df['los'] >= 50``; batches J, K and N, seen). N, else None."""
    asked = group_size_asked(question)
    if not asked:
        return None
    called = {n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", None)
              for n in ast.walk(tree) if isinstance(n, ast.Call)}
    called |= {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and n.value in ("size", "count")}  # agg(['mean', 'size'])
    attributes = {n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    grouped_nunique = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "nunique"
                          and any(isinstance(m, ast.Attribute) and m.attr == "groupby" for m in ast.walk(n.func.value))
                          for n in ast.walk(tree))
    if called & _COUNTS_ROWS - {"nunique"} or "shape" in attributes or grouped_nunique:
        return None  # nunique counts rows per group only on a groupby; over rows it counts distinct values
    return asked[1]


def idle_loop(tree: ast.AST) -> ast.For | None:
    """A ``for`` loop over groups whose variables the body never reads, except as the key it stores
    a value under (``totals[period] = df['a'].sum()``): every pass computes the same value (batch K,
    seen: a rate change of 0.0 between two periods). Names that start with ``_`` mean "unused"."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.For):
            continue
        names = {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name) and not n.id.startswith("_")}
        if not names:
            continue
        keys = {id(n) for stmt in node.body for sub in ast.walk(stmt) if isinstance(sub, ast.Subscript) and isinstance(sub.ctx, ast.Store)
                for n in ast.walk(sub.slice)}
        read = any(isinstance(n, ast.Name) and n.id in names and isinstance(n.ctx, ast.Load) and id(n) not in keys
                   for stmt in node.body for n in ast.walk(stmt))
        computes = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in REDUCTIONS
                       for stmt in node.body for n in ast.walk(stmt))
        if not read and computes:
            return node
    return None


_YEAR_AGO = re.compile(r"year[- ]on[- ]year|\byoy\b|a year (?:earlier|before|ago)|(?:same|corresponding) (?:quarter|month)"
                       r"(?: \w+){0,3} (?:year before|previous year|prior year|year earlier|one year earlier)|"
                       r"\bannual (?:growth|change|increase|rate of change)\b|(?:twelve|12)[- ]month (?:change|growth)", re.I)
_LAGS = {"shift", "pct_change", "diff"}


def year_lag_misfit(question: str, tree: ast.AST, per_year: int | None) -> tuple[ast.Call, int] | None:
    """A change "year on year" (against the same quarter a year earlier) on rows that are quarters or
    months, written with a lag of another number of rows (``shift(12)`` on quarters; batch K,
    seen): (the call, the rows in a year), else None."""
    if not per_year or not _YEAR_AGO.search(question or ""):
        return None
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _LAGS):
            continue
        lag = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg in ("periods", "n")), None)
        if isinstance(lag, ast.Constant) and type(lag.value) is int and abs(lag.value) > 1 and abs(lag.value) != per_year:
            return node, per_year
    return None


def by_position(tree: ast.AST) -> bool:
    """Does the code keep the table's rows by their positions (``df.iloc[2:]``, ``df.loc[2:, 'v']``,
    ``df[:10]``, ``df.head(10)``, ``df.drop([0, 1])``)? A question that names the rows it leaves out
    ("the first two rows, A and B, are totals; leave them out") is answered that way too. Not a slice
    of text (``.str[:4]``), nor ``head``/``tail`` after a sort (the top n), nor a drop of columns."""
    def numbered(node: ast.AST) -> bool:
        return isinstance(node, ast.Slice) and any(isinstance(b, (ast.Constant, ast.UnaryOp)) for b in (node.lower, node.upper))

    def sorted_first(node: ast.AST) -> bool:
        return any(isinstance(n, ast.Attribute) and n.attr in ("sort_values", "sort_index", "nlargest", "nsmallest", "rank")
                   for n in ast.walk(node))
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            owner = node.value
            key = node.slice.elts[0] if isinstance(node.slice, ast.Tuple) and node.slice.elts else node.slice
            rows = isinstance(owner, ast.Name) or (isinstance(owner, ast.Attribute) and owner.attr in ("iloc", "loc"))
            if rows and numbered(key):
                return True
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr in ("head", "tail") and node.args and not sorted_first(node.func.value):
            return True
        labels = drop_labels(node) if node.func.attr == "drop" else None
        if labels and all(type(x) is int for x in labels):
            return True
    return False
