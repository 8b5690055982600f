"""Cross-column rules found by code (evidence.rule_findings): a flag that one value takes wherever a
number is positive. Small made-up tables whose answers are known by hand."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dsagent.workflows.clean.detect import detect
from dsagent.workflows.clean.snippets import snippet


def _table(broken: int, n: int = 400, seed: int = 3) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    kids = rng.integers(0, 2, n).astype(bool)
    frame = pd.DataFrame({"name": [f"p{i}" for i in range(n)], "has_kids": np.where(kids, "yes", "no"),
                          "kid_allowance": np.where(kids, rng.integers(1, 5, n) * 500, 0), "income": rng.integers(20, 90, n) * 1000,
                          "married": rng.choice(["M", "S"], n)})
    frame.loc[: broken - 1, "has_kids"] = np.where(frame.loc[: broken - 1, "kid_allowance"] > 0, "no", frame.loc[: broken - 1, "has_kids"])
    return frame


def test_a_flag_its_rows_amount_contradicts_is_set_by_the_rule():
    frame = _table(broken=10)
    wrong = frame.index[(frame["kid_allowance"] > 0) & (frame["has_kids"] == "no")]
    assert 0 < len(wrong) <= 10
    finding = next(f for f in detect(frame) if f["kind"] == "rule_conflict")
    assert finding["column"] == "has_kids" and finding["params"]["other"] == "kid_allowance"
    assert finding["params"]["value"] == "yes" and finding["params"]["wrong"] == ["no"] and finding["count"] == len(wrong)
    df = frame.copy()
    exec(snippet({"kind": "rule_conflict", "column": "has_kids", "params": finding["params"]}), {"pd": pd, "np": np, "df": df})
    assert (df.loc[wrong, "has_kids"] == "yes").all()
    assert df.drop(index=wrong).equals(frame.drop(index=wrong))  # nothing else changes


def test_no_rule_between_unrelated_columns_and_none_with_too_many_exceptions():
    frame = _table(broken=0)
    assert not [f for f in detect(frame) if f["kind"] == "rule_conflict"]  # the rule holds everywhere: nothing to repair
    many = _table(broken=0)
    many.loc[many.sample(frac=0.2, random_state=1).index, "has_kids"] = "no"  # a fifth of all rows: two kinds of record, no rule
    found = [f for f in detect(many) if f["kind"] == "rule_conflict"]
    assert not [f for f in found if f["column"] == "has_kids"]
    assert not [f for f in detect(_table(broken=10)) if f["kind"] == "rule_conflict" and f["column"] == "married"]  # income says nothing of it
