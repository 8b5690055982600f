"""The assistant picks tools by what the server supports (issue 42): native tool calls where the
server returns them; else the constrained routing the embedded model uses, remembered for the
model. tests/fake_openai.py plays the servers on 127.0.0.1: one with tool calling, one that
refuses ``tools`` (HTTP 400), one that writes the call as text (llama-cpp-python's server)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_openai import FakeOpenAI

from dsagent.workflows.assistant import Configuration, run_turn
from dsagent.workflows.assistant.configuration import AgentLLM

ROUTED = ['ok:{"tool": "list_data_files", "then": "none"}', 'ok:{"tool": "none", "then": "none"}', "ok:Two files: iris.csv and tips.csv."]


@pytest.fixture(autouse=True)
def limits(monkeypatch):
    monkeypatch.setenv("DSAGENT_LLM_TIMEOUT_S", "30")
    monkeypatch.setenv("DSAGENT_LLM_TOTAL_TIMEOUT_S", "60")


def turn(project: Path, url: str):
    conf = Configuration(agent_llm=AgentLLM(model=f"openai-compatible:m@{url}"))
    return run_turn("Which data files are there?", project_dir=project, configuration=conf)


def test_a_server_with_tool_calling_gets_native_tools(project: Path):
    with FakeOpenAI(["tool_call:list_data_files", "ok:Two files: iris.csv and tips.csv."]) as fake:
        out = turn(project, fake.url)
    assert out.tool_calls == [{"name": "list_data_files", "args": {}}] and out.answer.startswith("Two files")
    assert all(b.get("tools") for b in fake.bodies)


@pytest.mark.parametrize("refusal", ["tools_as_text:list_data_files", "no_tools:unused"])
def test_a_server_without_tool_calling_gets_the_constrained_routing(project: Path, refusal: str):
    with FakeOpenAI([refusal, *ROUTED]) as fake:
        out = turn(project, fake.url)
        assert out.tool_calls == [{"name": "list_data_files", "args": {}}] and out.answer.startswith("Two files"), [(bool(b.get("tools")), b.get("stream"), str(b["messages"][-1]["content"])[-150:]) for b in fake.bodies]
        assert fake.bodies[0].get("tools") and not any(b.get("tools") for b in fake.bodies[1:])
        # The router's choice, held to the tools' enum by the server's JSON schema mode (the core's structured output).
        fmt = fake.bodies[1]["response_format"]
        assert "list_data_files" in (fmt.get("schema") or fmt["json_schema"]["schema"])["properties"]["tool"]["enum"]
        fake.behaviours = list(ROUTED)
        turn(project, fake.url)  # remembered: the next turn goes straight to the routing
        assert not any(b.get("tools") for b in fake.bodies[4:])


def test_routing_on_a_server_without_json_mode_reads_the_prompt(project: Path):
    with FakeOpenAI(["no_tools:unused", "no_format:unused", *ROUTED]) as fake:
        out = turn(project, fake.url)
    assert out.tool_calls == [{"name": "list_data_files", "args": {}}] and out.answer.startswith("Two files")
    # Refused: the structured modes are tried down to the plain prompt, which every later call keeps.
    plain = next(i for i, b in enumerate(fake.bodies) if i > 0 and not b.get("response_format"))
    assert fake.bodies[1].get("response_format") and not any(b.get("response_format") for b in fake.bodies[plain:])
