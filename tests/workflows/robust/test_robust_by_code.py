"""Seed 002's nodes 0, 2 and 3 decided by code (robust/by_code.py): which calls are skipped, and
that every case code is not sure of still asks the model, so the seed's loops keep working."""

from __future__ import annotations

import pandas as pd
import pytest

from dsagent.config import load_settings
from dsagent.data.catalog import load_datasets
from dsagent.store import RunLog
from dsagent.workflows.robust import by_code
from robust_script import ALIGNED, DATA_WORK, PROFILE_OK, REQ_UNITS, ask, ok, route


def _calls(run_id: str) -> list[str]:
    return [c["node"] for c in RunLog(load_settings().db_url).llm_calls(run_id)]


def _details(run_id: str, node: str) -> list[str]:
    return [s["detail"] for s in RunLog(load_settings().db_url).steps(run_id) if s["node"] == node]


@pytest.fixture
def datasets(sales_csv):
    return load_datasets([sales_csv])


def test_understand_by_code_only_when_the_question_names_a_column(datasets):
    assert by_code.understand("What is the mean of units per region?", datasets)["needs_data_work"] is True
    assert by_code.understand("Total of Units?", datasets)["needs_data_work"] is True  # case and spacing aside
    assert by_code.understand("What is a p-value?", datasets) is None  # the model decides
    assert by_code.understand("What is the mean of units?", {}) is None


def test_profile_by_code_needs_every_required_column(datasets):
    made = by_code.profile({"variables_needed": ["units", "Price"]}, datasets)
    assert made["available_columns"] == ["units", "price"] and made["missing_columns"] == [] and made["is_suitable"]
    assert by_code.profile({"variables_needed": ["units", "revenue"]}, datasets) is None
    assert by_code.profile({"variables_needed": []}, datasets) is None
    assert by_code.alignment(made, {"variables_needed": ["units"]}, datasets)["recommendation"] == "proceed"
    # node 1B revised the requirements to a column that does not exist: the model checks
    assert by_code.alignment(made, {"variables_needed": ["revenue"]}, datasets) is None
    assert by_code.alignment(PROFILE_OK, {"variables_needed": ["units"]}, datasets) is None  # the model's profile


def test_names_compare_as_words_in_any_script(tmp_path):
    path = tmp_path / "de.csv"
    pd.DataFrame({"Größe": [1, 2], "Grüße": [3, 4], "売上": [5, 6]}).to_csv(path, index=False)
    datasets = load_datasets([path])
    made = by_code.profile({"variables_needed": ["grüße", "売上"]}, datasets)
    assert made["available_columns"] == ["Grüße", "売上"]
    assert by_code.profile({"variables_needed": ["Grosse"]}, datasets) is None
    assert by_code.profile({"variables_needed": ["!!"]}, datasets) is None  # no word: never a match


def test_missing_values_are_caveats_and_a_mostly_empty_column_goes_to_the_model(tmp_path):
    path = tmp_path / "gaps.csv"
    pd.DataFrame({"a": [1, None, 3, 4], "b": [None, None, None, 1]}).to_csv(path, index=False)
    datasets = load_datasets([path])
    made = by_code.profile({"variables_needed": ["a"]}, datasets)
    assert made["data_quality"] == {"a": "1 of 4 values missing"} and made["limitations"] == ["a has missing values"]
    check = by_code.alignment(made, {"variables_needed": ["a"]}, datasets)
    assert check["recommendation"] == "proceed_with_caveats" and check["caveats"] == ["a has missing values"]
    assert by_code.profile({"variables_needed": ["a", "b"]}, datasets) is None  # 75 % missing


def test_a_question_naming_its_columns_costs_four_model_calls(script_file, sales_csv):
    spec = script_file([REQ_UNITS, "result = df['units'].mean()", "result = round(df['units'].mean(), 2)",
                        "The average is about 21 units."])
    result, session = ask(spec, [sales_csv], "What's the average number of units?", decide_by_code=True)
    assert route(result.run_id) == ok("node_0_understand", "node_1b_requirements", "node_2_data", "node_3_alignment",
                                      "node_4_code", "node_5_evaluate", "node_6_explain")
    assert _calls(result.run_id) == ["node_1b_requirements", "node_4_code", "node_5_evaluate", "node_6_explain"]
    assert session.model.remaining == 0
    assert "decided by code" in _details(result.run_id, "node_0_understand")[0]
    assert "decided by code" in _details(result.run_id, "node_2_data")[0]
    assert _details(result.run_id, "node_3_alignment")[0].startswith("proceed (iteration 1/2); decided by code")
    assert result.requirements["variables_needed"] == ["units"]


def test_a_missing_column_still_runs_the_seeds_alignment_loop(script_file, sales_csv):
    req_revenue = {**REQ_UNITS, "variables_needed": ["units", "revenue"]}
    profile = {"reasoning": "no revenue", "available_columns": ["units"], "missing_columns": ["revenue"],
               "data_quality": {}, "limitations": ["no revenue column"], "is_suitable": False}
    revise = {"reasoning": "price stands in", "aligned": False, "gaps": ["no revenue column"], "caveats": [],
              "recommendation": "revise_requirements"}
    req_price = {**REQ_UNITS, "variables_needed": ["units", "price"]}
    spec = script_file([DATA_WORK, req_revenue, profile, revise, req_price, ALIGNED,
                        "result = (df['units'] * df['price']).sum()", "result = float((df['units'] * df['price']).sum())",
                        "Revenue is the sum of units times price."])
    result, session = ask(spec, [sales_csv], "How much revenue did we make?", decide_by_code=True)
    # node 0: no column named → model; node 2: 'revenue' does not exist → model; node 3 → model (revise);
    # node 2 is then reused (the seed), and node 3 checks the model's profile with the model again
    assert _calls(result.run_id) == ["node_0_understand", "node_1b_requirements", "node_2_data", "node_3_alignment",
                                     "node_1b_requirements", "node_3_alignment", "node_4_code", "node_5_evaluate", "node_6_explain"]
    assert ("node_2_data", "reused") in route(result.run_id)
    assert session.model.remaining == 0
    frame = pd.read_csv(sales_csv)
    assert float(result.result_str) == pytest.approx((frame["units"] * frame["price"]).sum())


def test_switched_off_every_node_asks_the_model(script_file, sales_csv):
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, "result = df['units'].mean()",
                        "result = round(df['units'].mean(), 2)", "About 21 units."])
    result, session = ask(spec, [sales_csv], "What's the average number of units?", decide_by_code=False)
    assert _calls(result.run_id)[:4] == ["node_0_understand", "node_1b_requirements", "node_2_data", "node_3_alignment"]
    assert session.model.remaining == 0
