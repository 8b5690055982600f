"""Routing by code: route_after_agent, prerequisites, arguments read from the request."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

from dsagent.workflows.assistant import router, stages
from dsagent.workflows.assistant.project import Project
from dsagent.workflows.assistant.routing import route_after_agent

from .conftest import scripted_context


def test_route_after_agent():
    call = AIMessage(content="", tool_calls=[{"name": "list_data_files", "args": {}, "id": "1"}])
    assert route_after_agent({"messages": [HumanMessage(content="hi"), call]}) == "tools"
    assert route_after_agent({"messages": [HumanMessage(content="hi"), AIMessage(content="hello")]}) == "__end__"
    assert route_after_agent({"messages": []}) == "__end__"


@pytest.mark.parametrize("text, task", [
    ("Run task T3", "T3"), ("run t2 please", "T2"), ("execute task 4", "T4"), ("Exécute la tâche 2", "T2"),
    ("Ejecuta la tarea 5", "T5"), ("Führe Aufgabe 1 aus", "T1"), ("タスク2を実行して", "T2"), ("summarize my data", None),
    ("what is the mean of T", None),
])
def test_task_ids_are_read_from_the_request(text, task):
    assert router.mentioned_task(text) == task


def test_file_names_are_read_by_name_or_stem(project: Path):
    p = Project.at(project)
    assert router.mentioned_files(p, "profile iris.csv") == ["iris.csv"]
    assert router.mentioned_files(p, "irisのデータを要約") == ["iris.csv"]
    assert router.mentioned_files(p, "summarize the tips and the IRIS data") == ["iris.csv", "tips.csv"]
    assert router.mentioned_files(p, "summarize my data") == []
    assert router.mentioned_files(p, "tipsy irises") == []


def test_prerequisites_follow_the_files(project: Path):
    p = Project.at(project)
    assert router.prerequisites("execute_analysis", p, "T1") == ["summarize_data", "suggest_tasks", "plan_analysis"]
    assert router.prerequisites("suggest_tasks", p, None) == ["summarize_data"]
    assert router.prerequisites("summarize_data", p, None) == []
    assert router.prerequisites("answer_question", p, None) == []
    stages.summarize(p, p.raw_files())
    assert router.prerequisites("plan_analysis", p, "T1") == ["suggest_tasks"]
    stages.suggest(p, p.raw_files(), 6)
    assert router.prerequisites("plan_analysis", p, "T1") == []
    assert router.prerequisites("execute_analysis", p, "T1") == ["plan_analysis"]


def test_a_request_that_names_no_task_gets_the_closest_one(project: Path):
    p = Project.at(project)
    stages.summarize(p, p.raw_files())
    tasks = stages.suggest(p, p.raw_files(), 6)
    turn = router.Turn(request="train the model that predicts species")
    args = router.fill_args("execute_analysis", turn, p, None, False, ctx=None)
    chosen = next(t for t in tasks if t["id"] == args["task_id"])
    assert chosen["kind"] == "model" and chosen["target"] == "species"


def test_the_turn_is_read_from_the_messages():
    messages = [HumanMessage(content="list"), AIMessage(content="two files"), HumanMessage(content="summarize"),
                AIMessage(content="", tool_calls=[{"name": "summarize_data", "args": {}, "id": "a"}]),
                ToolMessage(content="Error: boom. Next step: x", tool_call_id="a")]
    turn = router.current_turn(messages)
    assert turn.request == "summarize" and turn.history == [("list", "two files")]
    assert turn.calls == [{"name": "summarize_data", "args": {}, "result": "Error: boom. Next step: x", "artifact": None}]
    assert router._last_line_error(turn).startswith("Error: boom")


def test_the_choice_is_constrained_to_tools_not_yet_run(project: Path):
    turn = router.Turn(request="x", calls=[{"name": "list_data_files", "args": {}, "result": "ok"}])
    ctx = scripted_context(['{"tool": "list_data_files", "then": "none"}', 'no json at all', 'nor after the repair'])
    assert router.decide(ctx, Project.at(project), turn, False) == ("none", "none")  # already run: not allowed
    assert router.decide(ctx, Project.at(project), turn, False) == ("none", "none")  # unreadable, repaired once


@pytest.mark.parametrize("request_, two", [
    ("Summarize the data, then suggest tasks", True), ("List the files and profile them", True), ("要約して、タスクを提案して", True),
    ("Fais un résumé puis propose des tâches", True), ("Fasse die Daten zusammen und schlage Aufgaben vor", True),
    ("Summarize my data", False), ("What is the average tip?", False), ("データを要約してください", False),
])
def test_a_second_tool_needs_a_joint_in_the_request(request_, two):
    assert router.two_parts(request_) is two


def test_a_model_result_over_other_columns_is_off_task():
    from dsagent.workflows.assistant.execute import off_task

    task = {"kind": "model", "target": "species", "features": ["sepal_length", "petal_length"]}
    leaked = "{'accuracy': 1.0, 'feature_importance': petal_length    0.57\nspecies         0.11\nsepal_length    0.09\ndtype: float64}"
    assert "['species']" in off_task(task, leaked)
    assert off_task(task, "{'accuracy': 0.9, 'feature_importance': {'petal_length': 0.8, 'sepal_length': 0.2}}") is None
    assert "no feature_importance" in off_task(task, "{'accuracy': 0.9}")
    assert off_task({"kind": "chart"}, "0.96") is None


def test_viewers_of_what_does_not_exist_yet_are_not_offered(project: Path):
    p = Project.at(project)
    viewers = {"view_summary", "view_tasks", "view_results"}
    assert router.offered(p, router.Turn(request="x")) == [t for t in router.TOOL_NAMES if t not in viewers] + ["none"]
    stages.summarize(p, p.raw_files())
    assert "view_summary" in router.offered(p, router.Turn(request="x"))
    stages.suggest(p, p.raw_files(), 6)
    offered = router.offered(p, router.Turn(request="x"))
    assert "view_tasks" in offered and "view_results" not in offered
    assert router.status_line(p, False).endswith("executed: none yet.")


def test_a_request_that_names_a_file_is_not_offered_the_listing(project: Path):
    p = Project.at(project)
    assert "list_data_files" in router.offered(p, router.Turn(request="which files do I have?"))
    named = router.offered(p, router.Turn(request="Fasse tips.csv zusammen"))
    assert "list_data_files" not in named and "none" not in named
    after = router.Turn(request="Fasse tips.csv zusammen", calls=[{"name": "summarize_data", "args": {}, "result": "ok"}])
    assert router.offered(p, after)[-1] == "none"


def test_a_request_that_names_a_task_is_offered_the_task_tools_only(project: Path):
    p = Project.at(project)
    assert router.offered(p, router.Turn(request="Make a plan for task T2")) == ["plan_analysis", "execute_analysis"]
    ctx = scripted_context(['{"tool": "none", "then": "none"}'])
    assert router.decide(ctx, p, router.Turn(request="Make a plan for task T2"), False)[0] == "plan_analysis"
    done = router.Turn(request="Make a plan for task T2", calls=[{"name": "plan_analysis", "args": {"task_id": "T2"}, "result": "ok"}])
    assert router.offered(p, done)[-1] == "none"  # once a task tool ran, answering is allowed


def test_after_a_prerequisite_only_the_summary_or_the_question_is_offered(project: Path):
    p = Project.at(project)
    listed = router.Turn(request="Describe the tips file for me", calls=[{"name": "list_data_files", "args": {}, "result": "Found 2"}])
    assert router.only_prerequisites(listed) and router.offered(p, listed) == ["summarize_data", "answer_question", "none"]
    value = router.Turn(request="What is the average tip?", calls=listed.calls)
    assert router.offered(p, value) == ["answer_question"]  # a question about the values: only the answer
    files = router.Turn(request="Which files have the most rows?", calls=listed.calls)
    assert router.offered(p, files) == ["summarize_data", "answer_question", "none"]
    both = router.Turn(request="x", calls=listed.calls + [{"name": "summarize_data", "args": {}, "result": "✓"}])
    assert router.offered(p, both) == ["answer_question", "none"]
    asked = router.Turn(request="x", calls=both.calls + [{"name": "answer_question", "args": {}, "result": "Answer: 3"}])
    assert not router.only_prerequisites(asked) and router.request_done(asked)
    failed = router.Turn(request="x", calls=[{"name": "answer_question", "args": {}, "result": "Error: boom"}])
    assert not router.request_done(failed)


@pytest.mark.parametrize("first, then, kept", [
    ("answer_question", "execute_analysis", False), ("answer_question", "summarize_data", False), ("clean_data", "suggest_tasks", False),
    ("clean_data", "answer_question", True), ("summarize_data", "suggest_tasks", True), ("list_data_files", "summarize_data", True),
    ("summarize_data", "none", False),
])
def test_after_a_finishing_tool_no_stage_is_queued(first, then, kept):
    assert router.keep_then(first, then) is kept
