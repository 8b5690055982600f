"""Seed 004's graph: START → agent_node ⇄ tools (ToolNode); agent_node → END when it answers.

The input is plain JSON — ``{"messages": [{"role": "user", "content": "…"}], "project_dir": "…"}`` —
so a LangGraph server can serve it (``dsagent.doors.langgraph_app:assistant``, which holds a client's
choices to the operator's settings); the configuration comes per run in
``RunnableConfig["configurable"]`` (:class:`Configuration`).
"""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph
from langgraph.prebuilt import ToolNode

from dsagent.workflows.assistant.configuration import Configuration
from dsagent.workflows.assistant.nodes import make_agent_node
from dsagent.workflows.assistant.routing import route_after_agent
from dsagent.workflows.assistant.state import AssistantState
from dsagent.workflows.assistant.tools import get_all_tools


def recursion_limit(max_tool_iterations: int) -> int:
    """LangGraph steps for ``max_tool_iterations`` tool calls: two per call, one for the answer, and slack."""
    return 2 * max_tool_iterations + 3


def build_graph(checkpointer: Any = None, tools: list[Any] | None = None, *, ctx: Any = None) -> Any:
    """The compiled graph (dsagent.workflows' convention). It takes no ``ctx``: its nodes read the
    project and model from the run's configuration, and each user turn opens its own run
    (``turn.py``, through ``Session.open_run``), which every model call of the turn is logged in."""
    if ctx is not None:
        raise TypeError("the assistant takes no RunContext: each turn opens its own run")
    graph = StateGraph(AssistantState, context_schema=None)
    graph.add_node("agent_node", make_agent_node())
    graph.add_node("tools", ToolNode(tools or get_all_tools()))
    graph.add_edge(START, "agent_node")
    graph.add_conditional_edges("agent_node", route_after_agent, {"tools": "tools", END: END})
    graph.add_edge("tools", "agent_node")
    return graph.compile(checkpointer=checkpointer, name="assistant")


def run_config(configuration: Configuration | None = None, thread_id: str | None = None, callbacks: list[Any] | None = None) -> dict[str, Any]:
    """The RunnableConfig of one run: the configuration, the thread, the recursion limit, tracing."""
    conf = configuration or Configuration.defaults()
    config: dict[str, Any] = {"configurable": {**conf.model_dump(), **({"thread_id": thread_id} if thread_id else {})},
                              "recursion_limit": recursion_limit(conf.max_tool_iterations)}
    callbacks = list(callbacks or []) + tracing_callbacks()
    if callbacks:
        config["callbacks"] = callbacks
    return config


def tracing_callbacks() -> list[Any]:
    """A LangSmith tracer when LANGSMITH_TRACING / LANGCHAIN_TRACING_V2 is set (with its API key)."""
    import os

    on = any(os.environ.get(v, "").lower() in ("1", "true") for v in ("LANGSMITH_TRACING", "LANGCHAIN_TRACING_V2"))
    if not on:
        return []
    from langchain_core.tracers.langchain import LangChainTracer

    project = os.environ.get("LANGSMITH_PROJECT") or os.environ.get("LANGCHAIN_PROJECT") or "dsagent-assistant"
    return [LangChainTracer(project_name=project)]
