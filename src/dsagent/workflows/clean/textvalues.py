"""Parsing text cells: numbers written as text, dates in mixed formats, placeholders, edit distance.

These helpers run in two places: here, when the findings are detected, and — as source text copied
into the generated ``data_cleaner`` — in the sandbox. :data:`HELPERS_SOURCE` is that text, so the
detector and the cleaner parse a cell the same way (one copy; ``tests/workflows/clean`` tests both).
"""

from __future__ import annotations

HELPERS_SOURCE = r'''
import re as _re
import datetime as _dt

_CURRENCY = _re.compile(r"^(?:[$€£¥]|[A-Z]{3}\s)?\s*(.*?)\s*(?:\s[A-Z]{3}|[$€£¥])?$")
_GROUPED = _re.compile(r"^[+-]?\d{1,3}(?:([, \u00a0_])\d{3})(?:\1\d{3})*(?:\.\d+)?$")
_PLAIN = _re.compile(r"^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$")
_MONTHS = {m: i + 1 for i, m in enumerate(["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"])}


def parse_number(value):
    """A number written as text ('$1,234.50', '12.00 USD', '2 644 765', '(12)', '45%') or None."""
    if value is None:
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return None if value != value else float(value)
    text = str(value).strip()
    if not text:
        return None
    negative = text.startswith("(") and text.endswith(")")
    if negative:
        text = text[1:-1].strip()
    text = text.rstrip("%").strip()
    body = _CURRENCY.match(text).group(1).strip()
    if _GROUPED.match(body):
        body = _re.sub(r"[, \u00a0_]", "", body)
    if not _PLAIN.match(body):
        return None
    number = float(body)
    return -number if negative else number


_DATE_FORMATS = ["%Y-%m-%d", "%Y/%m/%d", "%Y.%m.%d", "%Y%m%d", "%d %b %Y", "%d %B %Y", "%b %d, %Y",
                 "%B %d, %Y", "%b %d %Y", "%B %d %Y", "%d-%b-%Y", "%d-%B-%Y", "%Y-%m-%d %H:%M:%S",
                 "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"]


def parse_date(value, dayfirst=False):
    """A date written in one of many formats, or None. Slashed d/m/y dates follow ``dayfirst``."""
    if value is None or (isinstance(value, float) and value != value):
        return None
    if isinstance(value, _dt.datetime):
        return value
    text = str(value).strip()
    if not text or len(text) > 40:
        return None
    for fmt in _DATE_FORMATS:
        try:
            return _dt.datetime.strptime(text, fmt)
        except ValueError:
            pass
    m = _re.match(r"^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})$", text)
    if m:
        a, b, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
        y = y + (2000 if y < 50 else 1900) if y < 100 else y
        day, month = (a, b) if dayfirst else (b, a)
        if month > 12:
            day, month = month, day
        try:
            return _dt.datetime(y, month, day)
        except ValueError:
            return None
    return None
'''

exec(compile(HELPERS_SOURCE, "<clean helpers>", "exec"))  # noqa: S102 - our own vetted source, one copy

PLACEHOLDERS = ("-", "--", "---", "?", "??", "n/a", "n.a.", "na", "none", "null", "nan", "missing", "unknown",
                "not available", "#n/a", "nil", ".", "undefined", "(blank)", "blank")
"""Written-out missing values. In a column that is otherwise numbers or dates every one of them is
a placeholder; in a text column only those that cannot be a category name (:data:`TEXT_PLACEHOLDERS`)."""
TEXT_PLACEHOLDERS = ("-", "--", "---", "?", "??", "n/a", "n.a.", "#n/a", "null", "nan", ".", "(blank)")


def is_placeholder(value: object, text_column: bool = False) -> bool:
    if not isinstance(value, str):
        return False
    return value.strip().lower() in (TEXT_PLACEHOLDERS if text_column else PLACEHOLDERS) or not value.strip()


def edit_distance(a: str, b: str, limit: int = 2) -> int:
    """Optimal-string-alignment distance (a swap of neighbours counts one), capped at ``limit + 1``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]
