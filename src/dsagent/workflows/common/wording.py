"""Words code reads in a question or an explanation: the two ends of a ranking, a "which …"
question, a year, and sentences. One definition each, for the checks that read them (``fit``,
``fit_mends``, ``rankings``, ``grounding``)."""

from __future__ import annotations

import re
from collections.abc import Iterable

HIGH = re.compile(r"\b(highest|largest|biggest|greatest|most|maximum|best|top)\b", re.I)
LOW = re.compile(r"\b(lowest|smallest|least|fewest|minimum|worst|bottom)\b", re.I)
WHICH = re.compile(r"^\W*(which|who)\b|\b(which|who)\b[^.?!]*\b(highest|lowest|largest|smallest|most|least|maximum|minimum|best|worst)\b", re.I)
"""A question that asks which label is at one end ("which country has the highest …", "who …")."""
YEAR = re.compile(r"(?<![\d.])(1[89]\d\d|20\d\d)(?![\d.])")
_SENTENCE = re.compile(r".*?(?:[.!?](?=\s|$)|\n|$)\s*", re.S)


def sentence_spans(text: str) -> Iterable[re.Match[str]]:
    """Sentences with their trailing whitespace: a period followed by space or a new line ends one."""
    return _SENTENCE.finditer(text)
