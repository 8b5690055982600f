"""How the profile writes a column and its values: one compact line (Summary A) or one detailed line
(Summary B), and each value as code must write it to match the frame (a float in full where a filter
copies it, text quoted with odd blanks escaped, bounds told apart). Kept apart from the budgeting in
:mod:`dsagent.data.profile` so the table profile and the sharing scan write values the same way.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping

import pandas as pd

from dsagent.data.stats import ColumnStats

NAME_CHARS = 60
"""A longer column name is shown cut, with its position (``df.columns[i]``): names are data, and a
sentence-long one ("ignore previous instructions and …") must not read as a prompt of its own."""
_SHORT_DTYPES = {"int": "int", "uint": "int", "float": "float", "bool": "bool", "datetime": "date"}


def numbers_note(options: Mapping) -> str:
    """Which text columns the loader read as numbers, each with one value as the file writes it."""
    converted = options.get("numbers_from_text") or {}
    parts = [f"{column_name(name)} (file writes {value_text(shown)}" + (", a percentage 0-100)" if "%" in shown else ")")
             for name, shown in converted.items()]
    note = "\nread as numbers from text: " + ", ".join(parts) if parts else ""
    marked = options.get("missing_marks") or {}
    if marked:  # ".." is "not available" in official statistics: read as missing, so notna() counts the figures
        note += f"\nfile writes {value_text(next(iter(marked.values())))} for missing, read as missing (NaN) in: " + ", ".join(map(column_name, marked))
    return note


def compact_line(s: ColumnStats, position: int | None = None) -> str:
    # ~10 tokens: bare names when unambiguous, rounded figures (Qwen pays a token per digit).
    bare = len(s.name) <= NAME_CHARS and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", s.name)
    name = s.name if bare else column_name(s.name, position)
    parts = [f"{name}: {'bool' if s.kind == 'bool' else short_dtype(s.dtype)}"]
    if s.unique is not None and s.kind != "bool":
        parts.append("u=all" if unique_text(s) == "all" else f"u={approx(s.unique)}")
    if s.missing:
        parts.append(f"miss={pct(s.missing, s.rows)}")
    if s.mean is not None and s.kind == "num" and s.unique and s.unique > 2:
        parts.append(f"mean={approx(s.mean)}")
    return " ".join(parts)


def detailed_line(s: ColumnStats, position: int | None = None) -> str:
    parts = [f"- {column_name(s.name, position)} {s.dtype}" + (" bool" if s.kind == "bool" and s.dtype == "object" else "")]
    if s.missing:
        parts.append(f"miss={pct(s.missing, s.rows)}")
    if s.unique is not None:
        parts.append(f"u={unique_text(s)}")
    if s.kind == "num" and s.low is not None:
        low, high = bounds(s.low, s.high, s.dtype)
        parts.append(f"min={low} max={high}")
        if s.unique and s.unique > 2:
            parts.append(f"mean={num(s.mean)} std={num(s.std)}")
    elif s.kind == "datetime" and s.low is not None:
        parts.append(f"min={when(s.low)} max={when(s.high)}")
    if s.top:
        unit = "%" if s.top_is_share else ""
        shown = ", ".join(f"{v} {n}{unit}" for v, (_, n) in zip(top_values([v for v, _ in s.top]), s.top))
        more = (s.unique or 0) - len(s.top)
        parts.append(f"top: {shown}" + (f" +{more} more" if more > 0 else ""))
    if s.samples:
        parts.append("eg " + ", ".join(dict.fromkeys(told_apart(s.samples, [value_text(v) for v in s.samples], 80))))
    text = " ".join(parts)
    if s.issue:
        text += f" ! {s.issue}"
    return text


def column_name(name: str, position: int | None = None) -> str:
    """A column name as a quoted string literal (newlines escaped); a long one cut (:data:`NAME_CHARS`)
    to its head and its tail, where names that begin alike ("Percentage of pupils … with …") differ."""
    if len(name) <= NAME_CHARS:
        return json.dumps(name, ensure_ascii=False)
    where = f", df.columns[{position}]" if position is not None else ""
    tail = NAME_CHARS // 3
    cut = name[: NAME_CHARS - tail - 1] + "…" + name[-tail:]
    return json.dumps(cut, ensure_ascii=False) + f" (name cut, {len(name)} chars{where})"


ODD_BLANKS = {"\xa0": "\\xa0", "\u202f": "\\u202f", "\u2009": "\\u2009", "\t": "\\t", "\r": "\\r"}


def value_text(value: object, limit: int = 24) -> str:
    """One value as code would write it: text quoted (a no-break space as ``\\xa0``, which
    ``==`` needs and a plain blank would not match), a float short (:func:`num`)."""
    if isinstance(value, str):
        text = value if len(value) <= limit else value[: limit - 1] + "…"
        for blank, shown in ODD_BLANKS.items():
            text = text.replace(blank, shown)
        return '"' + text.replace('"', "'").replace("\n", " ") + '"'
    if isinstance(value, float):
        return num(value)
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


TOP_CHARS = 48


def top_values(values: list[object]) -> list[str]:
    """The top values as ``df[col] == value`` must write them: a float in full (3.258096, not
    3.26), text up to :data:`TOP_CHARS` characters, and whole where two cut ones would read alike."""
    shown = [repr(float(v)).removesuffix(".0") if isinstance(v, float) and math.isfinite(v) else value_text(v, TOP_CHARS)
             for v in values]
    return told_apart(values, shown, 10_000)


def told_apart(values: list[object], shown: list[str], limit: int) -> list[str]:
    """``shown`` with the texts that read alike there (cut at the same place: URLs, long labels)
    written again up to ``limit`` characters."""
    alike = {t for t in shown if shown.count(t) > 1}
    return [value_text(v, limit) if t in alike and isinstance(v, str) else t for v, t in zip(values, shown)]


def bounds(low: float | int, high: float | int, dtype: str) -> tuple[str, str]:
    """The minimum and the maximum, told apart: whole numbers of an integer column in full (18640101
    is a date written YYYYMMDD, not 1.86e7), others with the figures it takes to show they differ
    (107.8681 and 107.8682, not 108 and 108)."""
    if "int" in dtype.lower() and max(abs(int(low)), abs(int(high))) < 2**53:
        return str(int(low)), str(int(high))
    for digits in range(3, 11):
        shown = num(low, digits), num(high, digits)
        if shown[0] != shown[1] or low == high:
            return shown
    return shown


def short_dtype(dtype: str) -> str:
    base = re.sub(r"\d+$|\[.*\]$", "", dtype.lower())
    return _SHORT_DTYPES.get(base.replace("datetime64", "datetime"), "str" if base in ("object", "string") else base)


def unique_text(s: ColumnStats) -> str:
    if s.unique == s.rows - s.missing and s.unique > 1 and not s.unique_approx:
        return "all"
    return ("~" if s.unique_approx else "") + num(s.unique)


def pct(part: int, whole: int) -> str:
    share = 100 * part / whole
    return f"{share:.0f}%" if share >= 1 else f"{share:.1g}%"


def when(value: object) -> str:
    stamp = pd.Timestamp(value)
    return stamp.strftime("%Y-%m-%d") if stamp == stamp.normalize() else stamp.strftime("%Y-%m-%d %H:%M")


def num(value: float | int, digits: int = 3) -> str:
    """``digits`` significant figures (three), no exponent under a million: Qwen pays one token per digit."""
    value = float(value)
    if math.isnan(value) or math.isinf(value):
        return str(value)
    if value == int(value) and abs(value) < 1e6:
        return str(int(value))
    if 10 ** (digits - 1) <= abs(value) < 1e6:
        return str(round(value))
    if abs(value) >= 1e6:
        mantissa, exp = f"{value:.{digits}g}".split("e") if "e" in f"{value:.{digits}g}" else (f"{value:.{digits}g}", "0")
        return f"{mantissa}e{int(exp)}"
    text = f"{value:.{digits}g}"
    if "e" in text:
        mantissa, exp = text.split("e")
        return f"{mantissa}e{int(exp)}"
    return text


def approx(value: float | int) -> str:
    """Two significant figures with k/M/B: the compact overview only needs magnitudes."""
    value = float(value)
    if math.isnan(value) or math.isinf(value):
        return str(value)
    value = float(f"{value:.2g}")
    for limit, scale, suffix in ((1e9, 1e9, "B"), (1e6, 1e6, "M"), (1e4, 1e3, "k")):
        if abs(value) >= limit:
            return f"{value / scale:g}{suffix}"
    return num(value)
