"""Seed 001's flows with the scripted model, a real sandbox and a real run log: the route is
asserted node by node from the run log's steps, one ``graph.invoke()`` per user message."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from dsagent.config import load_settings
from dsagent.reports.model import Report
from dsagent.session import Session
from dsagent.store import RunLog


def reason(action: str, instruction: str | None = None, question: str | None = None, assumption: str | None = None) -> dict:
    return {"rationale": f"{action} now", "next_action": action, "instruction": instruction, "question": question, "assumption": assumption}


def report(text: str, title: str = "Units by region", suggestions=("Compare months",)) -> dict:
    return {"title": title, "sections": [{"section_type": "text", "content": text}], "suggestions": list(suggestions)}


def route(run_id: str) -> list[tuple[str, str]]:
    return [(s["node"], s["outcome"]) for s in RunLog(load_settings().db_url).steps(run_id)]


def prompt(session: Session, call: int) -> str:
    """The node instruction (last message) of the model's call number ``call`` (0-based)."""
    return str(session.model.history[call][-1].content)


def session_for(spec: str, files, **overrides) -> Session:
    return Session(files, model=spec, workflow="react", **overrides)


def mean_of_units(*checks: str) -> list:
    """The script of a one-step report on the mean of units, then the replies of its independent
    checks (``checks``, the verify tests' only difference)."""
    return [reason("act", instruction="Mean of units"), "result = df['units'].mean()", reason("finalize"),
            report("The average is about 21 units."), *checks]


def test_ask_then_answer_then_act_then_finalize(script_file, sales_csv):
    spec = script_file([
        reason("ask", question="Do you mean the total units per region (my guess), or the average?"),
        reason("act", instruction="Sum units per region, sorted descending", assumption="units means units sold"),
        "result = df.groupby('region')['units'].sum().sort_values(ascending=False)",
        reason("finalize"),
        report("**South** sold the most units.\n\nTotals per region are in the table."),
    ])
    with session_for(spec, [sales_csv]) as session:
        first = session.ask("Which region is best?")
        assert route(first.run_id) == [("reason", "ok")]
        assert first.output_type == "ask" and first.explanation.startswith("Do you mean the total units")
        assert first.report is not None  # the session's default report of a question turn
        second = session.ask("The total units, please")
    assert route(second.run_id) == [("reason", "ok"), ("code_exec", "ok"), ("reason", "ok"), ("report", "ok")]
    assert session.model.remaining == 0
    # the second invoke saw the first: the question asked is in the history before the answer
    history = session.model.history[1]
    assert [m.type for m in history[1:-1]] == ["human", "ai"]
    assert "Do you mean the total units" in str(history[2].content)
    assert "The total units, please" in prompt(session, 1)
    # code_exec got reason's instruction; reason saw the result before it finalized
    assert "Sum units per region, sorted descending" in prompt(session, 2)
    totals = pd.read_csv(sales_csv).groupby("region")["units"].sum()
    assert f"{totals['South']}" in prompt(session, 3) and "Steps done" in prompt(session, 3)
    assert second.output_type == "report" and "South" in second.explanation
    assert second.code.startswith("result = df.groupby")
    assert second.failed_attempts == []
    assert str(totals["South"]) in second.result_str
    rep = second.report
    assert isinstance(rep, Report) and rep.title == "Units by region"
    assert rep.caveats == ["units means units sold"] and rep.suggestions == ["Compare months"]
    kinds = [s.section_type for s in rep.sections]
    assert kinds == ["text", "table", "code"]
    table = json.loads(rep.sections[1].content)
    assert {row["region"]: row["units"] for row in table} == totals.to_dict()
    # every call shares the stable prefix
    assert len({str(call[0].content) for call in session.model.history}) == 1


def test_an_error_goes_back_to_reason_which_adjusts_the_instruction(script_file, sales_csv):
    spec = script_file([
        reason("act", instruction="Average cost per region"),
        "result = df.groupby('region')['cost'].mean()",                 # KeyError
        reason("act", instruction="Average of the lowercase column price per region"),
        "result = df.groupby('region')['price'].mean().round(2)",
        reason("finalize"),
        report("Prices per region are similar."),
    ])
    with session_for(spec, [sales_csv]) as session:
        result = session.ask("What is the average price per region?")
    assert route(result.run_id) == [("reason", "ok"), ("code_exec", "failed"), ("reason", "ok"),
                                    ("code_exec", "ok"), ("reason", "ok"), ("report", "ok")]
    # reason was shown the failure; code_exec was shown the failed code and its error
    assert "FAILED:\n<data>\nKeyError: 'Column not found: cost' Hint: Columns of df are:" in prompt(session, 2)
    fix = prompt(session, 3)
    assert "The previous code for this step failed" in fix and "df.groupby('region')['cost']" in fix
    assert "lowercase column price" in fix
    assert len(result.failed_attempts) == 1 and "KeyError" in result.failed_attempts[0]["error"]
    assert result.output_type == "report" and "price" in result.code


def test_a_refused_library_is_an_error_reason_recovers_from(script_file, sales_csv):
    spec = script_file([
        reason("act", instruction="t-test of units between North and South"),
        "from scipy import stats\nresult = stats.ttest_ind(df[df.region=='North'].units, df[df.region=='South'].units)",
        reason("act", instruction="Compare mean units of North and South with pandas"),
        "result = df[df.region.isin(['North', 'South'])].groupby('region')['units'].mean()",
        reason("finalize"),
        report("North and South differ a little."),
    ])
    with session_for(spec, [sales_csv]) as session:
        result = session.ask("Do North and South differ in units?")
    assert route(result.run_id) == [("reason", "ok"), ("code_exec", "refused"), ("reason", "ok"),
                                    ("code_exec", "ok"), ("reason", "ok"), ("report", "ok")]
    assert "does not allow scipy" in prompt(session, 2)
    assert "does not allow scipy" in result.failed_attempts[0]["error"]


def test_the_loop_limit_reports_the_intermediate_results(script_file, sales_csv):
    steps = []
    for n in range(1, 6):
        steps += [reason("act", instruction=f"step {n}"), f"result = {n} * int(df['units'].count())"]
    spec = script_file([*steps, reason("act", instruction="step 6"), report("Counted rows five times.")])
    with session_for(spec, [sales_csv]) as session:
        result = session.ask("Keep analysing")
    assert route(result.run_id) == [("reason", "ok"), ("code_exec", "ok")] * 5 + [("reason", "ok"), ("report", "ok")]
    assert session.model.remaining == 0  # no sixth code_exec
    assert result.output_type == "limit"
    assert "limit of 5 steps" in result.explanation and "intermediate" in result.explanation
    assert "limit of 5 steps" in prompt(session, 11)  # the report prompt says so too
    assert result.result_str == str(5 * 40)
    codes = [s.content for s in result.report.sections if s.section_type == "code"]
    assert len(codes) == 5
    assert "intermediate" in Path(result.report_path).read_text()


def test_the_limit_is_a_setting(script_file, sales_csv):
    spec = script_file([reason("act", instruction="count"), "result = len(df)", reason("act", instruction="again"), report("40 rows.")])
    with session_for(spec, [sales_csv], react_max_loops=1) as session:
        result = session.ask("How many rows?")
    assert route(result.run_id) == [("reason", "ok"), ("code_exec", "ok"), ("reason", "ok"), ("report", "ok")]
    assert result.output_type == "limit" and "limit of 1 steps" in result.explanation


def test_a_follow_up_acts_on_the_latest_result(script_file, sales_csv):
    spec = script_file([
        reason("act", instruction="Total units per month"),
        "result = df.groupby('month')['units'].sum()",
        reason("finalize"),
        report("Units per month are shown."),
        reason("act", instruction="Line chart of the monthly totals from the previous result"),
        "monthly = df.groupby('month')['units'].sum()\nplt.plot(monthly.index, monthly.values)\nplt.title('Units per month')\n"
        "plt.savefig('monthly_units.png')\nplt.close()\nresult = monthly",
        reason("finalize"),
        report("The line chart shows the monthly trend."),
    ])
    with session_for(spec, [sales_csv]) as session:
        first = session.ask("Total units per month?")
        second = session.ask("Make it a line chart")
    assert route(second.run_id) == [("reason", "ok"), ("code_exec", "ok"), ("reason", "ok"), ("report", "ok")]
    # the second message's reason sees the first turn: its answer, code and result
    seen = "\n".join(str(m.content) for m in session.model.history[4])
    assert "df.groupby('month')['units'].sum()" in seen and "Units per month are shown." in seen
    assert "Result:\n<data>\n" + first.result_str.strip() in seen and "2024-01" in first.result_str
    # the chart is the announced file, not a second copy of it
    assert [Path(f).name for f in second.figures] == ["monthly_units.png"]
    assert not list((Path(second.workspace) / "figures").glob("*.png"))
    images = [s for s in second.report.sections if s.section_type == "image"]
    assert len(images) == 1 and images[0].description == "Units per month" and Path(images[0].content).exists()


def test_no_dataset_asks_for_an_upload_without_a_model_call(script_file):
    spec = script_file([])
    with session_for(spec, []) as session:
        result = session.ask("What is the average price?")
        japanese = session.ask("平均価格は？")
    assert route(result.run_id) == [("reason", "ok")]
    assert result.output_type == "ask" and "upload a data file" in result.explanation
    assert "アップロード" in japanese.explanation
    assert session.model.history == []


def test_invalid_json_falls_back_without_crashing(script_file, sales_csv):
    spec = script_file(["not json", "still not json", "result = int(df['units'].sum())",
                        reason("finalize"), "no report", "no report either"])
    with session_for(spec, [sales_csv]) as session:
        result = session.ask("Total units?")
    assert route(result.run_id) == [("reason", "fallback"), ("code_exec", "ok"), ("reason", "ok"), ("report", "fallback")]
    total = int(pd.read_csv(sales_csv)["units"].sum())
    assert result.result_str == str(total) and str(total) in result.explanation
    assert result.output_type == "report" and result.report.title == "Total units?"


def test_a_japanese_request_gets_a_japanese_report(script_file, sales_csv):
    spec = script_file([
        reason("act", instruction="地域別の販売数量の合計を棒グラフで表示"),
        "totals = df.groupby('region')['units'].sum()\nax = totals.plot.bar()\nax.set_title('地域別の販売数量')\n"
        "plt.savefig('地域別.png')\nplt.close()\nresult = totals",
        reason("finalize"),
        report("**South** が最も多く販売しました。", title="地域別の販売数量", suggestions=["月別の推移を確認する"]),
    ])
    with session_for(spec, [sales_csv]) as session:
        result = session.ask("地域別の販売数量を比較して")
    assert "Write the question and the instruction in Japanese (日本語)" in prompt(session, 0)
    assert "Write in Japanese (日本語)" in prompt(session, 3)
    assert result.report.title == "地域別の販売数量"
    assert [Path(f).name for f in result.figures] == ["地域別.png"]
    assert "地域別の販売数量" in Path(result.report_path).read_text()


@pytest.mark.parametrize("workflow", ["react"])
def test_analyze_runs_react(script_file, sales_csv, workflow):
    from dsagent import analyze

    spec = script_file([reason("act", instruction="count rows"), "result = len(df)", reason("finalize"), report("There are 40 rows.")])
    result = analyze("How many rows?", [sales_csv], model=spec, workflow=workflow)
    assert result.workflow == "react" and result.result_str == "40" and result.explanation == "There are 40 rows."


def test_repeating_a_step_that_succeeded_finalizes(script_file, sales_csv):
    spec = script_file([reason("act", instruction="Count the rows"), "result = len(df)",
                        reason("act", instruction="count the rows."), report("There are 40 rows.")])
    with session_for(spec, [sales_csv]) as session:
        result = session.ask("How many rows?")
    assert route(result.run_id) == [("reason", "ok"), ("code_exec", "ok"), ("reason", "ok"), ("report", "ok")]
    steps = RunLog(load_settings().db_url).steps(result.run_id)
    assert "repeats a step that succeeded → finalize" in steps[2]["detail"]
    assert result.output_type == "report" and result.result_str == "40"


def test_code_exec_takes_the_shared_code_step_mends_and_fit_check(script_file, sales_csv):
    """react's code_exec is the shared code step (common.attempt): idxmax's row label for "which
    region" is mended by code to the name at that row; a result that still does not fit goes back
    to reason as a failed step (not at the last loop)."""
    spec = script_file([
        reason("act", instruction="Which region had the single largest units value?"), "result = df['units'].idxmax()",
        reason("act", instruction="Which month had the largest units value?"), "result = float(df['units'].max())",
        reason("finalize"), report("The largest units value was in South."),
    ])
    frame = pd.read_csv(sales_csv)
    with session_for(spec, [sales_csv]) as session:
        result = session.ask("Which region had the largest units value?")
    assert route(result.run_id) == [("reason", "ok"), ("code_exec", "ok"), ("reason", "ok"), ("code_exec", "misfit"),
                                    ("reason", "ok"), ("report", "ok")]
    steps = RunLog(load_settings().db_url).steps(result.run_id)
    assert "row label → name" in steps[1]["detail"] and "ResultDoesNotFitQuestion" in steps[3]["detail"]
    assert result.code.endswith("result = df.loc[result, 'region']\n")
    assert result.result_str == frame.loc[frame["units"].idxmax(), "region"]
    assert result.failed_attempts[0]["error"].startswith("ResultDoesNotFitQuestion")


def test_a_misfit_at_the_last_loop_is_kept(script_file, sales_csv):
    """At the loop limit's last step a result that does not fit is kept (as quick and robust keep
    one at their last attempt): the report has an answer to show, not only a failure."""
    spec = script_file([reason("act", instruction="Which month had the largest units value?"), "result = float(df['units'].max())",
                        reason("act", instruction="again"), report("The largest units value is 32.")])
    with session_for(spec, [sales_csv], react_max_loops=1) as session:
        result = session.ask("Which month had the largest units value?")
    assert route(result.run_id) == [("reason", "ok"), ("code_exec", "ok"), ("reason", "ok"), ("report", "ok")]
    assert result.failed_attempts == [] and result.result_str == str(float(pd.read_csv(sales_csv)["units"].max()))


def test_the_request_asked_back_is_no_question_it_is_acted_on(script_file, sales_csv):
    spec = script_file([
        reason("ask", question="What is the total number of units?"),
        "result = df['units'].sum()",
        reason("finalize"),
        report("The total is in the result."),
    ])
    with session_for(spec, [sales_csv]) as session:
        result = session.ask("What is the total number of units?")
    assert route(result.run_id) == [("reason", "ok"), ("code_exec", "ok"), ("reason", "ok"), ("report", "ok")]
    assert result.output_type == "report"


def test_the_first_step_is_checked_against_the_request_not_only_its_instruction(script_file, sales_csv):
    spec = script_file([
        reason("act", instruction="Compute the highest price of one order"),
        "result = df['price'].max()",
        reason("act", instruction="Find the region of the order with the highest price"),
        "result = df.loc[df['price'].idxmax(), 'region']",
        reason("finalize"),
        report("That region sold the most units in one order."),
    ])
    with session_for(spec, [sales_csv]) as session:
        result = session.ask("Which region had the highest price in one order?")
    steps = RunLog(load_settings().db_url).steps(result.run_id)
    first = [s for s in steps if s["node"] == "code_exec"][0]
    # a number for a "which region" request is not its answer: sent back to reason like an error
    assert first["outcome"] == "misfit" and "asks which one" in first["detail"]
    assert result.output_type == "report" and result.code.startswith("result = df.loc[")


def test_a_clarifying_question_about_nothing_the_request_or_data_names_is_acted_on(script_file, sales_csv):
    spec = script_file([
        reason("ask", question="Do you mean total sales per customer segment?"),
        "result = df['price'].max()",
        reason("finalize"),
        report("The highest price is in the result."),
    ])
    with session_for(spec, [sales_csv]) as session:
        result = session.ask("What is the highest price?")
    assert [node for node, _ in route(result.run_id)][:2] == ["reason", "code_exec"]


def test_founded_questions_name_the_request_or_the_data():
    from dsagent.workflows.react.nodes import _founded

    class Ds:
        frame = pd.DataFrame(columns=["region", "units", "price"])
        id = "sales"

    data = {"sales": Ds()}
    assert _founded("Do you mean the total units per region (my guess), or the average?", "Which region is best?", data)
    assert not _founded("Do you mean total units per month?", "Which continent had the largest population?", {})


def test_the_report_is_marked_verified_when_an_independent_check_agrees_with_a_step(script_file, sales_csv):
    # verify on (the scripted model has one lane: the check is written in the report step, after the report)
    spec = script_file(mean_of_units("result = df.units.sum() / len(df)",  # the independent checks: the request alone
                                      "result = df['units'].agg('mean')"))
    with session_for(spec, [sales_csv], verify=True) as session:
        result = session.ask("What is the average number of units?")
        check_prompt = prompt(session, 4)
    assert result.verified is True and result.verification.startswith("verified:")
    assert "Question: What is the average number of units?" in check_prompt and "Mean of units" not in check_prompt
    assert "✓ Verified" in Path(result.report_path).read_text()


def test_a_report_an_independent_check_disagrees_with_is_marked_not_sure(script_file, sales_csv):
    spec = script_file(mean_of_units("result = df['units'].max()", "result = df['units'].min()"))  # two checks, neither backs a step
    with session_for(spec, [sales_csv], verify=True) as session:
        result = session.ask("What is the average number of units?")
    units = pd.read_csv(sales_csv)["units"]
    assert result.verified is False and result.verification.startswith("not sure:")
    assert str(units.max()) in result.verification and float(result.result_str) == pytest.approx(units.mean())  # not replaced
    assert "? Not verified: not sure" in Path(result.report_path).read_text()


def test_with_operations_the_first_step_is_the_chosen_operation_and_scipy_ones_are_left(script_file, sales_csv, monkeypatch):
    """Setting operations: code_exec's first step is an operation the model chose, written by code; an
    operation that needs scipy (not in the seed's allow-list) is left for the model's own code."""
    monkeypatch.setenv("DSAGENT_OPERATIONS", "true")
    spec = script_file([reason("act", instruction="Total units per region"), {"operation": "group_aggregate"},
                        {"group_column": "region", "value_column": "units", "agg": "sum"}, reason("finalize"),
                        report("South sold the most units.")])
    with session_for(spec, [sales_csv]) as session:
        result = session.ask("Total units per region?")
    assert route(result.run_id) == [("reason", "ok"), ("code_exec", "ok"), ("reason", "ok"), ("report", "ok")]
    assert result.code.startswith("# operation: group_aggregate")
    step = [s for s in RunLog(load_settings().db_url).steps(result.run_id) if s["node"] == "code_exec"][0]
    assert step["detail"].startswith("operation group_aggregate")
    totals = pd.read_csv(sales_csv).groupby("region")["units"].sum()
    assert str(totals["South"]) in result.result_str
    spec = script_file([reason("act", instruction="Do North and South differ in units?"), {"operation": "compare_groups"},
                        {"value_column": "units", "group_column": "region", "group_a": "North", "group_b": "South"},
                        "result = df[df['region'].isin(['North', 'South'])].groupby('region')['units'].mean()",
                        reason("finalize"), report("They differ.")])
    with session_for(spec, [sales_csv]) as session:
        result = session.ask("Do North and South differ in units?")
    assert result.code.strip().startswith("result = df[df['region'].isin")
    step = [s for s in RunLog(load_settings().db_url).steps(result.run_id) if s["node"] == "code_exec"][0]
    assert "its library is not allowed here" in step["detail"]
