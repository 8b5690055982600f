"""InfiAgent-DABench's official closed-form scoring (eval_closed_form.py), restated.

A response is scanned with ``@(\\w+)\\[(.*?)\\]``; a sub-answer is right when it equals the label as
a string or when |float(pred) - float(label)| < 1e-6. ABQ = share of questions with every
sub-answer right; PASQ = mean per-question share; UASQ = share of all sub-answers right.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal

ANSWER = re.compile(r"@(\w+)\[(.*?)\]")


def extract_answers(response: str) -> dict[str, str]:
    """Name → value; a repeated name keeps its last value (as the official script does)."""
    return {name: value for name, value in ANSWER.findall(response or "")}


_DICT_ITEM = re.compile(r"""['"]@?(\w+)['"]\s*:\s*(?:np\.\w+\()?\s*(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|'[^']*'|"[^"]*")""")


_UNROUNDED = re.compile(r"-?\d+\.\d{5,}")
_BARE_VALUE = re.compile(r"[^\n{}\[\]()@:]{1,80}")
_ITEM = r"""(?:np\.\w+\()?\s*(?:-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|'[^'\n]*'|"[^"\n]*")\s*\)?"""
_LIST = re.compile(rf"\[\s*({_ITEM}(?:\s*,\s*{_ITEM})*)\s*,?\s*\]")
_DICT_LIST = re.compile(r"""['"]@?(\w+)['"]\s*:\s*(\[[^\[\]\n]*\])""")


def _listed(text: str, places: int | None) -> str | None:
    """A flat list of numbers or strings as the benchmark writes one, ``a, b`` (numbers with more
    decimals than the format asks rounded half-up, by code); None for anything else."""
    if re.fullmatch(r"\[\s*\]", text.strip()):
        return ""
    match = _LIST.fullmatch(text.strip())
    if match is None:
        return None
    items = []
    for item in re.findall(_ITEM, match.group(1)):
        value = re.sub(r"^np\.\w+\(\s*|\s*\)$", "", item.strip()).strip("'\"")
        items.append((_half_up(value, places) if places is not None else None) or value)
    return ", ".join(items)


def computed_answers(result_str: str, names: list[str], format_text: str = "") -> dict[str, str]:
    """The answers the analysis code itself produced: ``@name[value]`` items in its result,
    ``{'name': value}`` entries, or — when the format asks for one answer — a result that is one
    bare value (``Gibraltar``, ``0.67``). A number with 5+ decimals counts only when the format
    asks for one precision (``round_as_asked`` then rounds it by code), or is written at one of the
    precisions it asks (rounded already); otherwise it is left to the formatting call, which knows
    what the format wants. A flat list (``['Kuwait', 'Chad']``, as a
    ``{'name': [...]}`` entry or the whole result) is written as the benchmark writes one:
    ``Kuwait, Chad``."""
    places = asked_decimals(format_text)
    rounds = places is not None
    precisions = {int(m) if m.isdigit() else _WORDS[m.lower()] for m in _PRECISION.findall(format_text or "")}
    found = {n: v for n, v in extract_answers(result_str).items() if n in names}
    for name, value in _DICT_ITEM.findall(result_str or ""):
        if name in names and name not in found:
            value = value.strip("'\"")
            if rounds or not _UNROUNDED.fullmatch(value) or len(value.split(".")[1]) in precisions:
                found[name] = value
    for name, value in _DICT_LIST.findall(result_str or ""):
        if name in names and name not in found:
            listed = _listed(value, places)
            if listed is not None:
                found[name] = listed
    if len(names) == 1 and not found:
        value = (result_str or "").strip().strip("'\"").strip()
        listed = _listed(value, places)
        if listed is not None:
            found[names[0]] = listed
        elif _BARE_VALUE.fullmatch(value) and (rounds or not _UNROUNDED.fullmatch(value)):
            found[names[0]] = value
    return found


_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_PRECISION = re.compile(r"(\d|one|two|three|four|five|six)\s+decimal", re.I)
_LONG_NUMBER = re.compile(r"-?\d+\.\d+")


def asked_decimals(format_text: str) -> int | None:
    """The decimals a format asks for ("rounded to two decimal places"), when it asks for one
    precision only; None when it asks for none or for several."""
    found = {int(m) if m.isdigit() else _WORDS[m.lower()] for m in _PRECISION.findall(format_text or "")}
    return found.pop() if len(found) == 1 else None


def round_as_asked(answers: dict[str, str], format_text: str) -> dict[str, str]:
    """The answers whose number has more decimals than the format asks, rounded half-up."""
    places = asked_decimals(format_text)
    if places is None:
        return {}
    rounded = {name: _half_up(value.strip(), places) for name, value in answers.items()}
    return {name: value for name, value in rounded.items() if value is not None}


def _half_up(value: str, places: int) -> str | None:
    """``value`` rounded half-up to ``places`` decimals when it is a number with more, else None."""
    if _LONG_NUMBER.fullmatch(value) and len(value.split(".")[1]) > places:
        return str(Decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))
    return None


_SPELLED = re.compile(r'"([^"\n]{1,40})"|\((\w+)\)|\b(true|false|True|False|TRUE|FALSE)\b')


def spelled_as_asked(answers: dict[str, str], format_text: str) -> dict[str, str]:
    """The answers that are a word the format spells otherwise — ``True`` where it writes
    ``true``, ``Normal`` for ``"normal"`` — in the format's spelling (case only, nothing else)."""
    spellings = {}
    for match in _SPELLED.finditer(format_text or ""):
        word = next(g for g in match.groups() if g)
        spellings.setdefault(word.lower(), word)
    spelled = {}
    for name, value in answers.items():
        asked = spellings.get(value.strip().lower())
        if asked is not None and asked != value.strip():
            spelled[name] = asked
    return spelled


def expected_names(format_text: str) -> list[str]:
    """The answer names a question's `format` asks for, in order."""
    seen: list[str] = []
    for name in re.findall(r"@(\w+)\[", format_text):
        if name not in seen:
            seen.append(name)
    return seen


def sub_correct(pred: str | None, label: str) -> bool:
    if pred is None:
        return False
    if pred.strip() == str(label).strip():
        return True
    try:
        return abs(float(pred) - float(label)) < 1e-6
    except (TypeError, ValueError):
        return False


def score_question(response: str, labels: list[list[str]]) -> list[bool]:
    answers = extract_answers(response)
    return [sub_correct(answers.get(name), value) for name, value in dict(labels).items()]


def summarize(per_question: Iterable[list[bool]]) -> dict[str, float]:
    rows = [r for r in per_question if r]
    if not rows:
        return {"ABQ": 0.0, "PASQ": 0.0, "UASQ": 0.0, "n": 0}
    subs = [x for r in rows for x in r]
    return {
        "ABQ": sum(all(r) for r in rows) / len(rows),
        "PASQ": sum(sum(r) / len(r) for r in rows) / len(rows),
        "UASQ": sum(subs) / len(subs),
        "n": len(rows),
    }
