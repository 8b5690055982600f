"""Grounding, fit and the fresh approach through the real graphs: scripted model, real sandbox, real
run log. Each test fails if its check is switched off."""

from pathlib import Path

import pandas as pd
import pytest

from dsagent.config import load_settings
from dsagent.session import Session
from dsagent.store import RunLog

PLAN = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "compute it"}


def steps(run_id: str) -> list[tuple[str, str, str]]:
    return [(s["node"], s["outcome"], s["detail"] or "") for s in RunLog(load_settings().db_url).steps(run_id)]


def ask(spec: str, files, question: str):
    with Session(files, model=spec) as session:
        return session.ask(question)


def test_quick_regenerates_an_ungrounded_number_and_records_it(script_file, sales_csv):
    mean = pd.read_csv(sales_csv)["units"].mean()
    spec = script_file([PLAN, "result = df['units'].mean()", "The average is 99.99 units.", f"The average is {mean:.2f} units."])
    result = ask(spec, [sales_csv], "What's the average number of units?")
    assert result.explanation == f"The average is {mean:.2f} units."
    assert result.grounding["ungrounded_caught"] == ["99.99"] and result.grounding["ungrounded_left"] == []
    grounding = [s for s in steps(result.run_id) if s[0] == "grounding"]
    assert grounding and grounding[0][1] == "regenerated" and "99.99" in grounding[0][2]
    assert "Grounding check" in Path(result.report_path).read_text() and "99.99" in Path(result.report_path).read_text()


def test_quick_replaces_a_number_still_ungrounded_by_the_computed_one(script_file, sales_csv):
    mean = pd.read_csv(sales_csv)["units"].mean()
    spec = script_file([PLAN, "result = df['units'].mean()", "The average is 99.99 units.", "The average is 98.5 units."])
    result = ask(spec, [sales_csv], "What's the average number of units?")
    assert "98.5" not in result.explanation and "99.99" not in result.explanation
    assert f"{mean:.2f}" in result.explanation
    assert result.grounding["ungrounded_left"] == []
    assert [s[1] for s in steps(result.run_id) if s[0] == "grounding"] == ["mended"]


def test_quick_drops_a_label_no_output_holds(script_file, sales_csv):
    totals = pd.read_csv(sales_csv).groupby("region")["units"].sum()
    top, wrong = totals.idxmax(), totals.idxmin()
    spec = script_file([PLAN, "result = df.groupby('region')['units'].sum().idxmax()",
                        f"{wrong} sold the most units.", f"{wrong} is the top region."])
    result = ask(spec, [sales_csv], "Which region sold the most units?")
    assert wrong not in result.explanation and top in result.explanation


def test_quick_sends_a_series_back_when_one_value_is_asked(script_file, sales_csv):
    grouped = "result = (df['units'] * df['price']).groupby(df['region']).mean()"
    spec = script_file([PLAN, grouped, "result = (df['units'] * df['price']).mean()", "It is the mean."])
    result = ask(spec, [sales_csv], "What is the mean revenue, units times price?")
    route = steps(result.run_id)
    assert [s[:2] for s in route if s[0] == "code"] == [("code", "misfit"), ("code", "ok")]
    assert "ResultDoesNotFitQuestion" in result.failed_attempts[0]["error"]
    frame = pd.read_csv(sales_csv)
    assert float(result.result_str) == pytest.approx((frame["units"] * frame["price"]).mean())


def test_quick_mends_a_per_row_series_by_code_when_the_aggregate_is_named(script_file, sales_csv):
    spec = script_file([PLAN, "result = df['units'] * df['price']", "It is the mean."])
    result = ask(spec, [sales_csv], "What is the mean revenue, units times price?")
    code_steps = [s for s in steps(result.run_id) if s[0] == "code"]
    assert [s[:2] for s in code_steps] == [("code", "ok")] and "aggregate of the per-row values" in code_steps[0][2]
    frame = pd.read_csv(sales_csv)
    assert float(result.result_str) == pytest.approx((frame["units"] * frame["price"]).mean())
    assert result.code.rstrip().endswith("result = result.mean()")


def test_quick_keeps_a_misfit_at_the_last_attempt_rather_than_ending_in_error(script_file, sales_csv):
    series = "result = (df['units'] * df['price']).groupby(df['region']).mean()"
    spec = script_file([PLAN, series, series + " * 1", series + " * 1.0", "Here are the revenues."])
    result = ask(spec, [sales_csv], "What is the mean revenue, units times price?")
    assert result.output_type != "error" and result.attempts == 3


def test_quick_third_attempt_is_a_fresh_generation_that_does_not_see_the_broken_code(script_file, sales_csv, tmp_path):
    spec = script_file([PLAN, "result = df['unit_count'].mean()", "result = df['n_units'].mean()", "result = df['units'].mean()", "Done."])
    result = ask(spec, [sales_csv], "What's the average number of units?")
    assert result.attempts == 3 and result.output_type == "analysis"
    code_steps = [s for s in steps(result.run_id) if s[0] == "code"]
    assert code_steps[-1][2].startswith("fresh approach")


def test_quick_mends_groupby_tuple_selection_before_running(script_file, sales_csv):
    code = "t = df.groupby('region')['units', 'price'].sum()\nresult = (t['units'] * t['price']).idxmax()"
    spec = script_file([PLAN, code, "Done."])
    result = ask(spec, [sales_csv], "Which region has the largest units times price?")
    assert result.attempts == 1 and result.failed_attempts == []


def test_quick_keeps_the_answer_when_the_code_assigns_the_figure_to_result(script_file, sales_csv):
    code = ("result = df.groupby('region')['units'].sum()\n"
            "fig = px.bar(result.reset_index(), x='region', y='units')\nresult = fig")
    spec = script_file([PLAN, code, "Done."])
    result = ask(spec, [sales_csv], "Show the units per region as a bar chart")
    assert "North" in result.result_str and len(result.figures) == 1


def test_robust_explanation_is_grounded(script_file, sales_csv):
    from robust_script import ALIGNED, DATA_WORK, PROFILE_OK, REQ_UNITS
    from robust_script import ask as ask_robust

    mean = pd.read_csv(sales_csv)["units"].mean()
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED, "result = df['units'].mean()",
                        "result = round(df['units'].mean(), 2)", "The average is 45.5 units.", f"The average is {mean:.2f} units."])
    result, _ = ask_robust(spec, [sales_csv], "What's the average number of units?")
    assert result.explanation == f"The average is {mean:.2f} units."
    assert result.grounding["ungrounded_caught"] == ["45.5"]


def test_react_report_is_grounded(script_file, sales_csv):
    reason = lambda action, instruction=None: {"rationale": "r", "next_action": action, "instruction": instruction}  # noqa: E731
    report = {"title": "Units", "sections": [{"section_type": "text", "content": "Total units are 123456. The data has regions."}]}
    spec = script_file([reason("act", "sum the units"), "result = int(df['units'].sum())", reason("finalize"), report])
    with Session([sales_csv], model=spec, workflow="react") as session:
        result = session.ask("Total units?")
    total = int(pd.read_csv(sales_csv)["units"].sum())
    assert "123456" not in result.explanation and str(total) in result.explanation
    assert result.grounding["caught"] == 1 and result.grounding["ungrounded_left"] == []


def test_a_react_report_after_steps_that_only_misfit_is_grounded_in_what_they_computed(script_file, sales_csv):
    """No step fitted the question, but each computed values the report may quote; a claim none of
    them holds is caught (the report was shown unchecked before)."""
    reason = lambda action, instruction=None: {"rationale": "r", "next_action": action, "instruction": instruction}  # noqa: E731
    report = {"title": "Units", "sections": [{"section_type": "text", "content": "North sold 99999 units; South sold 123456."}]}
    per_region = "result = df.groupby('region')['units'].sum()"
    spec = script_file([reason("act", "units per region"), per_region, reason("finalize"), report])
    with Session([sales_csv], model=spec, workflow="react") as session:
        result = session.ask("What is the total number of units?")
    assert result.grounding is not None and result.grounding["ungrounded_left"] == []
    assert "99999" in result.grounding["ungrounded_caught"] and "99999" not in result.explanation


def test_quick_turns_a_row_label_into_the_name_by_code(script_file, sales_csv):
    frame = pd.read_csv(sales_csv)
    spec = script_file([PLAN, "result = df['units'].idxmax()", "Done."])
    result = ask(spec, [sales_csv], "Which region had the highest units in one row?")
    assert result.attempts == 1 and result.result_str == frame.loc[frame["units"].idxmax(), "region"]
    assert "row label → name" in [s for s in steps(result.run_id) if s[0] == "code"][0][2]


def test_a_label_the_code_filtered_on_may_be_named():
    """'South' in the code's filter is a stated condition, not a finding the outputs must repeat."""
    from dsagent.workflows.common.grounded import code_conditions
    from dsagent.workflows.common.grounding import check_claims

    code = "result = int(df.loc[df['region'] == 'South', 'units'].sum())"
    text = "The South sold 211 units."
    labels = ["South", "North"]
    assert [c.value for c in check_claims(text, "211", "How many units?", labels).ungrounded] == ["South"]
    assert check_claims(text, "211", "How many units?", labels, known=code_conditions(code)).ungrounded == []
    assert check_claims("The North sold 211 units.", "211", "", labels, known=code_conditions(code)).ungrounded[0].value == "North"
