"""Seed 001's graph: START → reason ─ask→ END; ─act→ code_exec → reason; ─finalize or the loop
limit→ report → END. One ``graph.invoke()`` per user message; the caller keeps the history."""

from __future__ import annotations

from functools import partial
from typing import Any

from langgraph.graph import END, START, StateGraph

from dsagent.runtime import RunContext
from dsagent.workflows.react.nodes import make_nodes
from dsagent.workflows.react.routing import route_after_reason
from dsagent.workflows.react.state import ReactState


def build_graph(checkpointer: Any = None, *, ctx: RunContext | None = None) -> Any:
    """The compiled graph; every node reaches ``ctx`` through ``make_nodes(ctx)`` (dsagent.workflows' convention)."""
    if ctx is None:
        raise TypeError("react needs a RunContext (Session.open_run); a server runs it through doors/langgraph_app.py")
    graph = StateGraph(ReactState)
    for name, fn in make_nodes(ctx).items():
        graph.add_node(name, fn)
    graph.add_edge(START, "reason")
    graph.add_conditional_edges(
        "reason",
        partial(route_after_reason, max_loops=ctx.settings.react_max_loops),
        {"ask": END, "act": "code_exec", "finalize": "report", "limit": "report"},
    )
    graph.add_edge("code_exec", "reason")
    graph.add_edge("report", END)
    return graph.compile(checkpointer=checkpointer)
