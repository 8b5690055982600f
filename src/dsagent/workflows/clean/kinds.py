"""What a text column is, learned from its values: a code, or something else.

A **code** (zip, phone number, an id, a product or measure code) is written to a fixed pattern: most
of its values have the same *shape* — digits as ``9``, letters as ``a``, every other character as
itself (``744-9007`` → ``999-9999``, ``AK-12`` → ``aa-99``). A code is never a quantity: it is
never parsed as a number, never imputed with a statistic, never averaged; a cell whose shape breaks
the dominant one (``x5957`` in a column of five digits) is an error to repair from other evidence
(see ``evidence.py``) or to flag, and two codes that differ by one letter in the same shape
(``ak_hf-1`` / ``al_hf-1``) are two codes, not a typo.

Why shapes: they need no knowledge of the column's name or meaning, only that the column's own
values agree on a pattern; a measurement (``12.5``, ``1,234``) or a name does not.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Iterable

CODE_SHARE = 0.9
"""A column is a code when at least this share of its non-missing values has the dominant shape…"""
ROUND_SHARE = 0.5
"""…and, when that shape is only digits, when fewer than this share end in 0 (amounts are rounded;
the last digit of a code is spread evenly) — or some value has a leading zero, which no amount has."""


def shape(value: str) -> str:
    """``value`` with each digit written ``9`` and each letter ``a``; other characters stay."""
    return "".join("9" if ch.isdigit() else "a" if ch.isalpha() else ch for ch in value)


def dominant_shape(values: Iterable[str]) -> tuple[str | None, float]:
    """The most frequent shape of the values and the share of values that have it."""
    shapes = Counter(shape(v) for v in values)
    if not shapes:
        return None, 0.0
    top, n = shapes.most_common(1)[0]
    return top, n / sum(shapes.values())


def is_code(values: list[str]) -> bool:
    """A fixed-pattern code: one dominant shape with a digit in it and at least two characters,
    and — for a shape of digits only — a leading zero somewhere, or last digits that are not mostly 0."""
    values = [v for v in values if v]
    if len(values) < 10:
        return False
    top, share = dominant_shape(values)
    if top is None or share < CODE_SHARE or "9" not in top or len(top) < 2:
        return False
    if " " in top.strip():
        return False  # several words: text with numbers in it, not a code
    if set(top) == {"9"}:
        fitting = [v for v in values if shape(v) == top]
        if any(v[0] == "0" for v in fitting):
            return True
        return sum(v.endswith("0") for v in fitting) < ROUND_SHARE * len(fitting) and len(top) >= 5
    if set(top) <= {"9", "."}:
        return False  # decimals: a measurement
    return True


def breaks_shape(value: str, dominant: str) -> bool:
    """The cell's shape differs from the column's dominant one."""
    return shape(value) != dominant


def noise_only(value: str, canonical: str) -> bool:
    """``value`` is ``canonical`` with characters replaced that break its shape (a letter where the
    pattern has a digit, a stray symbol), same length: character noise, not another code."""
    if len(value) != len(canonical):
        return False
    diffs = [(a, b) for a, b in zip(value, canonical) if a != b]
    return bool(diffs) and all(shape(a) != shape(b) for a, b in diffs)


def inside_words(value: str, other: str, shortest: int = 3) -> bool:
    """Every character the two (same-length) values differ in lies inside a word of at least
    ``shortest`` letters in one of them: a slip in a word (``Dem.uRep.`` / ``Dem. Rep.``), not a short
    word replaced by another (``a.m.`` / ``p.m.``, ``Mr`` / ``Ms``). Values of different lengths (a
    letter added or dropped) pass."""
    if len(value) != len(other):
        return True

    def word_length(text: str, i: int) -> int:
        lo = hi = i
        while lo > 0 and text[lo - 1].isalnum():
            lo -= 1
        while hi < len(text) and text[hi].isalnum():
            hi += 1
        return hi - lo

    return all(max(word_length(value, i), word_length(other, i)) >= shortest
               for i, (a, b) in enumerate(zip(value, other)) if a != b)


def same_digits(value: str, other: str) -> bool:
    """The two values carry the same digits in the same order: a slip in the letters of a name, not
    another number (``4:55 p.m.`` / ``2:55 p.m.`` are two times, ``Lisbn`` / ``Lisbon`` one city)."""
    return [c for c in value if c.isdigit()] == [c for c in other if c.isdigit()]


PATTERN_COVER = 0.8
"""A column has a format when at most three shapes, each of at least a tenth of its values, cover this share."""


def dominant_shapes(values: list[str]) -> set[str]:
    """The column's format: its few frequent shapes, when together they cover most values; else empty."""
    shapes = Counter(shape(v) for v in values if v)
    total = sum(shapes.values())
    if total < 10:
        return set()
    top = {s for s, n in shapes.most_common(3) if n >= 0.1 * total}
    return top if sum(shapes[s] for s in top) >= PATTERN_COVER * total and all(" " not in s or len(s) <= 20 for s in top) else set()


def format_repairs(values: list[str]) -> dict[str, str]:
    """Values written with extra words around a value of the column's own format (``12/02/2011 6:55
    a.m.`` in a column of ``6:55 a.m.``): the one run of whole words that has the format. A value with
    no such run, or two different ones, is left as it is."""
    repairs = _unescaped(values)
    top = dominant_shapes(values)
    if not top:
        return repairs
    for v in set(values):
        if not v or shape(v) in top or v in repairs:
            continue
        words = v.split()
        found = {" ".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, len(words) + 1)
                 if shape(" ".join(words[i:j])) in top}
        if not found:  # no run of words: a run of letters and digits (``AK-*`` in a column of ``AK``)
            found = {w for w in re.findall(r"[^\W_]+", v) if shape(w) in top}
        if len(found) == 1:
            repairs[v] = found.pop()
    return repairs


def _unescaped(values: list[str]) -> dict[str, str]:
    """A quote written twice between two letters (``O''Brien``): an escaping left over from SQL or
    CSV, never a spelling; written once."""
    return {v: re.sub(r"(?<=\w)''(?=\w)", "'", v) for v in values if re.search(r"\w''\w", v)}
