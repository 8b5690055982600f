"""Prompts stay inside the local model's context (issue 24, part 2): several wide datasets at once,
and a long conversation (the chat history is capped)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from robust_script import ALIGNED, DATA_WORK, PROFILE_OK
from .test_edge_inputs import PLAN, _tokenizer

from dsagent.config import load_settings
from dsagent.session import Session

REPLY_TOKENS = 768 + 100
"""The longest reply a node asks for (code) and the chat template: what the prompt must leave free."""
ACT = {"rationale": "mean", "next_action": "act", "instruction": "the mean of one column", "question": None, "assumption": None}
FIN = {**ACT, "next_action": "finalize", "instruction": None}
REPORT = {"title": "Mean", "sections": [{"section_type": "text", "content": "The mean is shown."}], "suggestions": []}


def _wide(seed: int, columns: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(rng.normal(size=(40, columns)).round(3), columns=[f"t{seed}_sensor_{i:05d}_reading" for i in range(columns)])


def _replies(workflow: str, code: str) -> list:
    if workflow == "quick":
        return [PLAN, code, "The mean is shown."]
    if workflow == "react":
        return [ACT, code, FIN, REPORT]
    req = {"reasoning": "a mean", "variables_needed": ["t2_sensor_00042_reading"], "constraints": [], "analysis_type": "descriptive",
           "success_criteria": "the mean"}
    picks = [{"reasoning": "the named one", "columns": ["t2_sensor_00042_reading"] if i == 2 else []} for i in range(3)]  # one per wide table
    return [DATA_WORK, req, *picks, {**PROFILE_OK, "available_columns": ["t2_sensor_00042_reading"]}, ALIGNED, code, code.replace("['t2_sensor_00042_reading']", ".t2_sensor_00042_reading"), "The mean is shown."]  # node 4, node 5's check: another code


@pytest.mark.parametrize("workflow", ["quick", "react", "robust"])
def test_three_tables_of_5000_columns_keep_every_prompt_inside_the_local_context(workflow, script_file):
    frames = {f"t{i}": _wide(i, 5_000) for i in range(3)}
    code = "result = float(datasets['t2']['t2_sensor_00042_reading'].mean())"
    count, how = _tokenizer()
    with Session(frames, model=script_file(_replies(workflow, code)), workflow=workflow) as session:
        result = session.ask("What is the mean of t2_sensor_00042_reading?")
        prompts = ["\n".join(str(m.content) for m in call) for call in session.model.history]
    assert result.output_type != "error", result.error
    sizes = [count(p) for p in prompts]
    context = load_settings().local_n_ctx
    print(f"{workflow}, 3 × 5,000 columns: prompt tokens per call {sizes} ({how}); context {context}")
    assert max(sizes) <= context - REPLY_TOKENS, (how, sizes)
    assert all(p.count("more columns not listed") == 3 for p in prompts if "DATA (already loaded" in p)
    assert "t2_sensor_00042_reading" in prompts[-1] or "t2_sensor_00042_reading" in prompts[1]


# --- a long conversation ---------------------------------------------------------------------

TURNS = 200
LONG_ANSWER = "The figures for this part of the data are as follows, read from the table and the chart. " * 6


def _sizes(calls, count) -> list[int]:
    return [count("\n".join(str(m.content) for m in call)) for call in calls]


def test_a_200_turn_react_chat_keeps_the_system_prompt_and_the_latest_turns(script_file, sales_csv):
    report = {"title": "Answer", "sections": [{"section_type": "text", "content": LONG_ANSWER}], "suggestions": []}
    replies = [FIN, report] * TURNS
    events = []
    count, how = _tokenizer()
    with Session([sales_csv], model=script_file(replies), workflow="react", progress=events.append) as session:
        for turn in range(TURNS):
            session.ask(f"Question number {turn}: what do the units look like?")
        calls = session.model.history
        assert len(session.history) == 2 * TURNS  # the session keeps the whole conversation; the prompts do not
    assert len(calls) == 2 * TURNS
    sizes = _sizes(calls, count)
    budget = load_settings().local_n_ctx - REPLY_TOKENS
    print(f"200-turn react chat: prompt tokens first {sizes[:2]}, largest {max(sizes)}, last {sizes[-2:]} ({how})")
    assert max(sizes) <= budget, (how, max(sizes))
    assert max(sizes[-100:]) <= max(sizes[:40]) * 1.05  # flat once the cap is reached
    for call in calls:
        assert call[0].type == "system" and str(call[0].content).startswith("You are dsagent")  # the system prompt stays
    last = "\n".join(str(m.content) for m in calls[-1])
    assert f"Question number {TURNS - 1}:" in last and f"Question number {TURNS - 2}:" in last  # the latest turns stay
    assert "Question number 0:" not in last and "Question number 100:" not in last
    assert "oldest exchanges of this conversation are left out" in last  # and the prompt says so
    said = [e.message for e in events if e.kind == "info" and "oldest exchange" in e.message]
    assert said and "history_max_tokens" in said[-1]  # so does the progress


def test_without_the_cap_the_same_chat_would_not_fit():
    # The cap is what keeps the test above inside the context: the history it leaves out is large.
    from langchain_core.messages import AIMessage, HumanMessage

    from dsagent.workflows.common.history import cap_history

    history = []
    for turn in range(TURNS):
        history += [HumanMessage(content=f"Question number {turn}: what do the units look like?"), AIMessage(content=LONG_ANSWER)]
    count, _ = _tokenizer()
    whole = count("\n".join(str(m.content) for m in history))
    kept, dropped = cap_history(history, load_settings().history_max_tokens)
    assert whole > 3 * load_settings().local_n_ctx and dropped > TURNS * 0.8
    assert count("\n".join(str(m.content) for m in kept)) <= load_settings().history_max_tokens * 1.2
    assert kept[-1].content == LONG_ANSWER and "Question number 199:" in kept[-2].content


def test_a_200_turn_assistant_thread_keeps_its_prompts_bounded(script_file, sales_csv, tmp_path, hermetic):
    import shutil

    from dsagent.store.checkpoint import sqlite_checkpointer
    from dsagent.workflows.assistant import Configuration, run_turn
    from dsagent.workflows.assistant.runtime import chat_model, close_all

    project = tmp_path / "project"
    (project / "data" / "raw").mkdir(parents=True)
    shutil.copy(sales_csv, project / "data" / "raw" / "sales.csv")
    spec = script_file([r for turn in range(TURNS) for r in ({"tool": "none"}, f"Answer {turn}. {LONG_ANSWER}")])
    conf = Configuration.defaults()
    conf = conf.model_copy(update={"agent_llm": conf.agent_llm.model_copy(update={"model": spec})})
    try:
        with sqlite_checkpointer(hermetic) as saver:
            for turn in range(TURNS):
                out = run_turn(f"Message {turn}: hello", project_dir=project, thread_id="long", configuration=conf, checkpointer=saver)
                assert out.answer.startswith(f"Answer {turn}.")
        calls = chat_model(spec).history
    finally:
        close_all()
    count, how = _tokenizer()
    sizes = _sizes(calls, count)
    print(f"200-turn assistant thread: prompt tokens first {sizes[:2]}, largest {max(sizes)}, last {sizes[-2:]} ({how})")
    assert max(sizes) <= load_settings().local_n_ctx - REPLY_TOKENS and max(sizes[-100:]) <= max(sizes[:20]) * 1.1
    last = "\n".join(str(m.content) for m in calls[-1])
    assert f"Message {TURNS - 1}: hello" in last and f"Message {TURNS - 2}: hello" in last and "Message 0: hello" not in last
    assert f"the {TURNS - 1 - 2} older exchanges of this conversation left out" in last


def test_the_assistant_on_a_hosted_model_sends_the_latest_exchanges_of_a_long_thread(tmp_path):
    from langchain_core.messages import AIMessage, HumanMessage, ToolMessage

    from dsagent.workflows.assistant.nodes import _native_step
    from dsagent.workflows.assistant.project import Project

    class ChatOpenAI:  # stands in for the hosted model: records what it is sent
        sent: list = []

        def bind_tools(self, tools):
            return self

        def invoke(self, messages, config=None):
            self.sent.append(messages)
            return AIMessage(content="ok")

    thread = []
    for turn in range(TURNS):
        call = {"name": "view_tasks", "args": {}, "id": f"c{turn}", "type": "tool_call"}
        thread += [HumanMessage(content=f"Message {turn}: {LONG_ANSWER}"), AIMessage(content="", tool_calls=[call]),
                   ToolMessage(content=LONG_ANSWER, tool_call_id=f"c{turn}"), AIMessage(content=LONG_ANSWER)]
    killed = {"name": "answer_question", "args": {"question": "q"}, "id": "killed", "type": "tool_call"}
    thread += [HumanMessage(content="How many units?"), AIMessage(content="", tool_calls=[killed])]  # a turn killed in its tool
    thread += [HumanMessage(content="And now?")]
    model = ChatOpenAI()
    _native_step(model, {"messages": thread}, Project.at(tmp_path))
    sent = model.sent[-1]
    assert sent[0].type == "system" and sent[-1].content == "And now?"
    assert sum(len(str(m.content)) for m in sent[1:]) < 4 * (load_settings().history_max_tokens + 200)
    assert "oldest exchanges of this conversation are left out" in str(sent[1].content)
    # whole exchanges only: every tool call sent has its result
    ids = {c["id"] for m in sent if isinstance(m, AIMessage) for c in m.tool_calls}
    assert ids and ids == {m.tool_call_id for m in sent if isinstance(m, ToolMessage)} and "killed" not in ids
    assert sent[-2].content == "How many units?"  # the killed request is still there, without its unanswered call
