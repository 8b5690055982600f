"""Seed 000's graph: START → plan → (code ⟲ ≤3) → evaluate? → explain → END, or → error → END."""

from __future__ import annotations

from functools import partial
from typing import Any

from langgraph.graph import END, START, StateGraph

from dsagent.runtime import RunContext
from dsagent.workflows.quick.nodes import make_nodes
from dsagent.workflows.quick.routing import route_after_code, should_execute_code
from dsagent.workflows.quick.state import QuickState


def build_graph(checkpointer: Any = None, *, ctx: RunContext | None = None) -> Any:
    """The compiled graph; every node reaches ``ctx`` through ``make_nodes(ctx)`` (dsagent.workflows' convention)."""
    if ctx is None:
        raise TypeError("quick needs a RunContext (Session.open_run); a server runs it through doors/langgraph_app.py")
    nodes = make_nodes(ctx)
    graph = StateGraph(QuickState)
    for name, fn in nodes.items():
        graph.add_node(name, fn)
    graph.add_edge(START, "plan")
    graph.add_conditional_edges("plan", should_execute_code, {"code": "code", "explain": "explain"})
    graph.add_conditional_edges(
        "code",
        partial(route_after_code, max_attempts=ctx.settings.max_code_attempts),
        {"evaluate": "evaluate", "explain": "explain", "retry": "code", "error": "error"},
    )
    graph.add_edge("evaluate", "explain")
    graph.add_edge("explain", END)
    graph.add_edge("error", END)
    return graph.compile(checkpointer=checkpointer)
