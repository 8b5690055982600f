"""Robust node 5's cross-check, flow by flow: independent computations of the question alone,
compared by code with node 4's result (agree, 2 of 3, 2 of 4, outvote, rescue a failed round), and
the seed's evaluation call where no majority decides. Scripted model, real sandbox, real run log."""

from __future__ import annotations

import pandas as pd
import pytest

from robust_script import (ALIGNED, CORR, DATA_WORK, IMPOSSIBLE, PREFIX, PROFILE_OK, REQ_UNITS, VALID, ask,
                           node_5_notes, ok, prompt, route)


def test_example_3_with_the_cross_check_two_independent_results_outvote_the_impossible_one(script_file, sales_csv):
    # the checks catch what the seed's node 5 catches, and their agreed result replaces node 4's:
    # no remediation round, no evaluation call
    agreed = "result = round(df['units'].corr(df['price']), 4)"
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, IMPOSSIBLE,
                        "result = df['price'].corr(df['units'])",  # independent check: differs
                        agreed,                                     # second, warmer: agrees with the first
                        "Units and price are weakly related."])
    result, session = ask(spec, [sales_csv], "Calculate correlation between units and price")
    assert route(result.run_id) == [*PREFIX, *ok("node_4_code", "node_5_evaluate", "node_6_explain")]
    assert node_5_notes(result.run_id) == ["cross-check: two independent results outvote this one and replace it"]
    frame = pd.read_csv(sales_csv)
    assert float(result.result_str) == pytest.approx(frame["units"].corr(frame["price"]))
    assert result.code.strip() == "result = df['price'].corr(df['units'])"  # the first check's code, the one that gave it
    assert result.evaluation["is_valid"] is True and result.evaluation["confidence"] == 0.67
    assert "1.2" in result.evaluation["reasoning"]  # what was replaced is on record
    assert result.result_str in prompt(session, 7) and "1.2" not in prompt(session, 7)  # node 6 explains the adopted result
    assert session.model.remaining == 0
    assert result.verified is True and result.verification == "verified: 2 of 3 computations agree"  # the mark (common.verify)


def test_a_failed_round_is_rescued_when_two_independent_computations_agree(script_file, sales_csv):
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, "result = df['unit_count'].mean()", "result = df['n_units'].mean()",
                        "result = df['units'].mean()", "result = round(df['units'].mean(), 3)", "About 21 units."])
    result, session = ask(spec, [sales_csv], "Average units?")
    assert route(result.run_id) == [*PREFIX, ("node_4_code", "failed"), ("node_4_code", "failed"),
                                    *ok("node_5_evaluate", "node_6_explain")]
    assert node_5_notes(result.run_id) == ["cross-check: node 4 failed, two independent results agree and are used"]
    assert float(result.result_str) == pytest.approx(pd.read_csv(sales_csv)["units"].mean())
    assert result.output_type == "analysis" and result.error is None and len(result.failed_attempts) == 2
    assert session.model.remaining == 0
    assert result.verified is True


def test_a_failed_round_with_disagreeing_checks_has_the_model_judge_the_first_checks_result(script_file, sales_csv):
    # node 4 failed both attempts; the checks ran but differ: the first one's result stands in for
    # node 4's and the seed's evaluation call judges it, shown the second (no run ends empty-handed)
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, "result = df['unit_count'].mean()", "result = df['n_units'].mean()",
                        "result = df['units'].mean()", "result = df['units'].max()", "result = df['units'].min()",  # no two agree
                        VALID, "About 21 units."])
    result, session = ask(spec, [sales_csv], "Average units?")
    assert route(result.run_id) == [*PREFIX, ("node_4_code", "failed"), ("node_4_code", "failed"),
                                    *ok("node_5_evaluate", "node_6_explain")]
    assert node_5_notes(result.run_id) == ["cross-check: node 4 failed, no two results agree; the first independent result is evaluated"]
    units = pd.read_csv(sales_csv)["units"]
    evaluate = prompt(session, 9)
    assert f"result = {units.mean()}" in evaluate and "Execution success: True" in evaluate
    assert "The two results disagree" in evaluate and f"result = {units.max()}" in evaluate
    assert float(result.result_str) == pytest.approx(units.mean()) and result.code.strip() == "result = df['units'].mean()"
    assert result.verified is False and result.verification.startswith("not sure:")  # one computation backs it: no mark
    assert "Not verified: an independent computation of the question gave" in result.explanation
    assert result.output_type == "analysis" and result.error is None and len(result.failed_attempts) == 2
    assert session.model.remaining == 0


def test_a_stand_in_result_the_model_rejects_is_rewritten_by_remediation(script_file, sales_csv):
    invalid = {"reasoning": "the maximum, not the mean", "is_valid": False, "issues_found": ["max instead of mean"],
               "confidence": 0.9, "recommendation": "code_error"}
    plan = {"reasoning": "wrong aggregate", "root_cause": "max instead of mean", "action": "rewrite_code", "guidance": "use .mean()"}
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, "result = df['unit_count'].mean()", "result = df['n_units'].mean()",
                        "result = df['units'].max()", "result = df['units'].mean()", "result = df['units'].min()",  # no two agree
                        invalid, plan, "result = df.units.mean()", "About 21 units."])
    result, session = ask(spec, [sales_csv], "Average units?")
    assert route(result.run_id) == [*PREFIX, ("node_4_code", "failed"), ("node_4_code", "failed"), ("node_5_evaluate", "rejected"),
                                    *ok("node_5a_remediation", "node_4_code", "node_5_evaluate", "node_6_explain")]
    assert node_5_notes(result.run_id)[1] == "cross-check agrees"  # with the second check
    assert "result = df['units'].max()" in session.model.history[11][-2].content  # the rewrite starts from the stand-in's code
    assert float(result.result_str) == pytest.approx(pd.read_csv(sales_csv)["units"].mean())
    assert session.model.remaining == 0


def test_cross_check_two_of_three_accepts(script_file, sales_csv):
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, CORR, "result = df['units'].mean()", "result = df['price'].corr(df['units'])", "Weak."])
    result, session = ask(spec, [sales_csv], "Calculate correlation between units and price")
    assert route(result.run_id) == [*PREFIX, *ok("node_4_code", "node_5_evaluate", "node_6_explain")]
    assert node_5_notes(result.run_id) == ["cross-check: 2 of 3 agree"] and result.evaluation["confidence"] == 0.67
    assert session.model.history[6][-1].content == session.model.history[5][-1].content  # the same prompt, sampled warmer
    assert session.model.remaining == 0


def test_cross_check_without_a_majority_leaves_the_verdict_to_the_model_with_the_evidence(script_file, sales_csv):
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, CORR, "result = df['units'].mean()",
                        "result = df['units'].max()", "result = df['units'].min()", VALID, "Weak."])
    result, session = ask(spec, [sales_csv], "Calculate correlation between units and price")
    assert route(result.run_id) == [*PREFIX, *ok("node_4_code", "node_5_evaluate", "node_6_explain")]
    assert node_5_notes(result.run_id) == ["cross-check: no two results agree"]
    assert prompt(session, 7) == prompt(session, 6) == prompt(session, 5)  # the third check: the same prompt, warm
    evaluate = prompt(session, 8)
    mean = pd.read_csv(sales_csv)["units"].mean()
    assert "The two results disagree" in evaluate and f"result = {mean}" in evaluate
    assert result.evaluation == VALID and session.model.remaining == 0


def test_a_third_check_that_agrees_with_node_4_makes_two_of_four(script_file, sales_csv):
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, CORR, "result = df['units'].mean()",
                        "result = df['units'].max()", "result = df['price'].corr(df['units'])", "Weak."])
    result, session = ask(spec, [sales_csv], "Calculate correlation between units and price")
    assert route(result.run_id) == [*PREFIX, *ok("node_4_code", "node_5_evaluate", "node_6_explain")]
    assert node_5_notes(result.run_id) == ["cross-check: 2 of 4 agree"] and result.evaluation["confidence"] == 0.5
    assert result.code.strip() == CORR and session.model.remaining == 0  # no evaluation call


def test_a_third_check_that_agrees_with_the_second_replaces_node_4s_result(script_file, sales_csv):
    second = "result = round(df['units'].mean(), 2)"
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, IMPOSSIBLE, "result = df['units'].max()",
                        second, "result = df['units'].mean()", "About 21 units."])
    result, session = ask(spec, [sales_csv], "Average units?")
    assert route(result.run_id) == [*PREFIX, *ok("node_4_code", "node_5_evaluate", "node_6_explain")]
    assert node_5_notes(result.run_id) == ["cross-check: two independent results outvote this one and replace it"]
    assert result.code.strip() == second and "(2 of 4)" in result.evaluation["reasoning"]
    assert float(result.result_str) == pytest.approx(round(pd.read_csv(sales_csv)["units"].mean(), 2))
    assert session.model.remaining == 0


def test_a_failed_round_is_rescued_by_two_of_three_checks(script_file, sales_csv):
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, "result = df['unit_count'].mean()", "result = df['n_units'].mean()",
                        "result = df['units'].mean()", "result = df['units'].max()", "result = round(df['units'].mean(), 3)",
                        "About 21 units."])
    result, session = ask(spec, [sales_csv], "Average units?")
    assert node_5_notes(result.run_id) == ["cross-check: node 4 failed, two independent results agree and are used"]
    assert result.code.strip() == "result = df['units'].mean()" and session.model.remaining == 0


def test_a_failing_cross_check_gets_one_fix_then_leaves_the_evaluation_to_the_model(script_file, sales_csv):
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, "result = df['units'].mean()",
                        "result = df['no_such_column'].mean()", "result = df['no_such_column'].mean() + 0",
                        VALID, "About 21 units."])
    result, session = ask(spec, [sales_csv], "Average units?")
    assert route(result.run_id) == [*PREFIX, *ok("node_4_code", "node_5_evaluate", "node_6_explain")]
    fix = prompt(session, 6)
    assert fix.startswith(prompt(session, 5)) and "This code failed:" in fix and "no_such_column" in fix and "KeyError" in fix
    assert "independent computation" not in prompt(session, 7) and "Validate:" in prompt(session, 7)
    assert node_5_notes(result.run_id) == ["cross-check failed"]
    assert result.evaluation == {**VALID} and session.model.remaining == 0


def test_a_fixed_cross_check_counts(script_file, sales_csv):
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, "result = df['units'].mean()",
                        "result = df['unit_count'].mean()", "result = df['units'].agg('mean')", "About 21 units."])
    result, session = ask(spec, [sales_csv], "Average units?")
    assert node_5_notes(result.run_id) == ["cross-check agrees"] and session.model.remaining == 0


MEAN = "result = df['units'].mean()"


def test_a_check_that_copies_an_earlier_checks_code_is_sampled_again(script_file, sales_csv):
    rounded = "result = round(df['units'].mean(), 2)  # another code, the same answer"
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, IMPOSSIBLE, MEAN,
                        f"import pandas as pd\n# the mean\n{MEAN}",  # the second check copies the first: sampled once more
                        rounded, "About 21 units."])
    result, session = ask(spec, [sales_csv], "Average units?")
    assert prompt(session, 7) == prompt(session, 6)  # the same prompt, sampled again
    assert node_5_notes(result.run_id) == ["cross-check: two independent results outvote this one and replace it"]
    assert result.code.strip() == MEAN and session.model.remaining == 0


def test_two_copies_of_one_code_are_one_vote(script_file, sales_csv):
    # the checks keep writing the same code: one computation, which cannot outvote node 4 alone
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, IMPOSSIBLE, MEAN, MEAN, MEAN, MEAN, MEAN,
                        VALID, "Units and price."])
    result, session = ask(spec, [sales_csv], "Average units?")
    assert route(result.run_id) == [*PREFIX, *ok("node_4_code", "node_5_evaluate", "node_6_explain")]
    assert node_5_notes(result.run_id) == ["cross-check: no two results agree"]
    assert result.code.strip() == IMPOSSIBLE and session.model.remaining == 0  # the model's evaluation decided


def test_a_check_that_copies_node_4s_code_backs_nothing_the_next_check_decides(script_file, sales_csv):
    # the first check is node 4's very code: node 4's computation run twice, so the second, warm, decides
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, CORR, f"# again\n{CORR}", "result = df['price'].corr(df['units'])",
                        "Weak."])
    result, session = ask(spec, [sales_csv], "Calculate correlation between units and price")
    assert route(result.run_id) == [*PREFIX, *ok("node_4_code", "node_5_evaluate", "node_6_explain")]
    assert node_5_notes(result.run_id) == ["cross-check: 2 of 3 agree"]
    assert result.verified is True and session.model.remaining == 0
    # the copy and a differing check: no vote backs node 4, the model's evaluation decides, and there is no mark
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, CORR, CORR, "result = df['units'].mean()",
                        "result = df['units'].max()", VALID, "Weak."])
    result, session = ask(spec, [sales_csv], "Calculate correlation between units and price")
    assert node_5_notes(result.run_id) == ["cross-check: no two results agree"]
    assert result.verified is False and session.model.remaining == 0


def test_a_check_that_is_node_4s_own_computation_does_not_vote_in_the_mark():
    from dsagent.workflows.common.verify import from_checks

    copy = {"code": f"import numpy as np\n{CORR}", "result_str": "0.12"}
    assert from_checks("0.12", [copy], CORR, "correlation?").verified is False
    other = {"code": "result = df['price'].corr(df['units'])", "result_str": "0.12"}
    assert from_checks("0.12", [copy, other], CORR, "correlation?").verified is True
    assert from_checks("0.12", [{**copy, "warm": True}], CORR, "correlation?").verified is True  # kept under sampling: a vote


def test_a_check_whose_result_is_nan_gets_the_fix_and_no_vote(script_file, sales_csv):
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, MEAN, "result = {'mean': float('nan')}",
                        "result = df['units'].dropna().mean()", "About 21 units."])
    result, session = ask(spec, [sales_csv], "Average units?")
    assert "This code failed:" in prompt(session, 6) and "holds NaN" in prompt(session, 6)
    assert node_5_notes(result.run_id) == ["cross-check agrees"] and session.model.remaining == 0


def test_codes_are_the_same_computation_but_for_comments_spacing_and_imports():
    from dsagent.workflows.common.verify import same_code as _same_code

    assert _same_code("import numpy as np\n# r\nresult = np.corrcoef(a, b)[0, 1]", "result = np.corrcoef(a,b)[0,1]  # r")
    assert not _same_code("result = df['# calls'].mean()", "result = df['# calls'].median()")  # a # in a string
