"""realclean's cell scorer and its ceiling on made-up tables: a change of form is no error and no
repair, and the ceiling counts only truths the table holds, small rewrites of the cell, and (with a
key) truths a vote within the key's rows would give."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import realclean  # noqa: E402


def frame(**cols: list) -> pd.DataFrame:
    return pd.DataFrame(cols, dtype=str)


def test_score_counts_substance_not_form():
    dirty = frame(k=["a", "b", "c", "d"], v=["12.0", "x5957", "", "Bostn"])
    clean = frame(k=["a", "b", "c", "d"], v=["12", "15957", "NULL", "Boston"])
    cleaned = frame(k=["a", "b", "c", "d"], v=["12", "15957", "nan", "Boston!"])
    out = realclean.score_frames(dirty, clean, cleaned)
    assert out["errors"] == 2  # 12.0/12 and ''/NULL are form only
    assert out["changed"] == 2 and out["precision"] == 0.5 and out["recall"] == 0.5
    assert out["records_lost"] == 0


def test_ceiling_counts_truths_the_table_holds():
    dirty = frame(key=["p", "p", "p", "q", "q", "r"],
                  zip=["01907", "02139", "02139", "01907", "94105", "Bostn"])
    clean = frame(key=["p", "p", "p", "q", "q", "r"],
                  zip=["02139", "02139", "02139", "60601", "94105", "Boston"])
    out = realclean.ceiling(dirty, clean, key="key")
    figures = out["by_column"]["zip"]
    assert figures["errors"] == 3
    assert figures["in_column"] == 1  # 02139 is in the column; 60601 is nowhere in the table
    assert figures["rewrite"] == 1  # Boston is a slip of Bostn
    assert figures["by_vote"] == 1  # p's rows vote 02139; q's rows tie
    assert out["recall_ceiling"] == round(2 / 3, 4)
    assert out["f1_ceiling"] == round(2 * (2 / 3) / (1 + 2 / 3), 4)


def test_ceiling_without_errors_is_one():
    same = frame(a=["1", "2"])
    out = realclean.ceiling(same, same.copy())
    assert out["errors"] == 0 and out["recall_ceiling"] == 1.0 and out["by_column"] == {}
