"""Seed 002's five example flows and its loops, with the scripted model, a real sandbox and a real
run log. The route is asserted node by node from the run log's steps. Node 5's cross-check
(independent computations, majorities) is tested in test_robust_cross_check.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dsagent.config import load_settings
from dsagent.store import RunLog
from robust_script import (ALIGNED, CONCEPT, CORR, DATA_WORK, IMPOSSIBLE, INVALID, PREFIX, PROFILE_OK, REQ_UNITS,
                           REWRITE, VALID, ask, node_5_notes, ok, prompt, route)


@pytest.fixture
def survey_csv(tmp_path: Path) -> Path:
    path = tmp_path / "survey.csv"
    rng = np.random.default_rng(0)
    satisfaction = rng.integers(1, 6, 60)
    pd.DataFrame({"customer": range(60), "satisfaction": satisfaction, "sales": satisfaction * 100 + rng.integers(0, 80, 60)}).to_csv(path, index=False)
    return path


def test_example_1_simple_success(script_file, sales_csv):
    # node 5's independent code agrees, so node 5 accepts without asking the model to evaluate
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, "result = df['units'].mean()",
                        "result = round(df['units'].mean(), 2)", "The average is about 21 units."])
    result, session = ask(spec, [sales_csv], "What's the average number of units?")
    assert route(result.run_id) == [*PREFIX, *ok("node_4_code", "node_5_evaluate", "node_6_explain")]
    assert float(result.result_str) == pytest.approx(pd.read_csv(sales_csv)["units"].mean())
    assert result.workflow == "robust" and result.output_type == "analysis" and result.attempts == 1
    assert result.evaluation["is_valid"] is True and result.requirements["variables_needed"] == ["units"]
    assert result.explanation.startswith("The average")
    assert session.model.remaining == 0
    # every call shares the stable prefix (KV cache) and the small table's profile is not repeated
    assert len({str(call[0].content) for call in session.model.history}) == 1
    assert "is in DATA above" in prompt(session, 2)
    # node 5's check was the last call (calls take turns here): node 6 is asked from the context
    # (test_robust_ahead.py: with the check beside node 4, node 6 continues node 4's conversation)
    assert len(session.model.history[6]) == 2 and "Question: What's the average number of units?" in prompt(session, 6)
    check = prompt(session, 5)
    assert "average number of units" in check and "Approach:" not in check  # the question alone, not node 1B's reading
    assert "cross-check agrees" in RunLog(load_settings().db_url).steps(result.run_id)[5]["detail"]
    calls = RunLog(load_settings().db_url).llm_calls(result.run_id)
    assert [c["node"] for c in calls] == [n for n, _ in route(result.run_id)]
    report = Path(result.report_path).read_text()
    assert "df['units'].mean()" in report and "## Evaluation" in report


def test_example_2_alignment_loop_revises_requirements_and_reuses_the_profile(script_file, survey_csv):
    req_revenue = {"reasoning": "correlate", "variables_needed": ["satisfaction", "revenue"], "constraints": [],
                   "analysis_type": "correlation", "success_criteria": "a correlation coefficient"}
    profile = {"reasoning": "no revenue", "available_columns": ["satisfaction"], "missing_columns": ["revenue"],
               "data_quality": {"satisfaction": "int 1-5"}, "limitations": ["no revenue column"], "is_suitable": False}
    revise = {"reasoning": "sales stands in for revenue", "aligned": False, "gaps": ["no revenue column; sales exists"],
              "caveats": [], "recommendation": "revise_requirements"}
    req_sales = {**req_revenue, "variables_needed": ["satisfaction", "sales"]}
    spec = script_file([DATA_WORK, req_revenue, profile, revise, req_sales, ALIGNED,
                        "result = df['satisfaction'].corr(df['sales'])", "result = df['sales'].corr(df['satisfaction'])",
                        "They are strongly correlated."])
    result, session = ask(spec, [survey_csv], "Show correlation between satisfaction and revenue")
    assert route(result.run_id) == [*PREFIX, ("node_1b_requirements", "ok"), ("node_2_data", "reused"),
                                    *ok("node_3_alignment", "node_4_code", "node_5_evaluate", "node_6_explain")]
    second_requirements = prompt(session, 4)
    assert "no revenue column; sales exists" in second_requirements and '"revenue"' in second_requirements
    assert "sales" in prompt(session, 5)  # node 3 checks the revised requirements
    assert result.requirements["variables_needed"] == ["satisfaction", "sales"]
    steps = RunLog(load_settings().db_url).steps(result.run_id)
    assert [s["detail"] for s in steps if s["node"] == "node_3_alignment"] == [
        "revise_requirements (iteration 1/2)", "proceed (iteration 2/2)"]
    assert 0.9 < float(result.result_str) <= 1
    assert session.model.remaining == 0


def test_example_3_remediation_loop_rewrites_impossible_code(script_file, sales_csv):
    # the seed's node 5: the model evaluates and catches the impossible value
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, IMPOSSIBLE, INVALID, REWRITE, CORR, VALID,
                        "Units and price are weakly related."])
    result, session = ask(spec, [sales_csv], "Calculate correlation between units and price", robust_cross_check=False)
    assert route(result.run_id) == [*PREFIX, ("node_4_code", "ok"), ("node_5_evaluate", "rejected"),
                                    *ok("node_5a_remediation", "node_4_code", "node_5_evaluate", "node_6_explain")]
    rewrite = prompt(session, 7)
    assert "a correlation of 1.2 is impossible" in rewrite and "use Series.corr" in rewrite
    assert "* 0 + 1.2" in session.model.history[7][-2].content  # the code: the turn before the fix
    assert "1.2" in prompt(session, 5)  # node 5 saw the impossible value
    frame = pd.read_csv(sales_csv)
    assert float(result.result_str) == pytest.approx(frame["units"].corr(frame["price"]))
    assert result.attempts == 1  # a new round of code attempts
    assert result.evaluation["is_valid"] is True and session.model.remaining == 0


def test_example_4_conceptual_question_explains_only(script_file, sales_csv):
    spec = script_file([CONCEPT, "A p-value is the probability of data at least this extreme ..."])
    result, session = ask(spec, [sales_csv], "What is a p-value?")
    assert route(result.run_id) == ok("node_0_understand", "node_1a_explain")
    assert result.output_type == "explanation" and result.code is None
    assert result.explanation.startswith("A p-value")
    assert "cannot answer" not in prompt(session, 1)


def test_example_5_max_remediations_explains_honestly(script_file, sales_csv):
    req = {**REQ_UNITS, "analysis_type": "regression", "success_criteria": "a trend coefficient"}
    plan = {"reasoning": "ambiguous", "root_cause": "'trend coefficient' is ambiguous", "action": "revise_requirements",
            "guidance": "read it as the slope of units over time"}
    round_ = lambda n: [f"raise ValueError('trend {n}')", f"raise ValueError('trend {n + 1}')", plan]  # noqa: E731
    explanation = "I attempted to calculate the trend coefficient but it is ambiguous. Could you clarify?"
    # node 5 asks the model nothing about a failed run; in round 1 the independent check (and its fix) fails too
    checks = ["raise ValueError('check')", "raise ValueError('check again')"]
    first = round_(1)
    spec = script_file([DATA_WORK, req, PROFILE_OK, ALIGNED, *first[:2], *checks, first[2], req, ALIGNED, *round_(3), req, ALIGNED,
                        *round_(5), explanation])
    result, session = ask(spec, [sales_csv], "Calculate the trend coefficient")
    failing_round = [("node_4_code", "failed"), ("node_4_code", "failed"), ("node_5_evaluate", "rejected"), ("node_5a_remediation", "ok")]
    again = [("node_1b_requirements", "ok"), ("node_2_data", "reused"), ("node_3_alignment", "ok")]
    assert route(result.run_id) == [*PREFIX, *failing_round, *again, *failing_round, *again, *failing_round,
                                    ("node_6_explain", "gave_up")]
    assert session.model.remaining == 0
    assert result.output_type == "error" and "trend 6" in result.error
    assert len(result.failed_attempts) == 6 and result.explanation == explanation
    last = prompt(session, -1)
    assert len(session.model.history[-1]) == 2  # a give-up is explained from the context, not after the code
    assert "after 3 remediation attempts" in last and "revise_requirements ('trend coefficient' is ambiguous)" in last
    assert "trend 6" in last
    assert "read it as the slope" in prompt(session, 9)  # node 1B got node 5a's guidance
    assert node_5_notes(result.run_id) == ["cross-check failed", "", ""]
    assert "the code failed to run: ValueError: trend 2" in prompt(session, 8)
    # per-round counters: each remediation round starts at alignment iteration 1 and code attempt 1
    steps = RunLog(load_settings().db_url).steps(result.run_id)
    assert [s["detail"] for s in steps if s["node"] == "node_3_alignment"] == ["proceed (iteration 1/2)"] * 3
    assert [s["detail"].split(":")[0] for s in steps if s["node"] == "node_4_code"] == ["attempt 1/2", "attempt 2/2"] * 3
    assert RunLog(load_settings().db_url).recent_runs(1)[0]["status"] == "error"


def test_code_retry_within_a_round_gets_the_error(script_file, sales_csv):
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, "result = df['unit_count'].mean()", "result = df['units'].mean()",
                        VALID, "About 21."])
    result, session = ask(spec, [sales_csv], "Average units?", robust_cross_check=False)
    assert route(result.run_id) == [*PREFIX, ("node_4_code", "failed"), *ok("node_4_code", "node_5_evaluate", "node_6_explain")]
    assert "KeyError" in prompt(session, 5) and "df['unit_count']" in prompt(session, 5)
    assert result.attempts == 2 and len(result.failed_attempts) == 1


def test_caveats_reach_the_code_the_explanation_and_the_output(script_file, sales_csv):
    caveat = "10% of units are missing: using complete cases"
    check = {"reasoning": "usable", "aligned": False, "gaps": [], "caveats": [caveat], "recommendation": "proceed with caveats"}
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, check, "result = df['units'].dropna().mean()", VALID, "About 21 units."])
    result, session = ask(spec, [sales_csv], "Average units?", robust_cross_check=False)
    assert route(result.run_id) == [*PREFIX, *ok("node_4_code", "node_5_evaluate", "node_6_explain")]
    assert caveat in prompt(session, 4)
    explain = prompt(session, 6)
    assert caveat in explain and "MUST" in explain
    assert result.alignment_caveats == [caveat]
    assert f"- {caveat}" in Path(result.report_path).read_text()


def test_cannot_proceed_explains_the_limitation(script_file, survey_csv):
    check = {"reasoning": "nothing like it", "aligned": False, "gaps": ["no churn column"], "caveats": [],
             "recommendation": "cannot_proceed"}
    spec = script_file([DATA_WORK, {**REQ_UNITS, "variables_needed": ["churn"]}, PROFILE_OK, check, "The data has no churn column."])
    result, session = ask(spec, [survey_csv], "What drives churn?")
    assert route(result.run_id) == [*PREFIX, ("node_1a_explain", "ok")]
    assert "no churn column" in prompt(session, 4) and "cannot answer" in prompt(session, 4)
    assert result.output_type == "explanation" and result.requirements["variables_needed"] == ["churn"]


def test_alignment_limit_explains_the_limitation(script_file, sales_csv):
    revise = {"reasoning": "too strict", "aligned": False, "gaps": ["x"], "caveats": [], "recommendation": "revise_requirements"}
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, revise, REQ_UNITS, revise, "Not with this data."])
    result, _ = ask(spec, [sales_csv], "Average units?")
    assert route(result.run_id) == [*PREFIX, ("node_1b_requirements", "ok"), ("node_2_data", "reused"),
                                    ("node_3_alignment", "ok"), ("node_1a_explain", "ok")]


def test_revise_data_understanding_profiles_again(script_file, sales_csv):
    look = {"reasoning": "month is text", "aligned": False, "gaps": ["month may be a date"], "caveats": [],
            "recommendation": "revise_data_understanding"}
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, look, PROFILE_OK, ALIGNED, "result = len(df)", VALID, "Five rows."])
    result, session = ask(spec, [sales_csv], "Units per month?", robust_cross_check=False)
    assert route(result.run_id) == [*PREFIX, *ok("node_2_data", "node_3_alignment", "node_4_code", "node_5_evaluate", "node_6_explain")]
    assert "Look again: month may be a date" in prompt(session, 4)


def test_wide_table_selects_columns_before_profiling(script_file, tmp_path):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({f"c{i:03d}": rng.normal(100, 10, 50).round(2) for i in range(120)})
    frame["segment"] = rng.choice(["retail", "b2b"], 50)
    path = tmp_path / "wide.csv"
    frame.to_csv(path, index=False)
    selection = {"reasoning": "the measure, the group and a related column", "columns": ["segment", "c110", "no_such_column"]}
    req = {**REQ_UNITS, "variables_needed": ["c007", "segment"]}
    spec = script_file([DATA_WORK, req, selection, PROFILE_OK, ALIGNED, "result = df.groupby('segment')['c007'].mean()", VALID, "Means."])
    result, session = ask(spec, [path], "What is the average c007 per segment?", robust_cross_check=False)
    assert route(result.run_id) == [*PREFIX, *ok("node_4_code", "node_5_evaluate", "node_6_explain")]
    nodes = [c["node"] for c in RunLog(load_settings().db_url).llm_calls(result.run_id)]
    assert nodes.count("node_2_data") == 2
    select = prompt(session, 2)
    assert "has 121 columns" in select and "in DATA above" in select and "at most 40" in select
    profile, system = prompt(session, 3), str(session.model.history[3][0].content)
    assert "Selected for this analysis:" in profile and "c110" in profile
    assert '- "c110" float64' in profile and '- "c110"' not in system  # new detail, only where needed
    assert '- "c007"' in system and '- "c007"' not in profile  # already in DATA: not repeated
    steps = RunLog(load_settings().db_url).steps(result.run_id)
    assert "of 121 columns detailed" in steps[2]["detail"]


def test_replies_that_are_not_json_fall_back(script_file, sales_csv):
    spec = script_file(["I think we need data", "still not json",  # node 0 + its one repair
                        REQ_UNITS, PROFILE_OK,
                        "looks fine", "fine, really",                # node 3 + repair
                        "result = df['units'].sum()",
                        "great numbers", "yes great",                # node 5 + repair
                        "The total is computed."])
    result, session = ask(spec, [sales_csv], "Total units?", robust_cross_check=False)
    assert route(result.run_id) == [("node_0_understand", "fallback"), *ok("node_1b_requirements", "node_2_data"),
                                    ("node_3_alignment", "fallback"), ("node_4_code", "ok"), ("node_5_evaluate", "fallback"),
                                    ("node_6_explain", "ok")]
    assert result.result_str == str(pd.read_csv(sales_csv)["units"].sum())
    assert result.evaluation["is_valid"] is True and result.evaluation["confidence"] == 0.0
    assert "not valid" in result.evaluation["reasoning"]
    assert session.model.remaining == 0


def test_hardcoded_result_is_rejected_by_code_without_a_model_call(script_file, sales_csv):
    plan = {"reasoning": "literal", "root_cause": "the result was typed in", "action": "rewrite_code",
            "guidance": "compute the mean from df"}
    # No evaluation reply follows the literal code: node 5 rejects it by code, then node 5a plans.
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, "mean = df['units'].mean()\nresult = 21.5",
                        plan, "result = df['units'].mean()", "result = df.units.mean()", "About 21 units."])
    result, session = ask(spec, [sales_csv], "Average units?")
    assert route(result.run_id) == [*PREFIX, ("node_4_code", "ok"), ("node_5_evaluate", "rejected"),
                                    *ok("node_5a_remediation", "node_4_code", "node_5_evaluate", "node_6_explain")]
    assert "hardcoded literal" in prompt(session, 6)  # node 5a's prompt carries the code-found issue
    assert float(result.result_str) == pytest.approx(pd.read_csv(sales_csv)["units"].mean())
    assert session.model.remaining == 0


def test_a_fix_that_keeps_repeating_the_failed_code_gets_a_fresh_prompt(script_file, sales_csv):
    bad = "result = df['unit_count'].mean()"
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, bad, bad, bad,  # the fix and its warm resample repeat it
                        "result = df['units'].mean()",                          # the fresh prompt: a different code
                        "result = df.units.mean()", "About 21 units."])
    result, session = ask(spec, [sales_csv], "Average units?")
    assert route(result.run_id) == [*PREFIX, ("node_4_code", "failed"), *ok("node_4_code", "node_5_evaluate", "node_6_explain")]
    assert "Fix the code above" in prompt(session, 5) and prompt(session, 6) == prompt(session, 5)
    history = session.model.history
    assert history[5][:-2] == history[4] and history[5][-2].content == f"```python\n{bad}\n```"  # the fix continues the first call
    assert prompt(session, 7) == prompt(session, 4)  # node 4's first prompt, without the failing code
    assert float(result.result_str) == pytest.approx(pd.read_csv(sales_csv)["units"].mean())
    assert session.model.remaining == 0
