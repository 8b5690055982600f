"""The assistant's prompts as the model receives them (regenerate with UPDATE_SNAPSHOTS=1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from langchain_core.messages import AIMessage, HumanMessage, ToolMessage
from snapshot_check import check_snapshot, render

from dsagent.workflows.assistant import nodes, prompts, router
from dsagent.workflows.assistant.configuration import Configuration
from dsagent.workflows.assistant.project import Project

from .conftest import scripted_context


def _turn(with_tool: bool) -> router.Turn:
    messages = [HumanMessage(content="Which files do I have?"), AIMessage(content="You have iris.csv and tips.csv."),
                HumanMessage(content="Summarize the iris data, then suggest tasks")]
    if with_tool:
        messages += [AIMessage(content="", tool_calls=[{"name": "summarize_data", "args": {"file_names": ["iris.csv"]}, "id": "c1"}]),
                     ToolMessage(content="✓ Summarized 1 file(s) into data/summaries/:\n- iris.csv: 150 rows x 6 cols\nNext step: suggest_tasks to get analysis ideas.", tool_call_id="c1")]
    return router.current_turn(messages)


def _decide(project: Path, with_tool: bool) -> str:
    ctx = scripted_context(['{"tool": "none"}'])
    router.decide(ctx, Project.at(project), _turn(with_tool), False)
    return render(ctx.model.history[0])


def _answer(project: Path) -> str:
    ctx = scripted_context(["ok"])
    nodes._answer(ctx, Configuration(), Project.at(project), _turn(True), False)
    return render(ctx.model.history[0])


CASES = {
    "assistant_decide_first": lambda p: _decide(p, False),
    "assistant_decide_after_tool": lambda p: _decide(p, True),
    "assistant_answer": _answer,
    "assistant_plan": lambda p: prompts.PLAN.format(task_id="T1", question="Predict species", dataset_id="iris", file="iris.csv", recipe="- step"),
    "assistant_execute": lambda p: prompts.EXECUTE.format(rules="RULES", dataset_id="iris", kind_rule=prompts.KIND_RULES["model"], task_id="T1",
                                                         question="Predict species", steps="1. split\n2. fit"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_prompt_snapshot(name, project):
    check_snapshot(name, CASES[name](project))


def test_agent_calls_share_one_system_message(project):
    first = {name: CASES[name](project).split("=== human ===")[0] for name in ("assistant_decide_first", "assistant_decide_after_tool", "assistant_answer")}
    assert len(set(first.values())) == 1
