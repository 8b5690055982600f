"""Each value of a dict of named values (``result = {'growth': …, 'year': …}``) checked as a single
result is: the part of the fit check (``common.fit.result_misfit``) for answers of that shape."""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Iterable

from dsagent.workflows.common.naming import (FIGURE_MAKERS, FIGURE_NAMES, QUERY, key_column, key_word_column, name_column,
                                            row_number_call, time_column, which_column)
from dsagent.workflows.common.text import clip
from dsagent.workflows.common.wording import PERIOD_ASKED, WHICH


def named_values(shown: str | None) -> dict[str, ast.expr] | None:
    """The entries of a flat dict ``result`` as printed (``{'growth': nan, 'year': 52}``): key → the
    value's parsed expression; None for another shape (not a dict, a key that is not text, cut short)."""
    try:
        node = ast.parse(re.sub(r"<NA>", "NA", (shown or "").strip()), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if not isinstance(node, ast.Dict) or not all(isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys):
        return None
    return {k.value: v for k, v in zip(node.keys, node.values)}  # type: ignore[union-attr]


_MISSING = {"nan", "NaN", "NaT", "NA"}
_ONE_OF = re.compile(r"\bis one of\s+([^.\n]+)", re.I)


def listed_options(question: str) -> set[str]:
    """The answers a question allows when it lists them ("… is one of 1960-64, 1965-69 or
    1970-74"): short labels, two or more; else an empty set."""
    match = _ONE_OF.search(question or "")
    if not match:
        return set()
    parts = [p.strip().strip("'\"") for p in re.split(r",\s*(?:or\s+)?|\s+or\s+", match.group(1).strip())]
    return set(parts) if len(parts) >= 2 and all(0 < len(p) <= 24 and " " not in p for p in parts) else set()
_LISTED = re.compile(r"\b(?:list|each of|for each|per|all the|which (?:ones|\w+s)\b|top \d|top (?:two|three|five|ten)|"
                     r"comma|separated)\b", re.I)
"""A question that asks for several values under one name (a list, a value per group); whole words
("percentile" is no "per")."""


def written_values(tree: ast.AST) -> dict[str, ast.expr]:
    """The named values the code writes itself: key → expression, from a dict literal assigned to
    ``result`` (``result = {'year': …}``) and from ``result['year'] = …``. A dict the code computes
    (``s.to_dict()``: labels of the data as keys) has none."""
    found: dict[str, ast.expr] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            if isinstance(target, ast.Name) and target.id == "result" and isinstance(node.value, ast.Dict):
                found.update({k.value: v for k, v in zip(node.value.keys, node.value.values)
                              if isinstance(k, ast.Constant) and isinstance(k.value, str)})
            elif (isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and target.value.id == "result"
                  and isinstance(target.slice, ast.Constant) and isinstance(target.slice.value, str)):
                found[target.slice.value] = node.value
    return found


def _number(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) in (int, float)


def named_misfit(question: str, tree: ast.AST, shown: str, columns: Iterable[str], text_columns: Iterable[str]) -> str | None:
    """A named value no answer can be: a whole table from ``sql()``, missing (NaN, NaT, NA: computed from nothing), idxmax's row
    number under a key that names a column (or of a "which" question's one value), a number
    under a key that is the name of a text column, or as the one value of a question that asks
    which of a text column ("which nation …" answered with 12), or which year or month (605 is no
    year, 172 no month). Only keys the code writes itself
    (:func:`written_values`) are named values; each is checked as a single result is."""
    values, written = named_values(shown), written_values(tree)
    for key, expr in written.items():
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == "sql":
            return (f"ResultDoesNotFitQuestion: `result[{key!r}]` is the whole table that sql() returns, not one value. "
                    f"Take its value: sql(\"SELECT … AS v …\")['v'].iloc[0] (or .iloc[0, 0]).")
        if (isinstance(expr, ast.Name) and expr.id in FIGURE_NAMES) or (
                isinstance(expr, ast.Call) and FIGURE_MAKERS.match(ast.unparse(expr.func))):
            return (f"ResultIsAFigure: `result[{key!r}]` holds a chart. Keep the chart in `fig` only, and in `result` only "
                    "the computed answers.")
    many = _many_values(shown, written) if values is None else None
    if many:
        return (f"ResultDoesNotFitQuestion: `result[{many!r}]` is a Series or a table (it prints on several lines), not "
                "one value. Reduce it to the one value asked for (.sum(), .mean(), .iloc[0]); with & or a comparison, "
                "bracket each condition before .sum(): ((a > 1) & (b == 0)).sum().")
    if not values or not written:
        return None
    values = {key: node for key, node in values.items() if key in written}
    for key, node in values.items():
        if isinstance(node, ast.Name) and node.id in _MISSING:
            return (f"ResultIsEmpty: `result[{key!r}]` is {ast.unparse(node)}: it was computed from no rows or from missing "
                    "values (a filter value not written as in DATA, a filter that no row passes, the empty first row of "
                    ".diff()/.pct_change()/.shift()). Check each filter against DATA's values, drop missing values "
                    "(.dropna()), then compute it again.")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and QUERY.match(node.value.strip()):
            return (f"ResultIsQueryText: `result[{key!r}]` is the text of a SQL query, not its answer. Run the query and "
                    "keep what it returns: sql(query)['col'].iloc[0].")
    ranked = _ranked_among_selected(values, written)
    if ranked:
        return (f"ResultDoesNotFitQuestion: `result[{ranked!r}]` is 1 because the rank was taken among the selected rows "
                "only (one row always ranks first). Rank all the rows first, r = df['value_col'].rank(method='min', "
                "ascending=False), then read the rank at the row asked: r[df['other_col'].idxmax()].")
    twice = _one_number_twice(values, written)
    if twice:
        first, second, shown_value = twice
        return (f"ResultDoesNotFitQuestion: `result[{first!r}]` and `result[{second!r}]` are the same number ({shown_value}): "
                "each named value is its own computation, so one key holds the other's variable. Compute each from its "
                "own expression (a slope from the fit's slope, R squared from its rvalue ** 2 or rsquared).")
    options = listed_options(question)
    for key, node in values.items() if options and len(values) == 1 else ():
        value = node.value if isinstance(node, ast.Constant) else ast.unparse(node)
        if str(value) not in options:
            return (f"ResultDoesNotFitQuestion: `result[{key!r}]` is {clip(ast.unparse(node), 40)}, but the question says the "
                    f"answer is one of {', '.join(sorted(options))}. Give the one that fits, written exactly so (turn codes or "
                    "indicator columns into these labels first).")
    for key, node in values.items() if len(values) == 1 else ():  # the one value asked (a task's several outputs may be tables)
        if isinstance(node, (ast.Dict, ast.List, ast.Tuple, ast.Set)) and not _LISTED.search(question or ""):
            inside = "a dict" if isinstance(node, ast.Dict) else "several values"
            return (f"ResultDoesNotFitQuestion: `result[{key!r}]` is {inside} ({clip(ast.unparse(node), 60)}), not one value. "
                    "Combine them into the one value the question asks for: their sum for a count or a total of all the "
                    "groups, else the one group it names.")
    texts = list(text_columns)
    which = WHICH.search(question or "") and len(written) == 1  # a "which" question's one value
    for key, node in values.items():
        text = key_column(key, texts, whole=True)
        if _number(node) and text:
            return _name_wanted(key, node, text)
        column = (key_column(key, columns) or ((name_column(question, texts) or time_column(question, texts)) if which else None)
                  or key_word_column(key, texts))
        if _number(node) and type(getattr(node, "value", None)) is int and column and row_number_call(written[key], tree):
            call = ast.unparse(written[key])
            return (f"ResultDoesNotFitQuestion: `result[{key!r}]` is {node.value}, the row label that "
                    f"{call.rsplit('.', 1)[-1]} gives, not the {column!r} the question asks for. Take the value at "
                    f"that row: df.loc[{call}, {column!r}].")
        asked = which_column(question, texts) if which else None
        if _number(node) and asked:  # "which nation …" answered with a count or a total
            return _name_wanted(key, node, asked)
    period = PERIOD_ASKED.search(question or "")
    for key, node in values.items() if period and len(written) == 1 else ():
        unit = period.group(1).lower()
        label = node.args[0] if isinstance(node, ast.Call) and ast.unparse(node.func) == "Period" and node.args else node
        finer = finer_than_year(question, label.value, f"result[{key!r}]") if isinstance(label, ast.Constant) else None
        if finer:
            return finer
        if _number(node) and not _is_period(unit, node):
            return (f"ResultDoesNotFitQuestion: the question asks which {unit}, but `result[{key!r}]` is {ast.unparse(node)}, "
                    f"which is no {unit}: it is a value computed for one. Answer with the {unit} itself, the label of the row "
                    f"or group the question picks (the index of .idxmax() over a series indexed by {unit}).")
    return None


_PERIODS = {"year": (1000, 2200), "month": (1, 12)}
_FINER = re.compile(r"^\s*(?:1[89]|20)\d\d\s*(?:([-/ ]?Q[1-4])|[-/]\d\d?(?:[-/]\d\d?)?|-?M\d\d)\s*$", re.I)
"""A period finer than a year written with its year: '1950Q1', '1950-03', '1950-03-31', '1950M03'."""
_SPAN_OF_YEARS = re.compile(r"^\s*((?:1[89]|20)\d\d)\s*[-/]\s*(\d\d)\s*$")
"""'2019-20', '1995/96': a span of two years (a fiscal or school year), read as one by :func:`finer_than_year`
when its second part is no month (above 12) or is the next year ('2011-12')."""
_AND_PART = re.compile(r"\byear\s+and\s+(?:the\s+|which\s+)?(?:quarter|month|day|week)\b", re.I)


def finer_than_year(question: str, value: object, where: str = "result") -> str | None:
    """The misfit when "which (calendar) year" is answered with a quarter or a month written with its
    year ('1950Q1', '1950-03'): the peak quarter was picked, not the year whose total is highest."""
    asked = PERIOD_ASKED.search(question or "")
    finer = _FINER.match(value) if isinstance(value, str) and asked and asked.group(1).lower() == "year" else None
    span = _SPAN_OF_YEARS.match(value) if finer else None
    if not finer or _AND_PART.search(question) or (span and (int(span.group(2)) > 12
                                                             or int(span.group(2)) == (int(span.group(1)) + 1) % 100)):
        return None  # "which year and quarter" asks both; '2019-20' and '1995/96' are (fiscal) years
    return (f"ResultDoesNotFitQuestion: the question asks which year, but `{where}` is {value!r}, a "
            f"{'quarter' if finer.group(1) else 'month or a day'}. Add the rows up to years first (group by the year, "
            "e.g. the first four characters of the period), compare the years, and answer with the year.")


def _ranked_among_selected(values: dict[str, ast.expr], written: dict[str, ast.expr]) -> str | None:
    """The key of a rank of 1 whose ``.rank()`` runs over rows a filter selected (``df[df['x'] ==
    df['x'].max()]['y'].rank()``): ranked among themselves, not among all the rows."""
    for key, node in values.items():
        if "rank" not in key.lower() or not (isinstance(node, ast.Constant) and node.value == 1) or key not in written:
            continue
        for call in ast.walk(written[key]):
            if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "rank" and any(
                    isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Compare) for n in ast.walk(call.func.value))):
                return key
    return None


_KINDS = [(re.compile(p, re.I), kind) for p, kind in (
    (r"r_?2|r_?sq|rsquared|determination", "r2"), (r"slope|coef|beta|elasticit", "slope"), (r"intercept", "intercept"),
    (r"(?:^|_)p(?:_?val\w*)?$|pvalue", "p"), (r"(?:^|_)(?:t|f|chi\w*|h|u)(?:_?stat\w*)?$|statistic", "statistic"),
    (r"(?:^|_)(?:std|sd)(?:$|_)|deviation|variance", "spread"), (r"corr|(?:^|_)(?:r|rho|tau)$|pearson|spearman", "correlation"))]
_SAME_BY_RIGHT = {frozenset({"r2", "correlation"})}  # R squared of one predictor is r squared


def _kind(key: str) -> str | None:
    return next((kind for pattern, kind in _KINDS if pattern.search(key)), None)


def _one_number_twice(values: dict[str, ast.expr], written: dict[str, ast.expr]) -> tuple[str, str, str] | None:
    """Two keys that hold one precise number (four significant figures or more, not whole):
    ``(first key, second key, the value)``, when the code writes one expression for both
    (``{'slope': slope, 'r_squared': slope}``) or the keys name statistics that differ by nature
    (a slope and an R squared, a statistic and its p-value). Values a question may find equal by
    right (two means, a model's two scores, R squared and a squared correlation) are left alone."""
    seen: dict[float, str] = {}
    for key, node in values.items():
        value = node.value if isinstance(node, ast.Constant) else None
        if type(value) is not float or not math.isfinite(value) or value == round(value):
            continue
        if len(f"{abs(value):.15e}".split("e")[0].replace(".", "").rstrip("0")) < 4:
            continue
        first = seen.get(value)
        if first is not None:
            kinds = {_kind(first), _kind(key)}
            same_code = key in written and first in written and ast.dump(written[first]) == ast.dump(written[key])
            if same_code or (None not in kinds and len(kinds) == 2 and frozenset(kinds) not in _SAME_BY_RIGHT):
                return first, key, repr(value)
        seen[value] = key
    return None


def _is_period(unit: str, node: ast.expr) -> bool:
    """Whether a number can be the year (1000–2200) or the month (1–12) asked for: a whole number in range."""
    value = getattr(node, "value", None)
    low, high = _PERIODS[unit]
    return isinstance(value, (int, float)) and float(value).is_integer() and low <= value <= high


def _name_wanted(key: str, node: ast.expr, column: str) -> str:
    return (f"ResultDoesNotFitQuestion: `result[{key!r}]` should be a {column!r} (a name), but it is the number "
            f"{ast.unparse(node)}. Take the {column!r} of the row or group the question picks, e.g. "
            f"df.loc[df['value_col'].idxmax(), {column!r}].")


def _many_values(shown: str, written: dict[str, ast.expr]) -> str | None:
    """The first key the code writes whose printed value runs over several lines (a Series or a
    DataFrame put where one value belongs), from the dict as printed; None when none does."""
    text = (shown or "").strip()
    if not text.startswith("{") or "\n" not in text:
        return None
    starts = sorted((text.find(f"{key!r}: "), key) for key in written if text.find(f"{key!r}: ") >= 0)
    for (start, key), (end, _) in zip(starts, [*starts[1:], (len(text), "")]):
        if "\n" in text[start:end].rstrip(", \n}"):
            return key
    return None
