"""Seed 004's ``route_after_agent``: a tool call goes to ``tools``, an answer ends the run."""

from __future__ import annotations

from typing import Literal

from langchain_core.messages import AIMessage

from dsagent.workflows.assistant.state import AssistantState


def route_after_agent(state: AssistantState) -> Literal["tools", "__end__"]:
    last = state["messages"][-1] if state.get("messages") else None
    if isinstance(last, AIMessage) and last.tool_calls:
        return "tools"
    return "__end__"
