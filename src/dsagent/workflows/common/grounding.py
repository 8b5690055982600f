"""Grounding by code: every number and data label an explanation states must be one the code computed.

A small model writing free text about a result puts at least one wrong value in most answers: it
reads off the first row of a Series instead of its mean, or names a country when the code computed
a row number. No model call can be trusted to catch that; a comparison of the explanation's claims
with the computed outputs can, exactly and for free.

A *claim* is a number written in the explanation (``16.08``, ``90,133.50``, ``38.1 %``,
``237.6 million``) or a label of the data (a value of one of the datasets' text columns, such as a
country or a region) named in it. Numbers and labels copied from the question are not findings,
nor are list markers, parts of names or dates (``Q1``, ``0-1``, ``2024-01``). A number is grounded
when some computed number, rounded to the decimals the explanation shows, equals it (``16.08`` for
16.0766; thousands separators and scale words are read; a percentage may be a computed fraction
times 100); a label when the computed outputs contain it. A label called the highest or lowest must be
the one the outputs put there (:mod:`~dsagent.workflows.common.rankings`).

:func:`ground_explanation` is the one call every workflow's explain step makes: it checks, asks
``regenerate`` once with the discrepancy named, and if claims are still ungrounded replaces a lone
number by the computed one or drops the sentences that state them. What it did is in the returned
:class:`GroundedText` (for the run log and the report). A new grounding rule (what counts as a
claim, when it is grounded) goes here; what the outputs hold is read in :mod:`.computed`, rankings
in :mod:`.rankings`, and workflows call it through :mod:`.grounded`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from dsagent.workflows.common.computed import (
    computed_numbers,
    data_facts,
    data_labels,
    one_cell,
    outputs_text,
    result_of,
    single_number,
    single_value,
)
from dsagent.workflows.common.rankings import drop_false_rankings
from dsagent.workflows.common.wording import COMPARES, sentence_spans

__all__ = ["Claim", "ClaimCheck", "GroundedText", "check_claims", "computed_numbers", "data_facts", "data_labels",
           "extract_claims", "ground_explanation", "outputs_text"]

_SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "mn": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9,
           "trillion": 1e12}
# A number as prose writes it: not part of a word, a date, a range, a time or a version.
_CLAIM_NUMBER = re.compile(
    r"(?<![\w.,\-/:#@$€£¥])(?P<sign>-)?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?![\w\-/:]|\.\d|,\d{3})(?P<pct>\s?%|\s?percent\b|\s?per cent\b)?"
    r"(?:\s?(?P<scale>thousand|million|billion|trillion|mn|bn)\b)?", re.I)
_CURRENCY_NUMBER = re.compile(r"(?<=[$€£¥])(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\w\-/:]|\.\d|,\d{3})")
# Numbers that name a thing of the answer itself, not a finding: "step 2", "2 decimal places".
_NOT_A_FINDING = re.compile(r"\b(step|figure|fig\.|table|chart|section|version|item|no\.)\s*#?$", re.I)
_NOT_A_FINDING_AFTER = re.compile(r"^\s*(decimal|decimals|digits?|significant|d\.p\.|dp\b)", re.I)
_LIST_MARKER = re.compile(r"^\s*(?:[*_#>\s]*\d+[.)]|[-*•])\s+", re.M)
_CODE_SPAN = re.compile(r"```.*?```|`[^`\n]*`", re.S)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'*(])|\n+")
_YEAR_LIKE = range(1800, 2101)


@dataclass(frozen=True)
class Claim:
    """One value an explanation states: ``kind`` "number" or "label", as ``text`` writes it."""

    kind: str
    text: str
    value: float | str
    decimals: int = 0
    percent: bool = False
    scale: float = 1.0
    start: int = 0
    end: int = 0


@dataclass
class ClaimCheck:
    """The claims an explanation states and which of them no computed output holds."""

    claims: list[Claim]
    ungrounded: list[Claim]


@dataclass
class GroundedText:
    """The explanation to show, and what the grounding check caught and did."""

    text: str
    claims_checked: int = 0
    ungrounded_caught: list[str] = field(default_factory=list)
    """Claims of the first explanation that no computed output holds."""
    ungrounded_left: list[str] = field(default_factory=list)
    """Claims still ungrounded in :attr:`text` (empty unless nothing could be done)."""
    actions: list[str] = field(default_factory=list)
    """What was done, in order: "regenerated", "replaced 16.05 by 16.08", "dropped a sentence: …"."""
    rounded: list[str] = field(default_factory=list)
    """Numbers written again at the decimals the question asks for (:mod:`.precision`)."""

    def record(self) -> dict[str, Any]:
        """A JSON-safe summary for the run's final output and the report."""
        return {"claims_checked": self.claims_checked, "caught": len(self.ungrounded_caught),
                "ungrounded_caught": self.ungrounded_caught, "ungrounded_left": self.ungrounded_left,
                "actions": self.actions, **({"rounded": self.rounded} if self.rounded else {})}

    def detail(self) -> str:
        """One line for the run log's step detail."""
        line = f"grounding: {self.claims_checked} claims checked"
        if self.ungrounded_caught:
            line += f", ungrounded {', '.join(self.ungrounded_caught)} → {'; '.join(self.actions) or 'kept'}"
        elif self.actions:
            line += f"; {'; '.join(self.actions)}"
        if self.ungrounded_left:
            line += f"; still ungrounded: {', '.join(self.ungrounded_left)}"
        if self.rounded:
            line += f"; {'; '.join(self.rounded)}"
        return line


# ---------------------------------------------------------------- the claims


def extract_claims(text: str, question: str = "", labels: Iterable[str] = ()) -> list[Claim]:
    """The numbers and data labels ``text`` states as findings (see the module)."""
    masked = _mask(text)
    question_numbers = {v for v, _ in _plain_numbers(question)}
    claims: list[Claim] = []
    for match in _CLAIM_NUMBER.finditer(masked):
        raw = match.group("num")
        plain = raw.replace(",", "")
        value = float(plain) * (-1 if match.group("sign") else 1)
        decimals = len(plain.partition(".")[2])
        if value in question_numbers or (match.group("sign") and -value in question_numbers):
            continue
        if _NOT_A_FINDING.search(masked[max(0, match.start() - 12):match.start()]) or _NOT_A_FINDING_AFTER.match(masked[match.end():match.end() + 16]):
            continue
        scale = _SCALES.get((match.group("scale") or "").lower(), 1.0)
        claims.append(Claim("number", match.group(0).strip(), value, decimals, bool(match.group("pct")), scale,
                            match.start(), match.end()))
    for match in _CURRENCY_NUMBER.finditer(masked):
        if any(c.start <= match.start() < c.end for c in claims):
            continue
        plain = match.group("num").replace(",", "")
        if float(plain) not in question_numbers:
            claims.append(Claim("number", match.group(0), float(plain), len(plain.partition(".")[2]), False, 1.0,
                                match.start(), match.end()))
    claims += _label_claims(masked, question, labels)
    return sorted(claims, key=lambda c: c.start)


def _mask(text: str) -> str:
    """``text`` with list markers and code spans blanked (same length, so positions hold)."""
    blank = lambda m: " " * len(m.group(0))  # noqa: E731
    return _LIST_MARKER.sub(blank, _CODE_SPAN.sub(blank, text))


def _plain_numbers(text: str) -> list[tuple[float, int]]:
    found = []
    for token in re.findall(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?", text or ""):
        plain = token.replace(",", "")
        found.append((float(plain), len(plain.partition(".")[2])))
    return found


def _label_claims(text: str, question: str, labels: Iterable[str]) -> list[Claim]:
    wanted = [label for label in labels if label]
    if not wanted:
        return []
    pattern = re.compile(r"(?<![\w])(?:" + "|".join(map(re.escape, wanted)) + r")(?![\w])")
    asked = (question or "").lower()
    claims = []
    for match in pattern.finditer(text):
        label = match.group(0)
        if re.search(rf"(?<!\w){re.escape(label.lower())}(?!\w)", asked):
            continue
        claims.append(Claim("label", label, label, start=match.start(), end=match.end()))
    return claims


# ---------------------------------------------------------------- the check


def number_grounded(claim: Claim, numbers: Iterable[float]) -> bool:
    """Some computed number, shown at the claim's decimals (and scale), equals the claim."""
    tolerance = 0.5001 * 10 ** -claim.decimals * claim.scale
    target = claim.value * claim.scale
    for computed in numbers:
        candidates = (computed, computed * 100) if claim.percent else (computed,)
        if claim.value > 0:  # a change is often stated by its size ("fell by 5%")
            candidates = (*candidates, *(abs(c) for c in candidates))
        for c in candidates:
            if abs(c - target) <= tolerance + 1e-9 * max(1.0, abs(c)):
                return True
    return False


def check_claims(text: str, outputs: Any, question: str = "", labels: Iterable[str] = (), known: str = "") -> ClaimCheck:
    """The claims of ``text`` and which of them ``outputs`` (or ``known``: facts of the data such as
    its shape and column names) does not hold (no model call)."""
    computed = outputs_text(outputs) + ("\n" + known if known else "")
    numbers = computed_numbers(computed)
    lowered = computed.lower()
    claims = extract_claims(text, question, labels)
    ungrounded = []
    for claim in claims:
        if claim.kind == "number":
            if _is_year_label(claim, computed) or number_grounded(claim, numbers):
                continue
        elif re.search(rf"(?<!\w){re.escape(str(claim.value).lower())}(?!\w)", lowered):
            continue
        ungrounded.append(claim)
    return ClaimCheck(claims, ungrounded)


def _is_year_label(claim: Claim, computed: str) -> bool:
    """A year written as a time ("in 1952") that the outputs also name is not a measured value;
    one they do not name is checked like any number."""
    return claim.decimals == 0 and claim.scale == 1 and not claim.percent and int(claim.value) in _YEAR_LIKE \
        and str(int(claim.value)) in computed


# ---------------------------------------------------------------- the one call


FEEDBACK = ("Your answer stated {claims}, which the computed output does not contain. Write the whole answer again "
            "using only values that appear in the output (rounded as asked); do not name anything else.")
"""What ``regenerate`` is told (kept short: every prompt token costs time on a local model)."""


def ground_explanation(text: str, outputs: Any, *, question: str = "", labels: Iterable[str] = (),
                       regenerate: Callable[[str], str] | None = None, known: str = "") -> GroundedText:
    """``text`` checked against ``outputs``; regenerated once with the discrepancy named, then
    mended (see the module). ``labels``: the data's text values (:func:`data_labels`);
    ``regenerate(feedback) -> new text`` or None to mend at once; ``known``: facts of the data that
    may be stated too (:func:`data_facts`)."""
    labels = list(labels)
    text, prose_actions = prose_only(text, regenerate)
    text, ranking = _drop_rankings(text, outputs, question, labels)
    first = check_claims(text, outputs, question, labels, known)
    grounded = GroundedText(text=text, claims_checked=len(first.claims) + len(ranking),
                            ungrounded_caught=_names(first.ungrounded) + [caught for caught, _ in ranking],
                            actions=prose_actions + [action for _, action in ranking])
    if not first.ungrounded:
        return grounded
    current, original = first, text
    if regenerate is not None:
        try:
            retry = (regenerate(FEEDBACK.format(claims=", ".join(grounded.ungrounded_caught))) or "").strip()
        except Exception as exc:  # noqa: BLE001 - a failed retry falls back to mending by code
            retry = ""
            grounded.actions.append(f"regeneration failed ({type(exc).__name__})")
        if retry:  # the new text gets the ranking checks too: it may rank anew
            retry, ranking = _drop_rankings(retry, outputs, question, labels)
            grounded.ungrounded_caught += [caught for caught, _ in ranking]
            grounded.actions += [action for _, action in ranking]
            again = check_claims(retry, outputs, question, labels, known)
            grounded.actions.append("regenerated" + ("" if not again.ungrounded else f" (still ungrounded: {', '.join(_names(again.ungrounded))})"))
            grounded.text, current = retry, again
            grounded.claims_checked += len(again.claims) + len(ranking)
    if current.ungrounded:
        # Mend the regenerated text, or the first one when more of it survives the mending (a small
        # model sometimes answers the feedback with a fragment).
        options = [(grounded.text, current)] + ([(original, first)] if grounded.text != original else [])
        best: tuple[str, list[str]] | None = None
        for n, (candidate, check) in enumerate(options):
            actions: list[str] = ["mended the first explanation instead"] if n else []
            mended = _mend(candidate, check.ungrounded, outputs, actions)
            if best is None or _kept(mended, actions) > _kept(*best):
                best = (mended, actions)
        grounded.text = best[0]
        grounded.actions += best[1]
        left = check_claims(grounded.text, outputs, question, labels, known).ungrounded
        grounded.ungrounded_left = _names(left)
    return grounded


_ACROSS = re.compile(r"\b(among|of all|across|than (?:any|all|the other|other)|compared (?:to|with)|in the (?:data ?set|data))\b", re.I)


def _drop_rankings(text: str, outputs: Any, question: str, labels: list[str]) -> tuple[str, list[tuple[str, str]]]:
    """``text`` without the sentences that rank what nothing ranked, or rank against the computed
    ranking; with (what was caught, what was done) for each sentence dropped."""
    text, unranked = drop_unranked_comparisons(text, outputs, question)
    text, misranked = drop_false_rankings(text, outputs, question, labels)
    return text, ([(f"{u[:60]} (no ranking computed)", f"dropped a sentence: {u[:80]}") for u in unranked]
                  + [(f"{m[:60]} (not the computed ranking)", f"dropped a sentence: {m[:80]}") for m in misranked])


def drop_unranked_comparisons(text: str, outputs: Any, question: str) -> tuple[str, list[str]]:
    """Sentences that rank a finding among others ("the West has the highest average among all
    regions") when the question asked for no ranking and the code computed one value: nothing ranked
    it, so they are dropped. Returns (text, the sentences dropped); the text is kept whole when
    nothing would be left."""
    if COMPARES.search(question or "") or single_value(outputs) is None:
        return text, []
    value = single_number(outputs)
    if value is None:
        value = one_cell(outputs)
    kept, dropped = [], []
    for match in sentence_spans(text):
        sentence = match.group(0)
        states_it = value is not None and any(abs(n - value) <= max(abs(value) * 0.005, 0.01) for n, _ in _plain_numbers(sentence))
        (dropped if COMPARES.search(sentence) and _ACROSS.search(sentence) and not states_it else kept).append(sentence)
    if not dropped or not "".join(kept).strip():
        return text, []
    return "".join(kept).strip(), [d.strip() for d in dropped]


NO_CODE = ("The code has already run and drawn any chart. Write the answer again in plain sentences: what the "
           "output shows, with its values; no code, no steps, no instructions.")
"""What ``regenerate`` is told when an explanation holds code instead of findings."""

_CODE_LINE = re.compile(r"^\s*(?:```|import \w|from [\w.]+ import |\w+(?:\[.*\])?\s*=\s*[\w.]+[\[(]|\w+\.\w+\(.*\)\s*$|print\()")


def holds_code(text: str) -> bool:
    """Whether an explanation holds code (a fence, an import, an assignment or a call on a line of
    its own): a small model asked to explain a chart sometimes writes a how-to instead."""
    return any(_CODE_LINE.match(line) for line in text.splitlines())


def prose_only(text: str, regenerate: Callable[[str], str] | None) -> tuple[str, list[str]]:
    """``text`` without code: asked once more (:data:`NO_CODE`), else the fenced blocks and code
    lines cut. Returns the text and what was done."""
    if not holds_code(text):
        return text, []
    if regenerate is not None:
        try:
            retry = (regenerate(NO_CODE) or "").strip()
        except Exception:  # noqa: BLE001 - a failed retry falls back to cutting by code
            retry = ""
        if retry and not holds_code(retry):
            return retry, ["regenerated without code"]
    kept = re.sub(r"```.*?(?:```|$)", "", text, flags=re.S)
    kept = "\n".join(line for line in kept.splitlines() if not _CODE_LINE.match(line))
    return re.sub(r"\n{3,}", "\n\n", kept).strip(), ["cut code from the explanation"]


def _kept(text: str, actions: list[str]) -> int:
    """How much of a mended explanation is the model's own words (0 when it was replaced whole)."""
    return 0 if any(a.startswith("replaced the explanation") for a in actions) else len(text.split())


def _names(claims: list[Claim]) -> list[str]:
    return list(dict.fromkeys(c.text for c in claims))


def _mend(text: str, ungrounded: list[Claim], outputs: Any, actions: list[str]) -> str:
    """Replace an ungrounded number by the one computed number, else drop the sentences that state
    ungrounded claims; nothing left → the computed result itself."""
    single = single_number(outputs)
    if single is not None and all(c.kind == "number" for c in ungrounded):
        for claim in sorted(ungrounded, key=lambda c: c.start, reverse=True):
            shown = _format_like(single * (100 if claim.percent and abs(single) <= 1 and abs(claim.value) > 1 else 1), claim)
            text = text[:claim.start] + shown + text[claim.end:]
            actions.append(f"replaced {claim.text} by {shown}")
        return text
    spans = [(m.start(), m.end()) for m in sentence_spans(text)]
    keep, dropped = [], []
    for start, end in spans:
        if any(start <= c.start < end for c in ungrounded):
            dropped.append(text[start:end].strip())
        else:
            keep.append(text[start:end])
    for sentence in dropped:
        actions.append(f"dropped a sentence: {sentence[:80]}")
    mended = "".join(keep).strip()
    if not mended or not re.search(r"\w", mended):
        actions.append("replaced the explanation by the computed result")
        return computed_text(outputs_text(result_of(outputs)).strip())
    return mended


_NOTHING = {"", "None", "nan", "NaN", "NaT", "<NA>"}


def computed_text(shown: str) -> str:
    """The computed result said as the answer when no sentence of the explanation holds: one value
    in a sentence a user can quote, nothing said as nothing, a table as it was printed."""
    if shown in _NOTHING:
        return f"The analysis computed no answer (its result is {shown or 'empty'})."
    if "\n" not in shown and len(shown) <= 80:
        return f"The answer computed is {shown.strip(chr(39) + chr(34))}."
    return f"The analysis computed:\n\n{shown[:1500]}"


def _format_like(value: float, claim: Claim) -> str:
    """``value`` written as the claim writes numbers: its decimals (at least two for a fraction
    part), thousands separators and percent sign."""
    decimals = max(claim.decimals, 2 if not float(value).is_integer() else 0)
    comma = "," in claim.text
    shown = f"{value / claim.scale:{',' if comma else ''}.{decimals}f}"
    return shown + re.sub(r"^-?[\d,]+(?:\.\d+)?", "", claim.text)
