"""The replay of the mark before 5cde505 (benchmarks/mark_check.py): the first check's agreement
decides, a second decides when it differs, a rescued answer needs two checks from different codes."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from mark_check import old_mark  # noqa: E402

MEAN, AGG = "result = df['u'].mean()", "result = df['u'].agg('mean')"


def out(*checks: tuple[str, str | None], verification: str = "") -> dict:
    return {"verification": verification, "verification_checks": [{"code": c, "result": r} for c, r in checks]}


def test_the_first_checks_agreement_decided_even_when_it_was_the_answers_own_code():
    assert old_mark("mean?", "21.5", out((MEAN, "21.5"))) is True
    assert old_mark("mean?", "21.5", out((MEAN, "30"), (AGG, "21.5"))) is True  # 2 of 3
    assert old_mark("mean?", "21.5", out((MEAN, "30"), (AGG, "30"))) is True  # two checks outvote: the answer is replaced
    assert old_mark("mean?", "21.5", out((MEAN, "30"), (AGG, "12"))) is False
    assert old_mark("mean?", "21.5", out((MEAN, None))) is False
    assert old_mark("mean?", None, out((MEAN, "21.5"))) is False


def test_a_rescued_answer_needed_a_second_check_from_another_code():
    failed = "the code step failed every attempt; two independent computations"
    assert old_mark("mean?", "21.5", out((MEAN, "21.5"), (AGG, "21.5"), verification=f"verified: {failed}")) is True
    assert old_mark("mean?", "21.5", out((MEAN, "21.5"), (MEAN, "21.5"), verification=f"not sure: {failed}")) is False
