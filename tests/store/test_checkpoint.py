"""The SQLite checkpointer keeps a thread's state across separate opens (as across processes)."""

from __future__ import annotations

from typing import TypedDict

from langgraph.graph import END, START, StateGraph

from dsagent.store.checkpoint import checkpoint_path, sqlite_checkpointer


class _State(TypedDict):
    count: int


def _graph(saver):  # type: ignore[no-untyped-def]
    g = StateGraph(_State)
    g.add_node("inc", lambda s: {"count": s["count"] + 1})
    g.add_edge(START, "inc")
    g.add_edge("inc", END)
    return g.compile(checkpointer=saver)


def test_thread_survives_a_reopen(tmp_path):
    config = {"configurable": {"thread_id": "t1"}}
    with sqlite_checkpointer(tmp_path) as saver:
        assert _graph(saver).invoke({"count": 1}, config)["count"] == 2
    assert checkpoint_path(tmp_path).is_file()
    with sqlite_checkpointer(tmp_path) as saver:
        assert _graph(saver).get_state(config).values == {"count": 2}
        assert _graph(saver).get_state({"configurable": {"thread_id": "other"}}).values == {}
