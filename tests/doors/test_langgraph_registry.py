"""One registry of the five graphs: langgraph.json, the doors and Session.ask agree with it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_langgraph_json_serves_exactly_the_registrys_five_from_the_door():
    from dsagent.doors import langgraph_app
    from dsagent.workflows import REGISTRY

    graphs = json.loads((ROOT / "langgraph.json").read_text())["graphs"]
    assert list(graphs) == list(REGISTRY) and len(REGISTRY) == 5
    for name, target in graphs.items():
        module, _, attr = target.partition(":")
        assert (module, attr) == ("dsagent.doors.langgraph_app", name)
        assert hasattr(langgraph_app, name)


def test_ask_offers_quick_robust_react_and_sends_clean_and_assistant_to_their_commands():
    from dsagent.errors import UserError
    from dsagent.workflows import REGISTRY, WORKFLOWS, load_workflow

    assert list(WORKFLOWS) == ["quick", "robust", "react"]
    assert all(REGISTRY[name].description == text for name, text in WORKFLOWS.items())
    for name in WORKFLOWS:
        assert callable(load_workflow(name).initial_state)
    with pytest.raises(UserError, match="own command: dsagent clean"):
        load_workflow("clean")
    with pytest.raises(UserError, match="available: quick, robust, react"):
        load_workflow("nope")


def test_every_graph_is_built_one_way_with_a_context_through_make_nodes():
    """build_graph(checkpointer=None, *, ctx=None, ...) for all five: the served ones build without a context,
    the ask ones refuse to build without one, the assistant refuses one (each task opens its own run)."""
    import inspect

    from langgraph.checkpoint.memory import InMemorySaver

    from dsagent.workflows import REGISTRY, WORKFLOWS, build_graph

    for name, entry in REGISTRY.items():
        module = __import__(f"{entry.module}.graph", fromlist=["build_graph"])
        params = inspect.signature(module.build_graph).parameters
        assert list(params)[0] == "checkpointer" and params["ctx"].kind is inspect.Parameter.KEYWORD_ONLY, name
    for name in WORKFLOWS:
        with pytest.raises(TypeError, match="RunContext"):
            build_graph(name)
    saver = InMemorySaver()
    assert build_graph("clean", saver).checkpointer is saver
    assert build_graph("assistant", saver).checkpointer is saver
    with pytest.raises(TypeError, match="takes no RunContext"):
        build_graph("assistant", ctx=object())
