"""The assistant with the real embedded model: routing on two plain requests (slow; `-m real_model`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dsagent.workflows.assistant import Configuration, run_turn
from dsagent.workflows.assistant.configuration import AgentLLM

pytestmark = pytest.mark.real_model


def test_lists_files_then_greets_without_a_tool(project: Path, local_spec):
    conf = Configuration(agent_llm=AgentLLM(model=local_spec, max_tokens=60))
    listed = run_turn("Which data files are in this project?", project_dir=project, configuration=conf)
    assert [c["name"] for c in listed.tool_calls] == ["list_data_files"]
    assert listed.answer.strip()
    hello = run_turn("Hello!", project_dir=project, configuration=conf)
    assert hello.tool_calls == [] and hello.answer.strip()
