"""A row number where a name was asked, a quarter named without its year, and a ranked Series read by code.

``idxmax()`` and ``nlargest()`` over a filtered frame give row numbers; a "which …" question asks
for the names at those rows. :func:`name_at_label` and :func:`numbered_names` write the one line
that turns the numbers into names (the after-misfit mends run it); :func:`ranked_note` picks the
top or bottom label of a Series by code, so the explanation copies it instead of reading a list.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Mapping

from dsagent.data.timeline import MONTH_WORDS
from dsagent.workflows.common.fit.named import named_values
from dsagent.workflows.common.naming import name_column, named_after_which, position_call, time_column
from dsagent.workflows.common.wording import HIGH, LOW, WHICH, YEAR, sentence_spans


def name_at_label(question: str, code: str, execution_result: dict | None, text_columns: Iterable[str] = ()) -> str | None:
    """``code`` with one line added that turns idxmax's row label into the name a "which …"
    question asks for (``result = df.loc[result, 'country']``), when that is the misfit and the
    name column is known; else None. Row labels survive filtering, so ``df.loc`` finds the row
    (not after a reset_index, which renumbers them)."""
    er = execution_result or {}
    try:
        tree = ast.parse(code or "")
    except SyntaxError:
        return None
    if not (WHICH.search(question or "") and er.get("result_type") in ("int", "int64", "int32") and position_call(tree)):
        return None
    name = name_column(question, text_columns) or time_column(question, text_columns)
    if name is None or "reset_index" in code or "df" not in {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}:
        return None
    return code.rstrip("\n") + f"\nresult = df.loc[result, {name!r}]\n"


def numbered_names(question: str, code: str, execution_result: dict | None, text_columns: Iterable[str] = ()) -> str | None:
    """The line that labels a ranked Series by the names a "which … " question asks for, when its
    rows are row numbers (``df[...]['gdp'].nlargest(3)`` for "which three countries"):
    ``result = result.set_axis(df.loc[result.index, 'country'])``; else None. Row labels survive
    filtering (not a reset_index)."""
    er = execution_result or {}
    rows = series_rows(er.get("result_str")) if er.get("result_type") == "Series" else []
    if not (rows and re.search(r"\b(which|who)\b", question or "", re.I) and all(label.isdigit() for label, _ in rows)):
        return None
    name = name_column(question, text_columns) if named_after_which(question, text_columns) else None
    if name is None or "reset_index" in (code or "") or not re.search(r"\bdf\b", code or ""):
        return None
    return f"result = result.set_axis(df.loc[result.index, {name!r}])"


_SERIES_ROW = re.compile(r"^(\S.*?)\s{2,}(-?\d[\d,]*(?:\.\d+)?(?:e[+-]?\d+)?)\s*$", re.I)


def series_rows(shown: str | None) -> list[tuple[str, str]]:
    """The (label, number) rows of a Series of numbers as pandas prints it; [] for another shape."""
    rows: list[tuple[str, str]] = []
    for line in (shown or "").splitlines():
        if not line.strip() or line.startswith(("Name:", "dtype:", "Length:")):
            continue
        match = _SERIES_ROW.match(line)
        if match:
            rows.append((match.group(1).strip(), match.group(2)))
        elif rows:  # a line after the values that is not one: not a plain Series
            return []
    return rows


def ranked_note(question: str, execution_result: dict | None) -> str:
    """For a "which … highest / lowest" question whose ``result`` is a Series of numbers, the top (or
    bottom) label and value picked by code, so the explanation copies them instead of reading a
    list (a small model reads its first row). Empty when the question or the result is of another shape."""
    er = execution_result or {}
    if er.get("result_type") != "Series" or not WHICH.search(question or ""):
        return ""
    high, low = bool(HIGH.search(question)), bool(LOW.search(question))
    rows = series_rows(er.get("result_str"))
    if len(rows) < 2 or not (high or low):
        return ""
    values = [float(v.replace(",", "")) for _, v in rows]
    parts = []
    if high:
        label, value = rows[values.index(max(values))]
        parts.append(f"the highest is {label} ({value})")
    if low:
        label, value = rows[values.index(min(values))]
        parts.append(f"the lowest is {label} ({value})")
    return "\nPicked from `result` by code: " + "; ".join(parts) + "."


def code_not_held(question: str, kind: str, shown: str, values: Mapping[str, frozenset]) -> tuple[int, str, list] | None:
    """(the result, the column, its codes) when a "which …" question names a column of number codes
    (``drug`` holding 1, 2, 3) and ``result`` is a whole number none of those columns holds: a row
    number or a count where the code of a group was asked; else None."""
    if not WHICH.search(question or "") or kind not in ("int", "int64", "int32", "float", "float64"):
        return None
    try:
        value = float(shown.strip())
    except ValueError:
        return None
    if not value.is_integer():
        return None
    named = [(column, held) for column, held in values.items()
             if len(column) > 1 and re.search(rf"(?<![\w]){re.escape(column)}(?![\w])", question, re.I)
             and held and all(isinstance(v, (int, float)) and not isinstance(v, bool) and float(v).is_integer() for v in held)]
    if not named or any(value in {float(v) for v in held} for _, held in named):
        return None
    column, held = named[0]
    return int(value), column, sorted(held)


_WHICH_PERIOD = re.compile(r"\b(?:which|what)\s+(?:\w+\s+)?(quarter|month)\b(?!\s+of\b)", re.I)
_SEASONAL = re.compile(r"\b(?:of the year|on average|average|typical(?:ly)?|usually|season\w*|each year|every year|per year)\b", re.I)
_BARE_PERIOD = re.compile(rf"Q0?[1-4]|M(?:0?[1-9]|1[0-2])|{MONTH_WORDS}", re.I)


def period_without_year(question: str, code: str, kind: str, shown: str,
                        values: Mapping[str, frozenset]) -> tuple[str, str, str] | None:
    """(the answer, the period column, the year column) when "in which quarter (month) …" is answered
    with a bare period label ('Q04') that every year of the data has, from code that picks a row
    rather than grouping by that label: the quarter of one year was asked, so its year belongs in
    the answer. A question about the time of year ("on average", "of the year") or one that names
    its year ("which month of 2015") is left alone."""
    asked = next((m.group(0) for m in sentence_spans(question or "") if _WHICH_PERIOD.search(m.group(0))), None)
    if asked is None or _SEASONAL.search(asked) or YEAR.search(asked):
        return None  # "which month of 2015" names its year: the bare month is the answer
    periods = [c for c, held in values.items() if 4 <= len(held) <= 12
               and all(isinstance(v, str) and _BARE_PERIOD.fullmatch(v.strip()) for v in held)]
    years = [c for c, held in values.items() if len(held) >= 2
             and all(isinstance(v, int) and not isinstance(v, bool) and 1800 <= v <= 2100 for v in held)]
    if not periods or not years:
        return None
    found = named_values(shown) if kind == "dict" else None
    texts = [v.value for v in (found or {}).values() if isinstance(v, ast.Constant) and isinstance(v.value, str)]
    if kind == "str":
        texts.append(shown.strip().strip("'\""))
    for column in periods:
        if re.search(rf"groupby\(\s*\[?\s*['\"]{re.escape(column)}['\"]\s*\]?\s*[,)]", code or ""):
            continue  # grouped by the label alone: a time of year, which needs no year
        for text in texts:
            if text.strip() in values[column]:
                return text.strip(), column, years[0]
    return None
