"""A hosted model goes through its native tool calling (bind_tools), not the constrained router."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from dsagent.workflows.assistant import Configuration, run_turn, runtime
from dsagent.workflows.assistant.configuration import AgentLLM


class ChatOpenAI(BaseChatModel):  # named like the provider's class: the node checks the class name
    bound: list[str] = []
    seen: list[list[Any]] = []
    replies: list[AIMessage] = []

    @property
    def _llm_type(self) -> str:
        return "fake-native"

    def bind_tools(self, tools: Any, **kwargs: Any) -> "ChatOpenAI":
        self.bound = [t.name for t in tools]
        return self

    def _generate(self, messages: Any, stop: Any = None, run_manager: Any = None, **kwargs: Any) -> ChatResult:
        self.seen.append(list(messages))
        return ChatResult(generations=[ChatGeneration(message=self.replies.pop(0))])


def test_native_tool_calls(project: Path, monkeypatch):
    model = ChatOpenAI(replies=[
        AIMessage(content="", tool_calls=[{"name": "summarize_data", "args": {"file_names": ["iris.csv"]}, "id": "c1"}]),
        AIMessage(content="Iris has 150 rows."),
    ])
    monkeypatch.setitem(runtime._MODELS, "openai:fake", model)
    out = run_turn("summarize iris", project_dir=project, configuration=Configuration(agent_llm=AgentLLM(model="openai:fake")))
    assert out.tool_calls == [{"name": "summarize_data", "args": {"file_names": ["iris.csv"]}}]
    assert out.answer == "Iris has 150 rows." and "summarize_data" in model.bound and "clean_data" in model.bound
    assert model.seen[1][-1].type == "tool" and "✓ Summarized 1 file(s)" in model.seen[1][-1].content
    assert "summarized: 0/2" in model.seen[0][0].content  # the project's state is in the system message
