"""When a turn ends, what its reply says first, and where its model calls are logged (scripted model).

The slow tools (answer_question, clean_data) are stood in for by tools of the same name and schema,
so these tests check the routing and the reply, not minutes of code generation.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dsagent.workflows.assistant import Configuration, run_turn
from dsagent.workflows.assistant.configuration import AgentLLM

from .conftest import decide

ANSWER = "Answer: The average tip is 3.00 dollars, computed as the mean of the tip column.\nResult: 2.998279\nReport: r.md\nNext step: ask a follow-up question."


def stand_ins(replies: dict[str, str]) -> list[Any]:
    """Every tool, with answer_question and clean_data replaced by ones that return a fixed text."""
    from langchain_core.tools import StructuredTool

    from dsagent.workflows.assistant.tools import get_all_tools

    def fixed(reply: Any) -> Any:
        return lambda **_kw: reply

    def stand_in(t: Any) -> Any:
        pair = isinstance(replies[t.name], tuple)  # (content, artifact), as answer_question returns
        return StructuredTool.from_function(func=fixed(replies[t.name]), name=t.name, description=t.description, args_schema=t.args_schema,
                                            response_format="content_and_artifact" if pair else "content")

    return [stand_in(t) if t.name in replies else t for t in get_all_tools()]


def turn(project: Path, script_file, replies: list, request: str, tools: dict[str, str] | None = None):
    spec = script_file(replies)
    conf = Configuration(agent_llm=AgentLLM(model=spec))
    return run_turn(request, project_dir=project, configuration=conf, tools=stand_ins(tools or {"answer_question": ANSWER, "clean_data": "✓ Cleaned tips.csv: duplicates removed.\nNext step: tell the user."}))


def names(out) -> list[str]:
    return [c["name"] for c in out.tool_calls]


def test_a_summary_run_for_a_question_does_not_end_the_turn(project: Path, script_file):
    # The model first reaches for a summary; the question is still answered in the same turn.
    out = turn(project, script_file, [decide("summarize_data"), decide("answer_question")], "What is the average tip?")
    assert names(out) == ["summarize_data", "answer_question"]
    assert out.answer.startswith("The average tip is 3.00")  # the computed answer, not the list of summaries


def test_a_listing_run_for_a_question_does_not_end_the_turn(project: Path, script_file):
    out = turn(project, script_file, [decide("list_data_files"), decide("answer_question")], "What is the average tip?")
    assert names(out) == ["list_data_files", "answer_question"]


@pytest.mark.parametrize("question", ["Which day has the highest average tip?", "How many parties had a size of 4 or more?"])
def test_after_a_listing_a_question_about_the_values_is_answered_without_another_choice(question, project: Path, script_file):
    """A question about the data's values that a listing cannot answer: answer_question is the only
    way on, so code takes it (no second routing call; the scripted model has no reply left for one)."""
    out = turn(project, script_file, [decide("list_data_files")], question)
    assert names(out) == ["list_data_files", "answer_question"] and out.answer.startswith("The average tip is 3.00")


def test_a_request_for_the_listing_ends_after_it(project: Path, script_file):
    out = turn(project, script_file, [decide("list_data_files"), decide("none"), "You have iris.csv and tips.csv."], "What data files do I have?")
    assert names(out) == ["list_data_files"] and out.answer == "You have iris.csv and tips.csv."


def test_after_answer_question_the_turn_ends(project: Path, script_file):
    # A two-part request whose second part the model reads as a pipeline stage: the stage (and its
    # prerequisites summarize → suggest → plan) does not run after the question is answered.
    out = turn(project, script_file, [{"tool": "answer_question", "then": "execute_analysis"}],
               "Compute the average tip, and tell me what it means")
    assert names(out) == ["answer_question"] and out.answer.startswith("The average tip is 3.00")


def test_answer_questions_verified_mark_reaches_the_turns_result(project: Path, script_file):
    # answer_question's artifact carries its run's mark (common.verify); the turn's JSON shows it
    mark = "verified: an independent computation of the question gives the same result"
    tools = {"answer_question": (ANSWER, {"run_id": "r1", "result_str": "2.998279", "grounding": None, "verified": True, "verification": mark})}
    out = turn(project, script_file, [{"tool": "answer_question", "then": "none"}], "Compute the average tip", tools)
    assert names(out) == ["answer_question"] and out.answer.startswith("The average tip is 3.00")
    assert out.to_json()["verified"] is True and out.to_json()["verification"] == mark


def test_after_clean_data_the_turn_ends(project: Path, script_file):
    out = turn(project, script_file, [{"tool": "clean_data", "then": "suggest_tasks"}, "I removed the duplicate rows of tips.csv."],
               "Clean tips.csv, then remove the duplicates")
    assert names(out) == ["clean_data"] and out.answer == "I removed the duplicate rows of tips.csv."


def test_a_question_asked_after_cleaning_is_answered(project: Path, script_file):
    out = turn(project, script_file, [{"tool": "clean_data", "then": "answer_question"}], "Remove the duplicates, then tell me the average tip")
    assert names(out) == ["clean_data", "answer_question"] and out.answer.startswith("The average tip is 3.00")


def test_the_reply_leads_with_the_one_computed_value(project: Path, script_file):
    tools = {"answer_question": ("Answer: The code groups the rows by day and takes the mean. The highest is Sun.\nResult: Sun\nReport: r.md\nNext step: x.",
                                 {"result_str": "Sun", "grounding": None})}
    out = turn(project, script_file, [decide("answer_question")], "On which day is the average total bill highest?", tools)
    assert out.answer.startswith("The highest is Sun.")  # the sentence that names the answer comes first
    assert "groups the rows by day" in out.answer  # then how it was computed


def test_every_model_call_of_a_turn_is_in_one_run(project: Path, script_file):
    from dsagent.config import load_settings
    from dsagent.store import RunLog

    out = turn(project, script_file, [decide("list_data_files"), decide("none"), "You have two files: iris.csv and tips.csv."], "Which files do I have?")
    log = RunLog(load_settings().db_url)
    runs = [r for r in log.recent_runs(10) if r["workflow"] == "assistant"]
    assert len(runs) == 1 and runs[0]["status"] == "ok"
    calls = log.llm_calls(runs[0]["id"])
    assert len(calls) == 3 and all(c["prompt"] and c["reply"] is not None for c in calls)
    assert "Which files do I have?" in calls[0]["prompt"] and calls[-1]["reply"] == out.answer
    final = runs[0]["final_output"]
    final = json.loads(final) if isinstance(final, str) else final
    assert final["answer"] == out.answer and "grounding" in final


def test_an_ungrounded_number_in_the_reply_is_mended(project: Path, script_file):
    # The reply names a count no tool output (nor the data's shape) holds; the regenerated reply is grounded.
    out = turn(project, script_file, [decide("list_data_files"), decide("none"), "You have 17 files.", "You have 2 files: iris.csv and tips.csv."],
               "How many files do I have?")
    assert "17" not in out.answer and "2 files" in out.answer


@pytest.mark.parametrize("text, value, lead", [
    ("The code takes the mean of tip. The average tip is 2.998.", "2.998", "The average tip is 2.998."),
    ("It is Sun.", "Sun", "It is Sun."),
    ("The code groups by day.", "Sun", "Answer: Sun."),
])
def test_lead_with(text, value, lead):
    from dsagent.workflows.assistant.reply import lead_with

    assert lead_with(text, value).startswith(lead)


def test_stage_four_is_grounded_and_logged_in_the_turns_run(project: Path, script_file):
    from dsagent.config import load_settings
    from dsagent.store import RunLog

    from .test_assistant_flows import IRIS_MODEL_CODE

    out = turn(project, script_file, [decide("execute_analysis"), {"steps": ["Select the measurements", "Split", "Fit", "Report"]},
                                      IRIS_MODEL_CODE, "The accuracy is 0.42.", "The model tells the species apart well.", "T1 ran: see its report."],
               "Run task T1")
    assert names(out) == ["summarize_data", "suggest_tasks", "plan_analysis", "execute_analysis"]
    result = json.loads((project / "data" / "intermediate" / "T1_result.json").read_text())
    assert result["explanation"] == "The model tells the species apart well."  # 0.42 is no computed value: regenerated
    assert result["grounding"]["ungrounded_caught"] == ["0.42"] and result["grounding"]["ungrounded_left"] == []
    log = RunLog(load_settings().db_url)
    runs = [r for r in log.recent_runs(10) if r["workflow"] == "assistant"]
    assert len(runs) == 1 and runs[0]["id"] == result["run_id"]  # one run for the turn, stage 4 in it
    prompts = [c["prompt"] for c in log.llm_calls(runs[0]["id"])]
    assert len(prompts) == 6
    assert "<data>" in prompts[1] and "<data>" in prompts[2]  # the profile is fenced in stage 3's and 4's prompts


def test_only_one_value_leads(project: Path):
    from dsagent.workflows.assistant.project import Project
    from dsagent.workflows.assistant.reply import one_value
    from dsagent.workflows.assistant.router import Turn

    def asked(result_str):
        return Turn(request="q", calls=[{"name": "answer_question", "args": {}, "result": "Answer: …", "artifact": {"result_str": result_str}}])

    p = Project.at(project)
    assert one_value(asked("np.float64(2.998)"), p) == "2.998" and one_value(asked("Sun"), p) == "Sun"
    assert one_value(asked("day\nSun    21.4\nSat    20.4"), p) is None  # a table leads with nothing
    assert one_value(asked("{'a': 1}"), p) is None


def test_a_which_question_is_not_led_by_a_number():
    from dsagent.workflows.assistant.reply import lead_with, leading_value

    assert leading_value("Which country had the lowest GDP per capita?", "876") is None
    assert leading_value("Which country had the lowest GDP per capita?", "Lesotho") == "Lesotho"
    assert leading_value("What is the mean GDP per capita?", "876.5") == "876.5"
    text = "Lesotho had the lowest GDP per capita, 298.8."
    assert lead_with(text, leading_value("Which country had the lowest GDP per capita?", "298.8")) == text
