"""Column kinds (codes), repairs by evidence (dependencies, vocabulary) and abstention, on small made-up tables."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from dsagent.workflows.clean import kinds as ck
from dsagent.workflows.clean.detect import detect
from dsagent.workflows.clean.plan import POLICY, make_plan, switches_from_words
from dsagent.workflows.clean.snippets import build_function


def run(source: str, frame: pd.DataFrame) -> pd.DataFrame:
    scope: dict = {}
    exec(source, scope)  # noqa: S102 - the test's own generated function
    return scope["data_cleaner"](frame)


def test_shapes_and_codes():
    assert ck.shape("744-9007") == "999-9999" and ck.shape("AK-1x") == "aa-9a"
    rng = np.random.default_rng(1)
    zips = [f"{z:05d}" for z in rng.integers(500, 99999, 50)]
    assert ck.is_code(zips + ["01907"])
    assert ck.is_code([f"{rng.integers(100, 999)}-{rng.integers(1000, 9999)}" for _ in range(30)])
    assert not ck.is_code([str(v) for v in rng.integers(10, 99, 40) * 1000])  # round amounts
    assert not ck.is_code([f"{v:.1f}" for v in rng.uniform(0, 9, 40)])  # decimals
    assert not ck.is_code(["Lisbon", "Porto"] * 10)
    assert ck.noise_only("x5957", "35957") and ck.noise_only("334793870x", "3347938701")
    assert not ck.noise_only("ak_hf-1", "al_hf-1")  # another code, same pattern


def providers(n: int = 30) -> pd.DataFrame:
    """Providers repeated over 6 rows each: one zip, phone and city per provider."""
    rng = np.random.default_rng(7)
    rows = []
    for p in range(n):
        z, ph = f"{rng.integers(10000, 99999)}", f"{rng.integers(2000000000, 9999999999)}"
        city = ["Springfield", "Riverton", "Lakeside", "Hillview", "Fairmont"][p % 5]
        for m in range(6):
            rows.append({"provider": str(10000 + p * 7), "zip": z, "phone": ph, "city": city, "measure": f"m-{m}",
                         "score": float(rng.integers(50, 100))})
    return pd.DataFrame(rows)


def test_a_code_is_not_a_number_and_is_repaired_from_its_key():
    raw = providers()
    truth_zip, truth_phone = raw.loc[3, "zip"], raw.loc[9, "phone"]
    raw.loc[3, "zip"] = "x" + truth_zip[1:]
    raw.loc[9, "phone"] = "5550001234"  # the right pattern, but no other row has it: the provider's rows decide
    findings = detect(raw)
    kinds = {(f["kind"], f["column"]) for f in findings}
    assert ("number_text", "zip") not in kinds and ("number_text", "phone") not in kinds
    codes = next(f for f in findings if f["kind"] == "code_columns")["params"]["columns"]
    assert "zip" in codes and "phone" in codes
    fix = next(f for f in findings if f["kind"] == "group_conflict" and f["column"] == "phone")
    assert fix["params"]["evidence"]["kind"] == "dependency" and fix["params"]["key"] in ("provider", "zip")
    assert any(f["column"] == "zip" and f["kind"] in ("spelling", "group_conflict") for f in findings)  # noise, or its key
    out = run(build_function(make_plan(findings, {**POLICY, **switches_from_words("keep every record")})), raw)
    assert out.loc[3, "zip"] == truth_zip and out.loc[9, "phone"] == truth_phone
    assert out["zip"].map(type).eq(str).all()  # still text: never '37225.0'


def test_missing_values_of_a_code_are_not_imputed_and_filled_only_from_their_key():
    raw = providers()
    raw.loc[[0, 13], "zip"] = None
    findings = detect(raw)
    plan = make_plan(findings, dict(POLICY, drop_missing_rows=False))
    impute = next(s for s in plan if s["kind"] == "impute")
    assert "zip" in impute["params"]["keep"]
    out = run(build_function(plan), raw)
    assert out.loc[0, "zip"] == out.loc[1, "zip"] and out.loc[13, "zip"] == out.loc[12, "zip"]


def test_a_common_value_that_disagrees_is_flagged_not_changed():
    rng = np.random.default_rng(3)
    names = [f"Name{chr(65 + i % 26)}{chr(65 + i // 26)}" for i in range(40)]  # first names: no digits, not an identifier
    rows = [{"first": n, "gender": "F" if i % 2 else "M", "year": int(rng.integers(1950, 2000))} for i, n in enumerate(names) for _ in range(5)]
    raw = pd.DataFrame(rows)
    raw.loc[7, "gender"] = "F" if raw.loc[7, "gender"] == "M" else "M"  # a genuine exception or an error: no way to tell
    findings = detect(raw)
    assert not [f for f in findings if f["kind"] == "group_conflict" and f["column"] == "gender"]
    flagged = next(f for f in findings if f["kind"] == "flagged")
    assert any(c["row"] == 7 and c["column"] == "gender" for c in flagged["params"]["cells"])


def test_distinct_codes_one_letter_apart_are_not_folded_but_noise_is():
    codes = ["al_hf-1"] * 40 + ["ak_hf-1"] * 6 + ["ca_hf-2"] * 30 + ["c4_hf-2"]
    frame = pd.DataFrame({"measure": codes, "x": range(len(codes))})
    spelling = [f for f in detect(frame) if f["kind"] == "spelling"]
    mapping = spelling[0]["params"]["mapping"] if spelling else {}
    assert "ak_hf-1" not in mapping
    assert mapping.get("c4_hf-2") == "ca_hf-2"


def test_long_names_with_two_slips_are_folded():
    names = ["acute care hospitals"] * 30 + ["critical access hospitals"] * 20 + ["acuxe care hospixals"]
    frame = pd.DataFrame({"type": names, "x": range(len(names))})
    spelling = next(f for f in detect(frame) if f["kind"] == "spelling")
    assert spelling["params"]["mapping"] == {"acuxe care hospixals": "acute care hospitals"}


def test_fixing_placeholders_rules_out_imputation():
    assert switches_from_words("fix placeholder missing values")["impute_missing"] is False
    assert switches_from_words("keep every value as it is")["impute_missing"] is False
    assert "impute_missing" not in switches_from_words("fix the data types")


def test_values_whose_digits_differ_are_not_typos():
    times = ["7:10 a.m."] * 30 + ["7:40 a.m."] * 2 + ["9:15 p.m."] * 20 + ["Lisbn 7"]
    frame = pd.DataFrame({"t": times, "x": range(len(times))})
    spelling = [f for f in detect(frame) if f["kind"] == "spelling"]
    assert not spelling or "7:40 a.m." not in spelling[0]["params"]["mapping"]


def test_a_column_with_gaps_is_not_a_key():
    rng = np.random.default_rng(5)
    slots = [f"{h}:{m:02d}" for h in range(1, 13) for m in (0, 30)]
    a = list(rng.choice(slots, 300))
    frame = pd.DataFrame({"planned": a, "actual": [v if i % 7 else None for i, v in enumerate(a)]})
    frame.loc[4, "planned"] = "zz"
    assert not [f for f in detect(frame) if f["kind"] == "group_conflict" and f["params"]["key"] == "actual"]


def test_extra_words_around_the_columns_format_are_dropped():
    values = ["7:10 a.m.", "10:45 p.m.", "9:05 a.m."] * 10 + ["12/02/2011 6:55 a.m.", "late"]
    frame = pd.DataFrame({"t": values, "x": range(len(values))})
    fmt = next(f for f in detect(frame) if f["kind"] == "format")
    assert fmt["params"]["mapping"] == {"12/02/2011 6:55 a.m.": "6:55 a.m."}
    out = run(build_function(make_plan(detect(frame), {**POLICY, **switches_from_words("keep every record")})), frame)
    assert out.loc[30, "t"] == "6:55 a.m." and out.loc[31, "t"] == "late"


def test_a_cell_that_is_no_number_is_kept_and_flagged_not_blanked():
    values = [str(1950 + i % 40) for i in range(40)] + ["1971 1972 1973"]
    frame = pd.DataFrame({"year": values, "x": range(len(values))})
    findings = detect(frame)
    assert any(c["row"] == 40 for f in findings if f["kind"] == "flagged" for c in f["params"]["cells"])
    out = run(build_function(make_plan(findings, {**POLICY, **switches_from_words("fix placeholders; keep every record")})), frame)
    assert out.loc[40, "year"] == "1971 1972 1973" and out.loc[0, "year"] == 1950


def test_a_code_with_stray_symbols_and_doubled_quotes_are_written_the_columns_way():
    states = ["MA", "NV", "CA", "TX"] * 10 + ["AK-*", "NY-NJ"]
    names = ["Oates", "Smith", "Jones", "Lee"] * 10 + ["O''Brien", "Kim"]
    frame = pd.DataFrame({"state": states, "name": names})
    fixes = {f["column"]: f["params"]["mapping"] for f in detect(frame) if f["kind"] == "format"}
    assert fixes["state"] == {"AK-*": "AK"}  # 'NY-NJ': two candidates, left as it is
    assert fixes["name"] == {"O''Brien": "O'Brien"}


MODEL_CLEANER = """```python
def data_cleaner(data_raw):
    import numpy as np
    import pandas as pd
    df = data_raw.copy()
    df['city'] = df['city'].str.strip().str.title().replace({'Lisbin': 'Lisbon'})
    df['price'] = pd.to_numeric(df['price'].astype(str).str.replace(r'[$,]', '', regex=True), errors='coerce')
    df.loc[df['units'] < 0, 'units'] = np.nan
    return df.drop_duplicates()
```"""


def test_the_model_writes_the_whole_cleaner_when_the_setting_asks(dirty_csv, script_file, monkeypatch):
    from dsagent.config import load_settings
    from dsagent.workflows.clean.api import clean, saved_state

    from .conftest import decision

    monkeypatch.setenv("DSAGENT_CLEAN_MODEL_WRITES_CLEANER", "true")
    out = clean(dirty_csv, "Clean it; keep every record.", yes=True, model=script_file([decision(), MODEL_CLEANER]))
    assert out.status == "done", out.error
    state = saved_state(out.thread_id, load_settings())
    assert state["function_origin"] == {k: "model" for k in state["function_origin"]}
    assert "str.title()" in Path(out.function_path).read_text()  # the model's code is what ran and was saved
    assert "porto" not in set(pd.read_csv(out.cleaned_files[0])["city"].str.strip())


def test_a_short_word_replaced_is_another_value_not_a_typo():
    times = ["7:10 a.m."] * 30 + ["7:10 p.m."] + ["9:15 p.m."] * 20 + ["Lisbon"] * 20 + ["Lisbin"]
    frame = pd.DataFrame({"t": times, "x": range(len(times))})
    mapping = next((f["params"]["mapping"] for f in detect(frame) if f["kind"] == "spelling"), {})
    assert "7:10 p.m." not in mapping and mapping.get("Lisbin") == "Lisbon"
    assert ck.inside_words("Korea, Dem.uRep.", "Korea, Dem. Rep.") and not ck.inside_words("Mr", "Ms")


def test_a_word_the_column_uses_elsewhere_is_not_a_slip():
    genres = ["Comedy,Sport"] * 30 + ["Drama,Short"] * 5 + ["Comedy,Short"] + ["Lisbon,Porto"] * 20 + ["Lisbon,Portp"]
    frame = pd.DataFrame({"g": genres, "x": range(len(genres))})
    mapping = next((f["params"]["mapping"] for f in detect(frame) if f["kind"] == "spelling"), {})
    assert "Comedy,Short" not in mapping and mapping.get("Lisbon,Portp") == "Lisbon,Porto"


def test_the_check_accepts_numbers_read_back_beside_cells_kept_as_they_were():
    from dsagent.workflows.clean.execute import verify

    step = [{"n": 1, "kind": "number_text", "column": "a", "params": {}}]
    assert verify(pd.DataFrame({"a": ["7.9", "1971 1972 1973", "8"]}), step)[1] == []
    assert verify(pd.DataFrame({"a": ["$7.90", "8"]}), step)[1]


def test_a_missing_measurement_is_not_filled_from_its_key():
    raw = providers()
    raw.loc[[0, 13], "score"] = np.nan
    raw["score"] = raw.groupby("provider")["score"].transform("first").where(raw["score"].notna())
    findings = detect(raw)
    assert not [f for f in findings if f["kind"] == "group_conflict" and f["column"] == "score"]


def test_the_review_shows_each_steps_cells_with_a_sample_and_the_values_imputation_invents(dirty_csv, script_file):
    from dsagent.workflows.clean.api import clean

    from .conftest import decision

    out = clean(dirty_csv, "Clean it; keep every record.", yes=True, model=script_file([decision()]))
    assert out.status == "done", out.error
    assert "cells, e.g. " in out.recommended_steps and " → " in out.recommended_steps
    assert "values invented by a statistic" in out.recommended_steps
    placeholders = clean(dirty_csv, "Fix placeholder missing values; keep every record.", yes=True, model=script_file([decision()]))
    assert "values invented" not in placeholders.recommended_steps
