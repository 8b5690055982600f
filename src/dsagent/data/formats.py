"""Spot text columns whose values do not share one format, and say so in a few words.

These are the columns a small model gets wrong: ``pd.to_datetime`` on two date formats, ``.mean()``
on "1,234" strings, ``== "North"`` when half the rows say "north ". Runs on the distinct values of
a sample with their counts, using pyarrow's vectorized regex so a 50k-value column costs ~10 ms.
"""

from __future__ import annotations

import re

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

# First match wins; each label is what the model needs to choose a parse format.
DATE_FORMATS = (
    (r"^\d{4}-\d{1,2}-\d{1,2}([ T]\d{1,2}:\d{2}.*)?$", "YYYY-MM-DD"),
    (r"^\d{4}/\d{1,2}/\d{1,2}([ T]\d{1,2}:\d{2}.*)?$", "YYYY/MM/DD"),
    (r"^\d{1,2}/\d{1,2}/\d{2,4}( \d{1,2}:\d{2}.*)?$", "slash"),
    (r"^\d{1,2}-\d{1,2}-\d{2,4}( \d{1,2}:\d{2}.*)?$", "dash"),
    (r"^\d{1,2}\.\d{1,2}\.\d{2,4}( \d{1,2}:\d{2}.*)?$", "dot"),
    (r"^\d{1,2}[ -][A-Za-z]{3,9}\.?[ -,]+\d{2,4}$", "D Mon YYYY"),
    (r"^[A-Za-z]{3,9}\.? \d{1,2}(st|nd|rd|th)?,? \d{4}$", "Mon D, YYYY"),
)
_NUMBER_FEATURES = (
    (r"^[-+]?\d+(\.\d+)?$", None),
    (r"^[-+]?\d{1,3}([,' ]\d{3})+(\.\d+)?$", "thousand separators"),
    (r"^[-+]?\d{1,3}(\.\d{3})+(,\d+)?$|^[-+]?\d+,\d{1,2}$", "decimal commas"),
    (r"^[-(]?[$€£¥]\s?-?[\d.,]+\)?$|^-?[\d.,]+\s?[$€£¥]$|^-?[\d.,]+\s?(USD|EUR|GBP)$", "currency"),
    (r"^[-+]?[\d.,]+\s?%$", "%"),
    (r"^[-+]?[\d.,]+\s?[A-Za-z]{1,5}\.?$", "units"),
)
_MIN_SHARE = 0.01


def describe_format_issue(values: pa.Array, counts: np.ndarray) -> str | None:
    """A short warning for mixed formats among ``values`` (distinct strings), or None."""
    if len(values) < 2:
        return None
    raw = values.cast(pa.string())
    values = pc.utf8_trim_whitespace(raw)
    counts = np.asarray(counts, dtype=np.int64)
    total = counts.sum()
    has_digit = _mask(values, r"\d")
    if counts[has_digit].sum() >= 0.5 * total:
        issue = _date_issue(values, counts) or _number_issue(values, counts) or _shape_issue(values, counts)
        if issue:
            return issue
    return _case_issue(raw, values) or _space_issue(raw, values, counts)


def _mask(values: pa.Array, pattern: str) -> np.ndarray:
    return pc.match_substring_regex(values, pattern).to_numpy(zero_copy_only=False).astype(bool)


def _quote(value: str, limit: int = 20) -> str:
    value = value if len(value) <= limit else value[: limit - 1] + "…"
    return '"' + value.replace('"', "'") + '"'


def _example(values: pa.Array, counts: np.ndarray, mask: np.ndarray) -> str:
    idx = np.flatnonzero(mask)
    return values[int(idx[np.argmax(counts[idx])])].as_py()


def _date_issue(values: pa.Array, counts: np.ndarray) -> str | None:
    total = counts.sum()
    free = np.ones(len(values), dtype=bool)
    found = []
    for pattern, label in DATE_FORMATS:
        hit = free & _mask(values, pattern)
        if hit.any():
            free &= ~hit
            found.append((label, hit, counts[hit].sum()))
    dated = sum(n for _, _, n in found)
    if dated < 0.5 * total:
        return None
    found = [f for f in found if f[2] >= _MIN_SHARE * dated]
    parts = []
    for label, hit, n in sorted(found, key=lambda f: -f[2]):
        order = _day_month_order(values, hit) if label in ("slash", "dash", "dot") else ""
        parts.append(f"{_quote(_example(values, counts, hit))} {_pct(n, total)}{order}")
    if len(found) >= 2:
        return "mixed date formats: " + ", ".join(parts)
    if len(found) == 1 and found[0][0] in ("slash", "dash", "dot"):
        return "text dates " + parts[0].split(" ", 1)[0] + (_day_month_order(values, found[0][1]) or "")
    return None


def _day_month_order(values: pa.Array, mask: np.ndarray) -> str:
    firsts, seconds = [], []
    for value in values.filter(pa.array(mask))[:5000].to_pylist():
        parts = re.split(r"[/.\- ]", value)
        firsts.append(int(parts[0]))
        seconds.append(int(parts[1]))
    if max(firsts) > 12 and max(seconds) <= 12:
        return " (day first)"
    if max(seconds) > 12 and max(firsts) <= 12:
        return " (month first)"
    if max(firsts) > 12 and max(seconds) > 12:
        return " (day and month first both present)"
    return ""


def _number_issue(values: pa.Array, counts: np.ndarray) -> str | None:
    total = counts.sum()
    numeric = np.zeros(len(values), dtype=bool)
    features = []
    for pattern, label in _NUMBER_FEATURES:
        hit = ~numeric & _mask(values, pattern)
        if hit.any():
            numeric |= hit
            if label:
                features.append(f"{label} {_quote(_example(values, counts, hit))}")
    share = counts[numeric].sum() / total
    if share < 0.8:
        return None
    text = "numbers stored as text"
    if features:
        text += " with " + ", ".join(features)
    if not numeric.all():
        others = np.flatnonzero(~numeric)
        others = others[np.argsort(-counts[others])][:3]
        text += "; non-numeric: " + ", ".join(f"{_quote(values[int(i)].as_py())} {counts[i]}" for i in others)
    return text


def _shape_issue(values: pa.Array, counts: np.ndarray) -> str | None:
    # Collapse digit and letter runs: "7:13 PM" and "19:13" differ, "id12" and "id345" do not.
    # Only values with digits take part: "b2b" next to "retail" is a category, not a format.
    with_digit = _mask(values, r"\d")
    values, counts = values.filter(pa.array(with_digit)), counts[with_digit]
    if len(values) <= 3:  # a few labels ("type1|2", "type3"): categories the top values show, not formats
        return None
    shapes = pc.replace_substring_regex(values, r"\d+", "9")
    shapes = pc.replace_substring_regex(shapes, r"[A-Za-z]+", "a")
    uniq, inverse = np.unique(np.asarray(shapes.to_pylist(), dtype=object), return_inverse=True)
    if len(uniq) < 2:
        return None
    weight = np.bincount(inverse, weights=counts)
    order = np.argsort(-weight)
    total = counts.sum()
    top_share = weight[order[:3]].sum() / total
    if weight[order[0]] > 0.95 * total or weight[order[1]] < 0.05 * total or top_share < 0.9:
        return None  # one dominant shape, or free text with many shapes
    parts = [
        f"{_quote(_example(values, counts, inverse == k))} {_pct(weight[k], total)}"
        for k in order[:3]
        if weight[k] >= 0.05 * total
    ]
    return "mixed formats: " + ", ".join(parts)


def _case_issue(raw: pa.Array, trimmed: pa.Array) -> str | None:
    if len(raw) > 5000:
        return None  # free text: case duplicates there are not a data-quality signal
    keys = pc.utf8_lower(trimmed)
    if pc.count_distinct(keys).as_py() == len(raw):
        return None
    groups: dict[str, list[str]] = {}
    for key, value in zip(keys.to_pylist(), raw.to_pylist()):
        groups.setdefault(key, []).append(value)
    variants = [g for g in groups.values() if len(g) > 1]
    example = max(variants, key=len)[:3]
    groups = f" ({len(variants)} groups)" if len(variants) > 1 else ""
    return f"case/space variants{groups}, e.g. " + " vs ".join(_quote(v) for v in example)


def _space_issue(raw: pa.Array, trimmed: pa.Array, counts: np.ndarray) -> str | None:
    """Values with a blank at an end ("Kansas "), which ``== 'Kansas'`` does not meet, when no
    trimmed twin makes them a case/space variant already."""
    padded = np.asarray(pc.not_equal(raw, trimmed).to_numpy(zero_copy_only=False), dtype=bool)
    if not padded.any():
        return None
    example = _quote(_example(raw, counts, padded))
    return f"spaces at an end of {_pct(counts[padded].sum(), counts.sum())} of values, e.g. {example}: .str.strip() before comparing"


def _pct(n: float, total: float) -> str:
    share = 100 * n / total
    return f"{share:.0f}%" if share >= 1 else "<1%"
