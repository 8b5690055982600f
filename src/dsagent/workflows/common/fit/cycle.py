"""A place in a cycle asked for ("at what hour of the day …", "which weekday …", "which calendar
month …") answered with one row's date and time: part of the fit check (``common.fit``).

A small model reads "the hour of the day with the highest average demand" as "the row with the
highest demand" and states that row's timestamp (seen in measured runs, verified by a check that
read it the same way). An hour of the day is 0–23, a weekday a name, a calendar month 1–12 or a
name: a full date is none of them. The rule reads the question's words and the result's shape,
never a dataset."""

from __future__ import annotations

import ast
import calendar
import re

from dsagent.workflows.common.fit.named import named_values
from dsagent.workflows.common.wording import CYCLE

_FULL_DATE = re.compile(r"^(?:Timestamp\(['\"])?(\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?)(?:['\"]\))?$")
_WHAT = {"hour": ("the hour, 0 to 23", ".dt.hour"), "week": ("the weekday's name", ".dt.day_name()"),
         "weekday": ("the weekday's name", ".dt.day_name()"), "month": ("the day of the month, 1 to 31", ".dt.day"),
         "year": ("the month's name or number", ".dt.month"), "calendar month": ("the month's name or number", ".dt.month"),
         "quarter": ("the quarter, 1 to 4", ".dt.quarter"), "calendar quarter": ("the quarter, 1 to 4", ".dt.quarter")}


def _kind(unit: str) -> tuple[str, str]:
    """What the answer is and the pandas part that takes it from dates, for a cycle's words."""
    words = unit.lower().split()
    if words[0] in ("hour", "time"):
        return _WHAT["hour"]
    if words[0] == "quarter":
        return _WHAT["quarter"]
    if words[0] == "calendar":
        return _WHAT[" ".join(words[:2])]
    return _WHAT[words[-1]] if words[-1] in _WHAT else _WHAT["weekday"]


def cycle_misfit(question: str, kind: str, shown: str) -> str | None:
    """Why a result that is one full date (with or without its time) cannot answer a question that
    asks for a place in a cycle, said for the code step; None for any other result or question. A
    dict is checked when it holds one named value."""
    asked = CYCLE.search(question or "")
    if not asked:
        return None
    value = (shown or "").strip()
    if kind == "dict":
        values = named_values(shown)
        if not values or len(values) != 1:
            return None
        value = _unquoted(next(iter(values.values())), value)
    found = _FULL_DATE.match(value.strip("'\""))
    if not found:
        return None
    unit = " ".join(asked.group("unit").lower().split())
    what, part = _kind(unit)
    return (f"ResultDoesNotFitQuestion: the question asks which {unit} ({what}), a place every period repeats, but the "
            f"result is one row's date {found.group(1)}. Take {what} from the dates (pd.to_datetime(df['date_col']){part}), "
            f"aggregate the rows that share it as the question says (e.g. .groupby(...)['value_col'].mean()), and give "
            f"the {unit} at the end it asks for (.idxmax() or .idxmin() of that grouped series).")


def _unquoted(node: object, shown: str) -> str:
    """The text of one printed value: a string's text, a ``Timestamp('…')`` call as printed."""
    if isinstance(node, ast.Constant):
        return str(node.value)
    return ast.unparse(node) if isinstance(node, ast.expr) else shown


_NAME_KIND = r"(?:(?:full|english|three-letter|abbreviated|short)\s+)*"
_MONTH_NAME = re.compile(rf"\bmonth(?:'s|s')?\s+{_NAME_KIND}names?\b|\bnames?\s+of\s+the\s+months?\b|"
                         rf"\bmonths?\b[^\n]{{0,80}}?\bas\s+(?:its|their|the|an?)\s+{_NAME_KIND}name\b",
                         re.I)
_SHORT = re.compile(r"\babbreviat|\bthree[- ]letter\b|\bshort\s+name\b", re.I)
_WHICH_MONTH = re.compile(r"\b(?:which|what)\s+(?:calendar\s+)?month\b", re.I)
_COUNTED_KEY = re.compile(r"months|count|num|total|share|pct|percent|rate|mean|avg", re.I)


def month_name_asked(question: str) -> bool:
    """The question asks a month to be written as its name ("the month's name", "write the month
    as its English name", "an English month name such as March")."""
    return bool(_MONTH_NAME.search(question or ""))


def _month_number(node: ast.expr | None) -> int | None:
    """A whole number 1–12 as printed (``7``, ``7.0``, ``np.int64(7)``), else None."""
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
        node = node.args[0]
    if not isinstance(node, ast.Constant) or isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
        return None
    return int(node.value) if float(node.value).is_integer() and 1 <= node.value <= 12 else None


def _month_values(question: str, kind: str, shown: str) -> list[tuple[str | None, int]]:
    """(key, month number) of each value of a result that holds a month's number (1–12) where the
    question asks for the month's name (key None: the result itself; see :func:`month_numbers`)."""
    if not month_name_asked(question):
        return []
    if kind == "dict":
        values = named_values(shown) or {}
        return [(key, number) for key, node in values.items()
                if re.search(r"month", key, re.I) and not _COUNTED_KEY.search(key) and (number := _month_number(node))]
    try:
        node = ast.parse((shown or "").strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    number = _month_number(node)
    return [(None, number)] if _WHICH_MONTH.search(question) and number else []


def month_numbers(question: str, kind: str, shown: str) -> list[str | None]:
    """Where a result holds a month's number (1–12) and the question asks for the month's name: the
    keys of a dict of named values whose name says month (not a count of months), or ``[None]`` for
    a bare number answering "which month …". Empty when there is none."""
    return [key for key, _ in _month_values(question, kind, shown)]


def month_names(question: str) -> str:
    """``calendar.month_abbr`` where the question asks a short name ("three-letter"), else ``calendar.month_name``."""
    return "calendar.month_abbr" if _SHORT.search(question or "") else "calendar.month_name"


def month_name_misfit(question: str, kind: str, shown: str) -> str | None:
    """A month's number where the question asks for its name, said for the code step."""
    found = _month_values(question, kind, shown)
    if not found:
        return None
    key, number = found[0]
    where = "result" if key is None else f"result[{key!r}]"
    names = month_names(question)
    name = getattr(calendar, names.split(".")[1])[number]
    return (f"ResultDoesNotFitQuestion: the question asks for the month's name, but {where} is {number}, the month's "
            f"number. Write it as its name: {names}[{number}] is {name!r} (import calendar).")
