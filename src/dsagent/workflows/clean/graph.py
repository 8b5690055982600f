"""Seed 003's graph, wired for each combination of its three flags.

    START → recommend_cleaning_steps → [human_review ⟲ recommend] → create_data_cleaner_code →
    execute_data_cleaner_code → (fix_data_cleaner_code → execute ⟲ ≤ max_retries) →
    [report_agent_outputs] → END

``bypass_recommended_steps`` starts at create_data_cleaner_code (no recommend, no review: the
steps come from the findings and the default policy by code); ``human_in_the_loop`` adds the
review, a real ``interrupt()`` answered with ``Command(resume=...)``; ``bypass_explain_code`` ends
after execution. ``build_graph()`` without a context compiles the graph for a LangGraph server: the
context (model, sandbox, run log, datasets) is then built from the state on first use.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from langgraph.graph import END, START, StateGraph

from dsagent.workflows.clean.routing import after_execute, after_recommend, entry_node
from dsagent.workflows.clean.state import CleanState

NODE_NAMES = ("recommend_cleaning_steps", "human_review", "create_data_cleaner_code", "execute_data_cleaner_code",
              "fix_data_cleaner_code", "report_agent_outputs")


def build_graph(checkpointer: Any = None, *, ctx: Any = None, human_in_the_loop: bool = True, bypass_recommended_steps: bool = False,
                bypass_explain_code: bool = False) -> Any:
    """The compiled graph. ``ctx``: a :class:`~dsagent.runtime.RunContext` (or a callable returning
    one, called on first use); None builds one from the state's ``data_raw`` paths (server use)."""
    from dsagent.workflows.clean.nodes import make_nodes

    nodes: dict[str, Any] = {}

    def node(name: str) -> Any:
        def run(state: CleanState) -> Any:
            if not nodes:
                context = ctx() if callable(ctx) and not hasattr(ctx, "settings") else ctx
                if context is None:
                    from dsagent.workflows.clean.api import server_context

                    context = server_context(state)
                nodes.update(make_nodes(context))
            return nodes[name](state)

        run.__name__ = name
        return run

    graph = StateGraph(CleanState)
    wanted = ["create_data_cleaner_code", "execute_data_cleaner_code", "fix_data_cleaner_code"]
    if not bypass_recommended_steps:
        wanted.insert(0, "recommend_cleaning_steps")
        if human_in_the_loop:
            wanted.insert(1, "human_review")
    if not bypass_explain_code:
        wanted.append("report_agent_outputs")
    for name in wanted:
        if name == "human_review":
            graph.add_node(name, node(name), destinations=("recommend_cleaning_steps", "create_data_cleaner_code"))
        else:
            graph.add_node(name, node(name))
    graph.add_edge(START, entry_node(bypass_recommended_steps))
    if not bypass_recommended_steps:
        nxt = after_recommend(human_in_the_loop)
        graph.add_edge("recommend_cleaning_steps", nxt)  # human_review routes itself with Command(goto=...)
    graph.add_edge("create_data_cleaner_code", "execute_data_cleaner_code")
    targets = {"fix_data_cleaner_code": "fix_data_cleaner_code", "__end__": END}
    if not bypass_explain_code:
        targets["report_agent_outputs"] = "report_agent_outputs"
        graph.add_edge("report_agent_outputs", END)
    graph.add_conditional_edges("execute_data_cleaner_code", partial(after_execute, bypass_explain_code=bypass_explain_code), targets)
    graph.add_edge("fix_data_cleaner_code", "execute_data_cleaner_code")
    return graph.compile(checkpointer=checkpointer)
