"""Findings by code and the vetted snippets: each rule finds what it should on a small synthetic
table, the assembled data_cleaner fixes it, and a clean table comes out unchanged."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dsagent.workflows.clean import textvalues as tv
from dsagent.workflows.clean.detect import detect
from dsagent.workflows.clean.plan import POLICY, make_plan, switches_from_words
from dsagent.workflows.clean.snippets import build_function


def run(function: str, frame: pd.DataFrame) -> pd.DataFrame:
    namespace: dict = {}
    exec(function, namespace)  # noqa: S102 - the test checks our own generated code
    return namespace["data_cleaner"](frame)


def dirty_orders() -> pd.DataFrame:
    rng = np.random.default_rng(3)
    n = 120
    cities = rng.choice(["Lisbon", "Porto", "Braga"], n)
    frame = pd.DataFrame({
        "order_id": range(1, n + 1),
        "customer": [f"C{i % 30:02d}" for i in range(n)],
        "region": ["North" if i % 30 < 15 else "South" for i in range(n)],
        "city": cities,
        "amount": [f"{x:.2f}" for x in rng.uniform(5, 500, n)],
        "qty": rng.integers(1, 9, n).astype(str),
        "when": [f"2024-{1 + i % 12:02d}-{1 + i % 28:02d}" for i in range(n)],
    }).astype(object)
    frame.loc[3, "amount"] = "$1,234.50"
    frame.loc[4, "amount"] = "12.00 EUR"
    frame.loc[5, "qty"] = "n.a."
    frame.loc[6, "qty"] = "-3"
    frame.loc[7, "city"] = " lisbon "
    frame.loc[8, "city"] = "Portp"
    frame.loc[9, "when"] = "March 5, 2024"
    frame.loc[10, "when"] = "20240306"
    frame.loc[11, "region"] = "South" if frame.loc[11, "region"] == "North" else "North"  # disagrees with its customer
    return pd.concat([frame, frame.iloc[[20, 21]]], ignore_index=True)


def test_parsers():
    assert tv.parse_number("$1,234.50") == 1234.5
    assert tv.parse_number("12.00 USD") == 12.0
    assert tv.parse_number("USD 7") == 7.0
    assert tv.parse_number("2 644 765") == 2644765.0
    assert tv.parse_number("(12)") == -12.0
    assert tv.parse_number("12,34") is None  # not a thousands group: left alone
    assert tv.parse_number("abc") is None
    assert tv.parse_date("5 Mar 2024").strftime("%Y-%m-%d") == "2024-03-05"
    assert tv.parse_date("20240306").strftime("%Y-%m-%d") == "2024-03-06"
    assert tv.parse_date("05/03/2024", dayfirst=True).strftime("%Y-%m-%d") == "2024-03-05"
    assert tv.edit_distance("Portp", "Porto") == 1 and tv.edit_distance("ab", "ba") == 1


def test_findings_name_each_problem():
    findings = detect(dirty_orders())
    kinds = {(f["kind"], f["column"]) for f in findings}
    for expected in [("number_text", "amount"), ("placeholder", "qty"), ("impossible", "qty"), ("spelling", "city"),
                     ("date_text", "when"), ("group_conflict", "region"), ("duplicate_rows", None)]:
        assert expected in kinds, expected
    spelling = next(f for f in findings if f["kind"] == "spelling")
    assert spelling["params"]["mapping"] == {"lisbon": "Lisbon", "Portp": "Porto"} or spelling["params"]["mapping"].get("Portp") == "Porto"
    assert not any(f["column"] == "order_id" for f in findings if f["kind"] != "missing")


def test_cleaner_fixes_every_finding_and_keeps_records():
    raw = dirty_orders()
    findings = detect(raw)
    policy = {**POLICY, **switches_from_words("keep every record")}
    out = run(build_function(make_plan(findings, policy)), raw)
    assert len(out) == 120 and out["order_id"].is_unique
    assert out.loc[3, "amount"] == 1234.5 and out.loc[4, "amount"] == 12.0
    assert pd.api.types.is_numeric_dtype(out["qty"]) and (out["qty"] >= 0).all()
    assert set(out["city"]) == {"Lisbon", "Porto", "Braga"}
    assert pd.api.types.is_datetime64_any_dtype(out["when"]) and out.loc[9, "when"] == pd.Timestamp("2024-03-05")
    assert out.groupby("customer")["region"].nunique().max() == 1
    assert raw.loc[3, "amount"] == "$1,234.50"  # the input frame is not changed


def test_clean_table_comes_out_unchanged():
    rng = np.random.default_rng(0)
    clean = pd.DataFrame({"id": range(200), "group": rng.choice(["Alpha", "Beta", "Gamma", "Delta"], 200),
                          "value": rng.normal(50, 10, 200).round(3), "count": rng.integers(0, 100, 200),
                          "lon": rng.uniform(-180, 180, 200)})
    findings = detect(clean)
    assert [f for f in findings if f["kind"] not in ("missing",)] == []
    policy = {**POLICY, **switches_from_words("keep every record")}
    out = run(build_function(make_plan(findings, policy)), clean)
    pd.testing.assert_frame_equal(out, clean)


@pytest.mark.parametrize("words,expected", [
    ("keep record_id and every genuine record", {"drop_missing_rows": False, "drop_outliers": False}),
    ("please don't impute anything", {"impute_missing": False}),
    ("do not remove duplicates", {"drop_duplicates": False}),
    ("", {}),
])
def test_plain_phrases_switch_default_steps(words, expected):
    assert switches_from_words(words) == expected


def test_rare_genuine_categories_are_not_folded():
    frame = pd.DataFrame({"title": ["Mr"] * 40 + ["Mrs"] * 5 + ["Ms"] * 3, "x": range(48)})
    assert not [f for f in detect(frame) if f["kind"] == "spelling"]


def test_keep_every_thing_keeps_the_rows_but_not_for_columns():
    assert switches_from_words("Keep order_id and every genuine order.") == {"drop_missing_rows": False, "drop_outliers": False}
    assert "drop_missing_rows" not in switches_from_words("keep all columns")


def test_a_dropped_letter_is_a_typo_in_longer_names():
    frame = pd.DataFrame({"city": ["Lisbon"] * 20 + ["Porto"] * 20 + ["Lisbn"], "x": range(41)})
    spelling = next(f for f in detect(frame) if f["kind"] == "spelling")
    assert spelling["params"]["mapping"] == {"Lisbn": "Lisbon"}


def test_codes_with_leading_zeros_stay_text_and_names_are_not_folded():
    frame = pd.DataFrame({"zip": ["02134", "10001", "n.a.", "00501"] * 10,
                          "name": [f"Person {i}" for i in range(36)] + ["Person 1"] * 3 + ["Persn 1"]})
    kinds = {(f["kind"], f["column"]) for f in detect(frame)}
    assert ("number_text", "zip") not in kinds and ("spelling", "name") not in kinds


def test_the_findings_of_a_very_wide_dirty_table_stay_within_their_budget():
    from dsagent.data.tokens import count_tokens
    from dsagent.workflows.clean.decide import FINDINGS_TOKEN_BUDGET, findings_text

    findings = [{"id": i, "kind": "bad_type", "column": f"col_{i}", "params": {}, "detail": f"text numbers like '1,0{i % 10}' in col_{i}"}
                for i in range(1, 5001)]
    text = findings_text({"wide": findings}, {"wide": "wide.csv"})
    assert count_tokens(text) <= FINDINGS_TOKEN_BUDGET + 30
    assert text.startswith("1. bad_type") and text.endswith("more findings not listed here: the default steps cover them)")
    few = findings_text({"wide": findings[:3]}, {"wide": "wide.csv"})
    assert few.count("\n") == 2 and "not listed" not in few
