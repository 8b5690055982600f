"""benchmarks/trust.py's scorer: the expected value stated in the answer's text, as a user would read it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import trust  # noqa: E402


@pytest.mark.parametrize("expected, text, right", [
    (0, "The target class with the highest mean alcohol is 0.", True),   # a class at the end of a sentence
    (0, "The class is 0.5 on average.", False),
    (3, "There are 3 groups.", True),
    (3, "There are 13 groups.", False),
    (11680.0718, "The mean is 11,680.07.", True),
    (11680.0718, "The mean is 11,680.", True),
    (58.4507, "58 % of them.", False),                                      # a rounded share says less than asked
    ("Sat", "Saturday has the most parties.", True),
    (["Norway", "Kuwait"], "Norway and Kuwait.", True),
    (["Norway", "Kuwait"], "Norway only.", False),
])
def test_headline_right(expected, text, right):
    assert trust.headline_right(expected, text) is right


def test_the_other_result_named_by_a_not_verified_note_is_not_the_answer():
    text = "The mean is 12.5.\n\nNot verified: an independent computation of the question gave 14.0, so this answer may be wrong."
    assert trust.headline_right(14.0, text) is False and trust.headline_right(12.5, text) is True
