"""Repairs by an entity's own rows: who votes (values in the column's format), when a common value is
outvoted, and which keys name entities at all — on small made-up tables of records from several sources."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dsagent.workflows.clean import evidence
from dsagent.workflows.clean.detect import detect
from dsagent.workflows.clean.plan import POLICY, make_plan, switches_from_words
from dsagent.workflows.clean.snippets import build_function


def run(frame: pd.DataFrame) -> tuple[list[dict], pd.DataFrame]:
    findings = detect(frame)
    plan = make_plan(findings, {**POLICY, **switches_from_words("fix placeholder missing values; keep every record")})
    scope: dict = {}
    exec(build_function(plan), scope)  # noqa: S102 - the test's own generated function
    return findings, scope["data_cleaner"](frame)


def reports(entities: int = 30, sources: int = 8, seed: int = 11) -> pd.DataFrame:
    """Several sources report each trip's planned time: one value per trip, written ``h:mm a.m.``."""
    rng = np.random.default_rng(seed)
    rows = []
    for e in range(entities):
        when = f"{rng.integers(1, 13)}:{rng.integers(0, 60):02d} {'a' if e % 2 else 'p'}.m."
        for s in range(sources):
            rows.append({"source": f"src{s}", "trip": f"TR-{100 + e * 7}-{chr(65 + e % 26)}", "planned": when})
    return pd.DataFrame(rows)


def test_a_value_written_outside_the_columns_format_is_repaired_from_its_entity_and_does_not_vote():
    raw = reports()
    truth = raw["planned"].copy()
    raw.loc[1, "planned"] = truth[1].replace(" a.m.", "aDec 1").replace(" p.m.", "pDec 1")  # another site's way
    raw.loc[2, "planned"] = "Not Available"
    raw.loc[3, "planned"] = None
    # a trip where half the reports are variants: only the two in the format vote, and they agree
    variant = truth[16].replace(" a.m.", "aDec 1").replace(" p.m.", "pDec 1")
    raw.loc[16:17, "planned"] = variant
    raw.loc[18:21, "planned"] = None
    findings, out = run(raw)
    fix = next(f for f in findings if f["kind"] == "group_conflict" and f["column"] == "planned")
    assert fix["params"]["key"] == "trip" and fix["params"]["evidence"]["kind"] == "dependency"
    for row in (1, 2, 3, 16, 17, 18, 21):
        assert out.loc[row, "planned"] == truth[row], row
    assert (out["planned"] == truth).all()


def test_a_common_value_outvoted_within_its_entity_is_replaced_and_a_close_vote_is_flagged():
    raw = reports(entities=30, sources=15)
    truth = raw["planned"].copy()
    other = truth[15 * 5]  # another trip's time: a value common in the column
    raw.loc[[0, 1, 2], "planned"] = other  # 12 : 3 in trip 0 — its own rows say no, four times over
    close = truth[15 * 9]
    raw.loc[15 * 3: 15 * 3 + 4, "planned"] = close  # 10 : 5 in trip 3 — not enough to overrule
    findings, out = run(raw)
    assert (out.loc[[0, 1, 2], "planned"] == truth[0]).all()
    assert (out.loc[15 * 3: 15 * 3 + 4, "planned"] == close).all()
    flagged = next(f for f in findings if f["kind"] == "flagged")["params"]["cells"]
    assert {c["row"] for c in flagged if c["column"] == "planned"} == set(range(15 * 3, 15 * 3 + 5))


def test_a_key_most_rows_share_names_no_entity_its_disagreements_are_neither_changed_nor_flagged():
    rng = np.random.default_rng(4)
    n = 400
    amount = np.where(rng.random(n) < 0.6, 0, rng.choice([300, 700, 1100, 1500, 1900, 2300, 2700, 3100, 3500, 3900, 4300], n))
    status = np.where(amount > 0, "Y", np.where(rng.random(n) < 0.8, "N", "Y"))
    raw = pd.DataFrame({"amount": amount, "status": status, "record": range(n)})
    assert not evidence.identifier(raw["amount"]) and not evidence.names_many(raw["amount"])
    assert evidence.identifier(pd.Series(range(100)).repeat(3))
    findings, out = run(raw)
    assert (out["status"] == raw["status"]).all()
    flagged = next((f for f in findings if f["kind"] == "flagged"), {"params": {"cells": []}})["params"]["cells"]
    assert not [c for c in flagged if c["column"] == "status"]


def test_a_filler_value_written_where_others_belong_is_flagged_not_changed():
    rng = np.random.default_rng(9)
    towns = [f"TOWN {chr(65 + i // 26)}{chr(65 + i % 26)}" for i in range(120)]
    rows = []
    for i, town in enumerate(towns):
        code, region = f"{10000 + i * 37:05d}", ["North", "South", "East", "West"][i % 4]
        rows += [{"zip": code, "town": town, "region": region, "n": int(rng.integers(1, 99))} for _ in range(int(rng.integers(2, 5)))]
    raw = pd.DataFrame(rows).assign(record=lambda f: range(len(f)))
    filler = raw.loc[0, "zip"]
    victims = list(range(5, len(raw), len(raw) // 12))[:12]
    raw.loc[victims, "zip"] = filler  # one code written into records of a dozen other towns
    findings, out = run(raw)
    assert (out["zip"].astype(str).str.zfill(5) == raw["zip"]).all()  # nothing changed: the rows do not say which zip
    cells = next(f for f in findings if f["kind"] == "flagged")["params"]["cells"]
    flagged = {c["row"] for c in cells if c["column"] == "zip"}
    assert set(victims) <= flagged and not [c for c in cells if c["column"] == "region"]  # a region has many towns: no rule broken


def test_text_outside_the_columns_format_with_no_evidence_is_flagged_and_kept():
    rng = np.random.default_rng(2)
    times = [f"{h}:{m:02d} {'a' if h % 2 else 'p'}.m." for h, m in zip(rng.integers(1, 13, 60), rng.choice([0, 15, 30, 45], 60))]
    trips = [f"TR-{n}-X" for n in rng.integers(1, 999, 60)]  # an identifier: digits of any length are no format
    raw = pd.DataFrame({"trip": trips, "arrived": times, "record": range(60)})
    raw.loc[[4, 9], "arrived"] = ["Contact Airline", "Not Available"]
    findings, out = run(raw)
    assert out.loc[4, "arrived"] == "Contact Airline" and out.loc[9, "arrived"] == "Not Available"
    cells = next(f for f in findings if f["kind"] == "flagged")["params"]["cells"]
    assert {(c["row"], c["column"]) for c in cells} == {(4, "arrived"), (9, "arrived")}
    assert "pattern" in cells[0]["why"]
