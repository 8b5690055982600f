"""A ranking the explanation states must be the one the code computed.

Numbers and labels are checked one by one (:mod:`grounding`), but "East has the highest total
revenue at 67,908.25" names a real label and a real number and is still false when the code's
answer is South. A small model writes that when it reads a list of bars or rows. Checked here by
code: where the computed outputs establish the top or the bottom label (a Series of numbers; or one
label answering a "which … highest / lowest" question), a clause that calls another label of the
outputs the highest (or lowest) is false, and its sentence is dropped.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from dsagent.workflows.common.fit import series_rows
from dsagent.workflows.common.wording import HIGH, LOW, WHICH, sentence_spans

_CLAUSE = re.compile(r"[,;:]|\s(?:while|whereas|but|although|and then)\s", re.I)
_NOT_FIRST = re.compile(r"\b(second|third|fourth|fifth|next|2nd|3rd|\d+th|after|except|other than|besides|apart from|"
                        r"among the|one of|if|not|no longer)\b", re.I)


def asked_end(question: str) -> str | None:
    """"high" or "low": the end of a ranking a "which / who … highest (lowest)" question asks for;
    None for another question, or one that names both ends."""
    high, low = bool(HIGH.search(question or "")), bool(LOW.search(question or ""))
    if not WHICH.search(question or "") or high == low:
        return None
    return "high" if high else "low"


def ranked_ends(question: str, outputs: Any) -> tuple[dict[str, str], list[str]]:
    """({"high": label, "low": label} the computed outputs establish, the labels they rank)."""
    shown = outputs.get("result_str") if isinstance(outputs, Mapping) else outputs
    rows = series_rows(shown if isinstance(shown, str) else None)
    if len(rows) >= 2:
        values = [float(v.replace(",", "")) for _, v in rows]
        labels = [label for label, _ in rows]
        if len(set(values)) < 2:
            return {}, labels
        return {"high": labels[values.index(max(values))], "low": labels[values.index(min(values))]}, labels
    answer = shown.strip().strip("'\"") if isinstance(shown, str) else ""
    end = asked_end(question)  # None for neither end, or both: which label is which end is not known
    if not answer or "\n" in answer or not re.search(r"[A-Za-z]", answer) or end is None:
        return {}, []
    return {end: answer}, [answer]


def drop_false_rankings(text: str, outputs: Any, question: str = "", labels: Iterable[str] = ()) -> tuple[str, list[str]]:
    """``text`` without the sentences that call a label the highest (lowest) when the computed
    outputs say another one is; (text, the sentences dropped). ``labels``: the data's text values,
    which a one-label answer is ranked among. The text is kept whole when nothing would be left."""
    ends, ranked = ranked_ends(question, outputs)
    if not ends:
        return text, []
    names = {n for n in [*ranked, *(labels if len(ranked) == 1 else ())] if len(n) > 1 and n in text and re.search(r"[A-Za-z]", n)}
    kept, dropped = [], []
    for match in sentence_spans(text):
        sentence = match.group(0)
        (dropped if any(_false(clause, ends, names) for clause in _CLAUSE.split(sentence)) else kept).append(sentence)
    if not dropped or not "".join(kept).strip():
        return text, []
    return "".join(kept).strip(), [d.strip() for d in dropped]


def _false(clause: str, ends: dict[str, str], names: set[str]) -> bool:
    """A clause that ranks one named label at one end, and the outputs put another label there."""
    high, low = bool(HIGH.search(clause)), bool(LOW.search(clause))
    if high == low or _NOT_FIRST.search(clause):
        return False
    named = [n for n in names if re.search(rf"(?<!\w){re.escape(n)}(?!\w)", clause)]
    if len(named) != 1:
        return False
    end = ends.get("high" if high else "low")
    return end is not None and named[0] != end
