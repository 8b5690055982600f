"""Seed 000's five example flows, with the scripted model, a real sandbox and a real run log.

The route is asserted node by node from the run log's steps.
"""

from pathlib import Path

import pandas as pd
import pytest

from dsagent.session import Session
from dsagent.store import RunLog
from dsagent.config import load_settings

PLAN_EVAL = {"needs_code": True, "needs_evaluation": True, "needs_explanation": True, "reasoning": "compute it"}
PLAN_NO_EVAL = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "chart"}
PLAN_CONCEPT = {"needs_code": False, "needs_evaluation": False, "needs_explanation": True, "reasoning": "conceptual"}


def route(run_id: str) -> list[tuple[str, str]]:
    log = RunLog(load_settings().db_url)
    return [(s["node"], s["outcome"]) for s in log.steps(run_id)]


def ask(spec: str, files, question: str):
    with Session(files, model=spec) as session:
        return session.ask(question), session


def test_simple_analysis_success_first_try(script_file, sales_csv):
    spec = script_file([PLAN_EVAL, "result = df['units'].mean()", "The mean is plausible.", "The average is about 21 units."])
    result, session = ask(spec, [sales_csv], "What's the average number of units?")
    assert route(result.run_id) == [("plan", "ok"), ("code", "ok"), ("evaluate", "ok"), ("explain", "ok")]
    import pandas as pd

    assert float(result.result_str) == pytest.approx(pd.read_csv(sales_csv)["units"].mean())
    assert result.attempts == 1 and result.failed_attempts == []
    assert result.evaluation == "The mean is plausible."
    assert result.explanation.startswith("The average")
    # The evaluation was the last call, so the model's cache no longer holds the code's
    # conversation: the explanation is asked from the context, with the evaluation in it.
    explain_call = session.model.history[3]
    assert len(explain_call) == 2 and "The mean is plausible." in explain_call[-1].content
    assert "Question: What's the average number of units?" in explain_call[-1].content
    assert result.output_type == "analysis"
    report = Path(result.report_path).read_text()
    assert "What's the average number of units?" in report and "df['units'].mean()" in report
    assert (Path(result.workspace) / "cells" / "cell_1.py").exists()


def test_visualization_skips_evaluation(script_file, sales_csv):
    code = "fig = px.histogram(df, x='units', title='Units')"
    spec = script_file([PLAN_NO_EVAL, f"```python\n{code}\n```", "The histogram shows units."])
    result, session = ask(spec, [sales_csv], "Show me a histogram of units")
    assert route(result.run_id) == [("plan", "ok"), ("code", "ok"), ("explain", "ok")]
    assert result.output_type == "visualization"
    assert len(result.figures) == 1 and Path(result.figures[0]).exists()
    assert result.evaluation is None
    # The explanation is the next turn of the conversation that wrote the code (the last call):
    # the model's cache holds the question, rules and code, so only the output and the turn are read.
    _, code_call, explain_call = session.model.history
    assert explain_call[:-2] == code_call and explain_call[-2].type == "ai"
    assert explain_call[-2].content == f"```python\n{code}\n```"
    assert "answer the question above" in explain_call[-1].content and "figures created: 1" in explain_call[-1].content


def test_fail_fail_succeed_keeps_failed_attempts(script_file, sales_csv):
    spec = script_file([
        PLAN_EVAL,
        "result = df['units'].mean(",            # syntax error
        "result = df['unit_count'].mean()",           # wrong column name
        "result = df['units'].mean()",
        "Looks right.",
        "The mean is computed.",
    ])
    result, session = ask(spec, [sales_csv], "Calculate the mean of units")
    assert route(result.run_id) == [("plan", "ok"), ("code", "failed"), ("code", "failed"), ("code", "ok"), ("evaluate", "ok"), ("explain", "ok")]
    assert result.attempts == 3
    assert [a["attempt"] for a in result.failed_attempts] == [1, 2]
    assert "SyntaxError" in result.failed_attempts[0]["error"]
    assert "KeyError" in result.failed_attempts[1]["error"]
    # The fix continues the conversation that wrote the code: the first prompt, the failed code as
    # the model's reply, then its error (the model's cache still holds the first two).
    first, fix = session.model.history[1], session.model.history[2]
    assert fix[:-2] == first and fix[-2].type == "ai" and fix[-2].content == "```python\nresult = df['units'].mean(\n```"
    assert "SyntaxError" in fix[-1].content and "Fix the specific issue" in fix[-1].content
    assert len(session.model.history[3]) == 2 and "Earlier attempts failed" in session.model.history[3][-1].content  # the last: fresh


def test_three_failures_reach_the_error_node(script_file, sales_csv):
    spec = script_file([PLAN_EVAL, "raise ValueError('one')", "raise ValueError('two')", "raise ValueError('three')"])
    result, session = ask(spec, [sales_csv], "Do something impossible")
    assert route(result.run_id) == [("plan", "ok"), ("code", "failed"), ("code", "failed"), ("code", "failed"), ("error", "error")]
    assert result.output_type == "error"
    assert result.explanation.startswith("Code execution failed after 3 attempts. Final error:")
    assert "three" in result.explanation
    assert len(result.failed_attempts) == 3
    assert session.model.remaining == 0  # no explain call after the error node


def test_a_repeated_failed_code_is_resampled(script_file, sales_csv):
    spec = script_file([
        PLAN_EVAL,
        "result = df['unit_count'].sum()",
        "result = df['unit_count'].sum()",   # the fix repeats the failed code ...
        "result = df['units'].sum()",   # ... so the node asks again, warmer
        "Fine.",
        "The total is computed.",
    ])
    result, session = ask(spec, [sales_csv], "Total units?")
    assert route(result.run_id) == [("plan", "ok"), ("code", "failed"), ("code", "ok"), ("evaluate", "ok"), ("explain", "ok")]
    assert result.attempts == 2 and session.model.remaining == 0
    assert session.model.history[2] == session.model.history[3]  # same prompt, sampled again


def test_a_fix_that_repeats_the_failed_code_twice_gets_the_first_prompt_again(script_file, sales_csv):
    bad = "result = df['unit_count'].sum()"
    spec = script_file([PLAN_EVAL, bad, bad, bad,  # the fix and its warmer resample both repeat it ...
                        "result = df['units'].sum()",  # ... so the first prompt (no failing code in it) is asked, warm
                        "Fine.", "The total is computed."])
    result, session = ask(spec, [sales_csv], "Total units?")
    assert route(result.run_id) == [("plan", "ok"), ("code", "failed"), ("code", "ok"), ("evaluate", "ok"), ("explain", "ok")]
    assert session.model.history[4] == session.model.history[1]
    assert result.result_str == str(pd.read_csv(sales_csv)["units"].sum()) and session.model.remaining == 0

def test_a_retry_reads_the_data_as_loaded_not_as_a_failed_attempt_left_it(script_file, sales_csv):
    """Attempt 1 keeps a subset (``df = df[...]``) and then fails; attempt 2 counts the rows of
    ``df``: every attempt is a whole program written for the data its profile describes, so it
    gets the data as loaded again (batch J, seen: a retry counted 30 falls on a frame an earlier
    attempt had cut, 31 on the table)."""
    spec = script_file([PLAN_NO_EVAL, "df = df[df['units'] > 20]\nresult = df['unit_count'].sum()",
                        "result = len(df)", "There are 40 rows."])
    result, _ = ask(spec, [sales_csv], "How many rows?")
    assert route(result.run_id) == [("plan", "ok"), ("code", "failed"), ("code", "ok"), ("explain", "ok")]
    assert result.result_str == str(len(pd.read_csv(sales_csv)))


def test_conceptual_question_explains_only(script_file, sales_csv):
    spec = script_file([PLAN_CONCEPT, "A p-value is the probability ..."])
    result, session = ask(spec, [sales_csv], "What is a p-value?")
    assert route(result.run_id) == [("plan", "ok"), ("explain", "ok")]
    assert result.code is None and result.output_type is None
    explain = session.model.history[1]  # no code: the context, then the question
    assert len(explain) == 2 and "conceptual question" in explain[-1].content and "What is a p-value?" in explain[-1].content
    assert result.explanation.startswith("A p-value")


def test_invalid_plan_json_falls_back_to_code(script_file, sales_csv):
    spec = script_file(["I think we need code", "still not json", "result = len(df)", "There are 40 rows."])
    result, _ = ask(spec, [sales_csv], "How many rows?")
    assert route(result.run_id) == [("plan", "fallback"), ("code", "ok"), ("explain", "ok")]
    assert result.result_str == "40"


def test_llm_calls_are_logged(script_file, sales_csv):
    spec = script_file([PLAN_NO_EVAL, "result = len(df) // len(df)", "One."])
    result, _ = ask(spec, [sales_csv], "one?")
    calls = RunLog(load_settings().db_url).llm_calls(result.run_id)
    assert [c["node"] for c in calls] == ["plan", "code", "explain"]
    assert all(c["prompt_tokens"] > 0 and c["latency_s"] >= 0 for c in calls)
    assert result.llm_calls == 3


def _calls(run_id: str) -> list[str]:
    return [c["node"] for c in RunLog(load_settings().db_url).llm_calls(run_id)]


def test_one_value_about_a_named_column_is_planned_by_code(script_file, sales_csv):
    # decide_by_code: the seed's own example ("What's the average salary?" -> code, no evaluation)
    spec = script_file(["result = df['units'].mean()", "The average is about 21 units."])
    with Session([sales_csv], model=spec, decide_by_code=True) as session:
        result = session.ask("What's the average number of units?")
    assert route(result.run_id) == [("plan", "ok"), ("code", "ok"), ("explain", "ok")]
    assert _calls(result.run_id) == ["code", "explain"]
    steps = RunLog(load_settings().db_url).steps(result.run_id)
    assert steps[0]["detail"].endswith("decided by code: one value about units")
    assert result.plan["needs_code"] is True and result.plan["needs_evaluation"] is False
    assert session.model.remaining == 0 and float(result.result_str) == pytest.approx(pd.read_csv(sales_csv)["units"].mean())


def test_a_single_value_that_fits_is_evaluated_by_code(script_file, sales_csv):
    # decide_by_code: no column named, so the model plans and asks for an evaluation; the result
    # is one value that fits the question (checked by code): the evaluate node asks the model nothing
    spec = script_file([PLAN_EVAL, "result = df['units'].mean()", "The average is about 21 units."])
    with Session([sales_csv], model=spec, decide_by_code=True) as session:
        result = session.ask("What's the average quantity sold?")
    assert route(result.run_id) == [("plan", "ok"), ("code", "ok"), ("evaluate", "ok"), ("explain", "ok")]
    assert _calls(result.run_id) == ["plan", "code", "explain"]
    assert result.evaluation is None and session.model.remaining == 0
    steps = RunLog(load_settings().db_url).steps(result.run_id)
    assert steps[2]["detail"] == "decided by code: one value that fits the question"
    # the explanation's length fits the question: one or two sentences asked for, 160 tokens at most
    assert "single answer" in str(session.model.history[-1][-1].content)


def test_an_open_question_is_still_evaluated_by_the_model(script_file, sales_csv):
    spec = script_file([PLAN_EVAL, "result = df.groupby('region')['units'].mean()", "North leads.", "Units differ by region."])
    with Session([sales_csv], model=spec, decide_by_code=True) as session:
        result = session.ask("Compare the average units of each region")
    assert _calls(result.run_id) == ["plan", "code", "evaluate", "explain"]
    assert result.evaluation == "North leads." and session.model.remaining == 0
    assert "single answer" not in str(session.model.history[-1][-1].content)
