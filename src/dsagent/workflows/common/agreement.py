"""Do two independent computations of one question agree? Compared by code, on what they show.

Robust's node 5 asks for a second, independent code for the question and compares the two
``result`` texts: the numbers must match at the precision the less precise one shows (0.2051 and
0.21 agree, 80.64 and 80.86 do not), and neither may hold far more numbers than the other (a whole
column is not the single value the other computed). Texts without numbers agree when the words of
one are all among the other's (``Nigeria`` and ``{'country': 'Nigeria'}``).
Digits inside names (``class1``, ``float64``) are not numbers. Two results with the same numbers
but different labels agree: the check is about values, not names.

A question that asks which label is at one end ("which region has the highest revenue") is
answered by a label: when one result is that bare label and the other establishes the same end
(a Series of numbers whose top is that label, or the label itself), they agree on what was asked
even though one shows numbers the other does not (:func:`answers_agree`).
"""

from __future__ import annotations

import re
from decimal import Decimal

_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.])")
_WORDS = re.compile(r"[^\W_]+")
MAX_NUMBERS = 200


def numbers_in(text: str) -> list[str]:
    """The numbers a result's text shows, in order (at most :data:`MAX_NUMBERS`)."""
    return _NUMBER.findall(text)[:MAX_NUMBERS]


def _decimals(number: str) -> int:
    mantissa, _, exponent = number.lower().partition("e")
    places = len(mantissa.partition(".")[2])
    return places - int(exponent or 0)


def _same(a: str, b: str) -> bool:
    """Equal at the precision of the less precise one (half a unit of its last place)."""
    x, y = Decimal(a), Decimal(b)  # _NUMBER only matches what Decimal reads
    places = min(_decimals(a), _decimals(b))
    return abs(x - y) <= Decimal(5) * Decimal(10) ** (-places - 1) + abs(max(x, y, key=abs)) * Decimal("1e-9")


def results_agree(a: str | None, b: str | None) -> bool | None:
    """True if the two results show the same answer, False if not, None if one is missing."""
    if not a or not b:
        return None
    na, nb = numbers_in(a), numbers_in(b)
    if not na and not nb:
        wa, wb = set(_WORDS.findall(a.lower())), set(_WORDS.findall(b.lower()))
        return bool(wa and wb) and (wa <= wb or wb <= wa)
    short, long = sorted((na, nb), key=len)
    if not short or len(long) > 2 * len(short) + 2:
        return False
    unused = list(long)
    for number in short:
        match = next((i for i, other in enumerate(unused) if _same(number, other)), None)
        if match is None:
            return False
        unused.pop(match)
    return True


def answers_agree(question: str, a: str | None, b: str | None) -> bool | None:
    """:func:`results_agree`, or, for a "which … highest / lowest" question, the two results name the
    same label at the asked end while one of them is that bare label (it computed no numbers to compare)."""
    same = results_agree(a, b)
    if same is not False or not question:
        return same
    from dsagent.workflows.common.rankings import asked_end, ranked_ends

    end = asked_end(question)
    if end is None or (numbers_in(a) and numbers_in(b)):
        return False
    label_a, label_b = ranked_ends(question, a)[0].get(end), ranked_ends(question, b)[0].get(end)
    return bool(label_a and label_b) and label_a.strip().lower() == label_b.strip().lower()
