"""The precision a question asks for, applied by code to the numbers the answer states.

"to one decimal place", "rounded to 2 decimals", "to the nearest whole number": a small model
states 32.25 % when asked for one decimal, or 3 when asked for two. Each number the explanation
states that some computed number holds (the grounding check's match) is written again from that
computed number at the decimals asked, keeping the claim's thousands separators and its unit.
Whole computed numbers (counts) and scaled claims ("1.3 billion") are left as written. Called by
the grounded explain step (``grounded._ground``), so every workflow's answer gets it.
"""

from __future__ import annotations

import re
from typing import Any

from dsagent.workflows.common.computed import computed_numbers, outputs_text
from dsagent.workflows.common.grounding import Claim, extract_claims, number_grounded

_WORDS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_DECIMALS = re.compile(r"\b(?P<n>[0-6]|zero|one|two|three|four|five|six)\s*(?:decimal(?:\s+places?|\s+digits?|s)?|d\.\s?p\.|dp\b|"
                       r"digits?\s+after\s+the\s+(?:decimal\s+)?point)", re.I)
_WHOLE = re.compile(r"\b(?:nearest\s+(?:whole\s+number|integer)|round(?:ed)?\s+to\s+(?:a\s+)?(?:whole\s+number|integer)|"
                    r"as\s+a\s+whole\s+number|no\s+decimals?)\b", re.I)


def asked_decimals(question: str) -> int | None:
    """The decimals the question asks the answer in, or None when it asks none."""
    if _WHOLE.search(question or ""):
        return 0
    match = _DECIMALS.search(question or "")
    if not match:
        return None
    n = match.group("n").lower()
    return _WORDS.get(n, int(n) if n.isdigit() else None)


def apply_precision(text: str, question: str, outputs: Any) -> tuple[str, list[str]]:
    """``text`` with each stated number the outputs hold written at the decimals the question asks
    for, and what was changed ("32.25% → 32.3%"); unchanged when the question asks none."""
    decimals = asked_decimals(question)
    if decimals is None or not text:
        return text, []
    numbers = computed_numbers(outputs_text(outputs))
    actions: list[str] = []
    for claim in sorted(extract_claims(text, question), key=lambda c: c.start, reverse=True):
        if claim.kind != "number" or claim.scale != 1 or claim.decimals == decimals:
            continue
        value = _held_by(claim, numbers)
        if value is None or float(value).is_integer():
            continue
        shown = _written(value, decimals, claim)
        if shown != claim.text:
            text = text[:claim.start] + shown + text[claim.end:]
            actions.append(f"{claim.text} → {shown} ({decimals} decimal{'s' if decimals != 1 else ''} asked)")
    return text, actions[::-1]


def _held_by(claim: Claim, numbers: list[float]) -> float | None:
    """The computed number the claim states (× 100 for a percent of a fraction), the closest one."""
    held = []
    for number in numbers:
        for candidate in ((number, number * 100) if claim.percent else (number,)):
            if number_grounded(claim, [candidate]) and not (claim.percent and candidate != number and abs(number) > 1):
                held.append(candidate)
    return min(held, key=lambda c: abs(abs(c) - float(claim.value)), default=None)


def _written(value: float, decimals: int, claim: Claim) -> str:
    sign = "-" if claim.text.lstrip().startswith("-") else ""  # a change stated by its size stays a size
    number = f"{abs(value):{',' if ',' in claim.text else ''}.{decimals}f}"
    unit = re.sub(r"^-?[\d,]*(?:\.\d+)?", "", claim.text.strip())
    return sign + number + unit
