"""A node continues the conversation the model's cache holds only when the run's last own call was
that conversation (``common.code.continues``); work beside the run does not count."""

from __future__ import annotations

from pathlib import Path

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage

from dsagent.llm.lanes import beside
from dsagent.runtime import RunContext
from dsagent.workflows.common.code import continues, follow_up

FIRST = [SystemMessage("profile"), HumanMessage("write the code")]


def _ctx() -> RunContext:
    return RunContext(settings=None, model=None, model_label="test", sandbox=None, run_log=None,  # type: ignore[arg-type]
                      run_id="r", workspace=Path("."))


def test_the_code_call_and_its_fixes_continue_other_calls_do_not():
    ctx = _ctx()
    assert not continues(ctx, FIRST)  # nothing asked yet
    ctx._remember(FIRST)
    assert continues(ctx, FIRST)
    ctx._remember(follow_up(FIRST, "result = 1", "it failed"))  # a fix: the first prompt is still held
    assert continues(ctx, FIRST)
    ctx._remember([SystemMessage("profile"), HumanMessage("evaluate this")])  # another call in between
    assert not continues(ctx, FIRST)
    assert not continues(ctx, [*FIRST, AIMessage("x")])  # longer than what was asked


def test_calls_beside_the_run_leave_what_the_run_last_asked():
    ctx = _ctx()
    ctx._remember(FIRST)
    with beside():  # a check written ahead, on a lane of its own
        ctx._remember([SystemMessage("profile"), HumanMessage("an independent check")])
    assert continues(ctx, FIRST)
