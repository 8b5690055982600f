"""Seed 002's graph: question understanding, requirements, profiling and alignment, then code with
a retry loop, evaluation and remediation loops back to code, requirements or data."""

from __future__ import annotations

from functools import partial
from typing import Any

from langgraph.graph import END, START, StateGraph

from dsagent.runtime import RunContext
from dsagent.workflows.robust.nodes import make_nodes
from dsagent.workflows.robust.routing import (
    route_from_node_0,
    route_from_node_3,
    route_from_node_4,
    route_from_node_5,
    route_from_node_5a,
)
from dsagent.workflows.robust.state import RobustState


def _to(*names: str) -> dict[str, str]:
    return {name: name for name in names}


def build_graph(checkpointer: Any = None, *, ctx: RunContext | None = None) -> Any:
    """The compiled graph; every node reaches ``ctx`` through ``make_nodes(ctx)`` (dsagent.workflows' convention)."""
    if ctx is None:
        raise TypeError("robust needs a RunContext (Session.open_run); a server runs it through doors/langgraph_app.py")
    settings = ctx.settings
    graph = StateGraph(RobustState)
    for name, fn in make_nodes(ctx).items():
        graph.add_node(name, fn)
    graph.add_edge(START, "node_0_understand")
    graph.add_conditional_edges("node_0_understand", route_from_node_0, _to("node_1a_explain", "node_1b_requirements"))
    graph.add_edge("node_1a_explain", END)
    graph.add_edge("node_1b_requirements", "node_2_data")
    graph.add_edge("node_2_data", "node_3_alignment")
    graph.add_conditional_edges(
        "node_3_alignment",
        partial(route_from_node_3, max_iterations=settings.robust_max_alignment_iterations),
        # The seed's router names the limitation branch; one node explains concepts and limitations.
        {**_to("node_4_code", "node_1b_requirements", "node_2_data"), "node_1a_explain_limitation": "node_1a_explain"},
    )
    graph.add_conditional_edges(
        "node_4_code",
        partial(route_from_node_4, max_attempts=settings.robust_max_code_attempts),
        _to("node_5_evaluate", "node_4_code"),
    )
    graph.add_conditional_edges("node_5_evaluate", route_from_node_5, _to("node_6_explain", "node_5a_remediation"))
    graph.add_conditional_edges(
        "node_5a_remediation",
        partial(route_from_node_5a, max_remediations=settings.robust_max_remediations),
        _to("node_6_explain", "node_4_code", "node_1b_requirements", "node_2_data"),
    )
    graph.add_edge("node_6_explain", END)
    return graph.compile(checkpointer=checkpointer)
