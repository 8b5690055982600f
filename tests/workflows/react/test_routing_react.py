"""Seed 001's route after ``reason``, at its limit, and the graph's edges as the seed's table."""

from dsagent.config import Settings
from dsagent.workflows.react.routing import DEFAULT_MAX_LOOPS, limit_reached, route_after_reason
from dsagent.workflows.react.state import ReactState


def state(action, loops=0) -> ReactState:
    return ReactState(messages=[], next_action=action, loop_count=loops)


def test_each_action_routes_to_its_branch_below_the_limit():
    assert route_after_reason(state("ask")) == "ask"
    assert route_after_reason(state("act")) == "act"
    assert route_after_reason(state("finalize")) == "finalize"
    assert route_after_reason(state("act", loops=4)) == "act"


def test_an_act_at_the_limit_goes_to_the_report():
    assert route_after_reason(state("act", loops=5)) == "limit"
    assert route_after_reason(state("act", loops=7)) == "limit"
    assert limit_reached(state("act", loops=5)) and not limit_reached(state("act", loops=4))


def test_ask_and_finalize_are_honoured_at_the_limit():
    assert route_after_reason(state("ask", loops=5)) == "ask"
    assert route_after_reason(state("finalize", loops=5)) == "finalize"
    assert not limit_reached(state("finalize", loops=5))


def test_the_limit_is_a_parameter_and_a_setting():
    assert route_after_reason(state("act", loops=5), max_loops=6) == "act"
    assert route_after_reason(state("act", loops=1), max_loops=1) == "limit"
    assert Settings().react_max_loops == DEFAULT_MAX_LOOPS == 5
    # a plain mapping routes the same (LangGraph may hand either)
    assert route_after_reason({"next_action": "act", "loop_count": 5}) == "limit"


def test_the_graph_has_the_seeds_nodes_and_edges():
    from unittest.mock import MagicMock

    from dsagent.workflows.react import build_graph

    ctx = MagicMock()
    ctx.settings = Settings()
    graph = build_graph(ctx=ctx).get_graph()
    edges = {(e.source, e.target, e.conditional) for e in graph.edges}
    assert set(graph.nodes) == {"__start__", "reason", "code_exec", "report", "__end__"}
    assert edges == {
        ("__start__", "reason", False),
        ("reason", "__end__", True),        # ask
        ("reason", "code_exec", True),      # act
        ("reason", "report", True),         # finalize, or the loop limit
        ("code_exec", "reason", False),
        ("report", "__end__", False),
    }
