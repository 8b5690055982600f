"""Robust node 4 starts node 5's first independent code ahead, beside its own, when the model runs
calls side by side (the embedded model's lanes); node 5 takes it ready. Same route, same verdicts;
the check's calls are logged under node 5. A model that answers by prompt (the two calls' order is
not fixed), the real sandbox and run log."""

from __future__ import annotations

import json
import threading
from typing import Any

import pandas as pd
import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field
from robust_script import ALIGNED, DATA_WORK, PREFIX, PROFILE_OK, REQ_UNITS, node_5_notes, ok, route

from dsagent.config import load_settings
from dsagent.session import Session
from dsagent.store import RunLog

CHECK_OPENING = "computes the answer to this question"


class SideBySide(BaseChatModel):
    """Replies in order from ``main``, or from ``checks`` for a cross-check prompt."""

    main: list[str]
    checks: list[str]
    parallel: int = 2
    check_started: Any = Field(default_factory=threading.Event)
    code_waited_for_check: bool = False
    prompts: list[str] = Field(default_factory=list)
    sent: list[list[BaseMessage]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "side-by-side"

    @property
    def parallel_calls(self) -> int:
        return self.parallel

    def _generate(self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kwargs: Any) -> ChatResult:
        last = str(messages[-1].content)
        self.prompts.append(last)
        self.sent.append(list(messages))
        if CHECK_OPENING in last:
            self.check_started.set()
            text = self.checks.pop(0)
        else:
            text = self.main.pop(0)
            if text.startswith("result") and self.parallel > 1:  # node 4's code: the check is on its way already
                self.code_waited_for_check = self.check_started.wait(10)
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=text))])


def _ask(model: SideBySide, csv, question: str):
    with Session([csv], chat_model=model, workflow="robust", decide_by_code=False) as session:
        return session.ask(question)


def _script() -> list[str]:
    return [json.dumps(r) for r in (DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED)] + ["result = df['units'].mean()", "About 21 units."]


def test_the_first_check_is_written_beside_node_4s_code_and_node_5_takes_it(sales_csv):
    model = SideBySide(main=_script(), checks=["df.drop(columns=['price'], inplace=True)\nresult = df['units'].agg('mean')"])
    result = _ask(model, sales_csv, "Average units?")
    assert model.code_waited_for_check  # the check was asked for while node 4 wrote its code
    assert route(result.run_id) == [*PREFIX, *ok("node_4_code", "node_5_evaluate", "node_6_explain")]
    assert node_5_notes(result.run_id) == ["cross-check agrees"]
    assert float(result.result_str) == pytest.approx(pd.read_csv(sales_csv)["units"].mean())
    assert not model.main and not model.checks  # no second check: node 5 asked nothing again
    calls = RunLog(load_settings().db_url).llm_calls(result.run_id)
    checks = [c for c in calls if CHECK_OPENING in (c["prompt"] or "")]
    assert [c["node"] for c in checks] == ["node_5_evaluate"]  # logged where it belongs, not under node 4
    # the check's cell ran apart: node 6 saw the data as loaded (price still there)
    assert result.output_type == "analysis"
    # the check ran beside, so node 4's conversation was the run's last call: node 6 continues it
    # (the model's cache holds node 4's prompt and code; only the results and the turn are read)
    code_call = next(m for m in model.sent if str(m[-1].content).startswith("You are an expert data analyst"))
    explain_call = model.sent[-1]
    assert explain_call[:-2] == code_call and explain_call[-2].content == "```python\nresult = df['units'].mean()\n```"
    assert "answer\nthe question above" in str(explain_call[-1].content)


def test_with_calls_that_take_turns_the_check_is_written_in_node_5_as_before(sales_csv):
    model = SideBySide(main=_script(), checks=["result = df['units'].agg('mean')  # another code"], parallel=1)
    result = _ask(model, sales_csv, "Average units?")
    assert node_5_notes(result.run_id) == ["cross-check agrees"]
    order = ["check" if CHECK_OPENING in p else "main" for p in model.prompts]
    assert order == ["main"] * 5 + ["check", "main"]  # nodes 0-4, then node 5's check, then node 6
    assert len(model.sent[-1]) == 2  # the check was the last call: node 6 is asked from the context


def test_a_check_that_failed_ahead_is_written_again_in_node_5(sales_csv):
    class Flaky(SideBySide):
        def _generate(self, messages, stop=None, run_manager=None, **kwargs):  # noqa: ANN001, ANN202
            if CHECK_OPENING in str(messages[-1].content) and not self.check_started.is_set():
                self.check_started.set()
                raise TimeoutError("the provider timed out")
            return super()._generate(messages, stop, run_manager, **kwargs)

    model = Flaky(main=_script(), checks=["result = df['units'].agg('mean')  # another code"])
    result = _ask(model, sales_csv, "Average units?")
    assert node_5_notes(result.run_id) == ["cross-check agrees"] and not model.checks


class ReadProfile(SideBySide):
    """Says the data profile was read already (as the embedded model does after a first question)."""

    def holds_prefix(self, messages: list[BaseMessage]) -> bool:
        return messages[0].type == "system"


def test_with_the_profile_read_already_node_1b_starts_the_check(sales_csv):
    model = ReadProfile(main=_script(), checks=["result = df['units'].agg('mean')  # another code"])
    result = _ask(model, sales_csv, "Average units?")
    assert node_5_notes(result.run_id) == ["cross-check agrees"]
    first_check = next(i for i, p in enumerate(model.prompts) if CHECK_OPENING in p)
    assert first_check <= 2  # asked for beside node 1B (calls 0-1 are nodes 0 and 1B), not after node 4's code


def test_a_profile_not_read_yet_waits_for_node_4(sales_csv):
    model = SideBySide(main=_script(), checks=["result = df['units'].agg('mean')  # another code"])
    result = _ask(model, sales_csv, "Average units?")
    assert node_5_notes(result.run_id) == ["cross-check agrees"]
    first_check = next(i for i, p in enumerate(model.prompts) if CHECK_OPENING in p)
    assert first_check >= 4  # after nodes 0, 1B, 2 and 3 (no reading one profile twice at once)


class SlowCheck(SideBySide):
    """The check is slow: it is written only once an explanation has been asked for (or after 5 s)."""

    explaining: Any = Field(default_factory=threading.Event)
    explained_before_check: bool = False

    def _generate(self, messages, stop=None, run_manager=None, **kwargs):  # noqa: ANN001, ANN202
        last = str(messages[-1].content)
        if CHECK_OPENING in last and not self.check_started.is_set():
            self.check_started.set()
            self.explained_before_check = self.explaining.wait(5)
        elif "answer\nthe question above" in last:
            self.explaining.set()
        return super()._generate(messages, stop, run_manager, **kwargs)


def test_node_6_is_written_while_node_5_waits_for_its_check_and_taken_when_the_check_agrees(sales_csv):
    model = SlowCheck(main=_script(), checks=["result = df['units'].agg('mean')  # another code"])
    result = _ask(model, sales_csv, "Average units?")
    assert model.explained_before_check  # node 5 did not leave the run's lane idle
    assert route(result.run_id) == [*PREFIX, *ok("node_4_code", "node_5_evaluate", "node_6_explain")]
    assert node_5_notes(result.run_id) == ["cross-check agrees"]
    assert result.explanation.startswith("About 21 units") and not model.main  # asked once, taken by node 6
    calls = RunLog(load_settings().db_url).llm_calls(result.run_id)
    explained = [c["node"] for c in calls if "the question above" in (c["prompt"] or "")]
    assert explained == ["node_6_explain"]
    steps = RunLog(load_settings().db_url).steps(result.run_id)
    assert "written while node 5 waited" in next(s["detail"] for s in steps if s["node"] == "node_6_explain")


def test_an_explanation_written_ahead_is_dropped_when_the_check_does_not_simply_agree(sales_csv):
    script = [*_script(), "The average is about 21 units."]
    model = SlowCheck(main=script, checks=["result = df['units'].sum()", "result = df['units'].mean() * 1"])
    result = _ask(model, sales_csv, "Average units?")
    assert model.explained_before_check
    assert node_5_notes(result.run_id) == ["cross-check: 2 of 3 agree"]  # confidence 0.67, not the 1.0 assumed
    assert result.explanation.startswith("The average is about 21 units") and not model.main  # node 6 asked again
