"""Seed 003's graph, wired for each combination of its three flags.

    START → recommend_cleaning_steps → [human_review ⟲ recommend] → create_data_cleaner_code →
    execute_data_cleaner_code → (fix_data_cleaner_code → [human_review] → execute ⟲ ≤ max_retries) →
    [report_agent_outputs] → END

``bypass_recommended_steps`` starts at create_data_cleaner_code (no recommend, no review: the
steps come from the findings and the default policy by code); ``human_in_the_loop`` adds the
review, a real ``interrupt()`` answered with ``Command(resume=...)``; ``bypass_explain_code`` ends
after execution. With a review, code the fix node rewrote goes back to human_review before it runs.

``build_graph()`` without a context compiles the graph for a LangGraph server (issue 38, finding 3):
its input is :class:`CleanInput` (files and instructions), and each thread's context (model,
sandbox, run log, datasets, workspace) comes from the operator's settings (:mod:`.served`): paths
held to ``allowed_roots``, the workspace under ``workspace_root``, never a folder the state names.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph

from dsagent.workflows.clean.routing import after_execute, after_fix, after_recommend, entry_node
from dsagent.workflows.clean.state import CleanInput, CleanState

NODE_NAMES = ("recommend_cleaning_steps", "human_review", "create_data_cleaner_code", "execute_data_cleaner_code",
              "fix_data_cleaner_code", "report_agent_outputs")


def build_graph(checkpointer: Any = None, *, ctx: Any = None, human_in_the_loop: bool = True, bypass_recommended_steps: bool = False,
                bypass_explain_code: bool = False) -> Any:
    """The compiled graph (dsagent.workflows' convention). ``ctx``: the
    :class:`~dsagent.runtime.RunContext` of a caller that is the user (the CLI, the Python API),
    handed to every node through ``make_nodes(ctx)``; None: served to clients, each thread's context
    from the operator's settings (:class:`.served.ServedContexts`)."""
    from dsagent.workflows.clean.nodes import make_nodes
    from dsagent.workflows.clean.served import ServedContexts

    reviewed = human_in_the_loop and not bypass_recommended_steps
    nodes: dict[str, Any] = {}
    served = ServedContexts(lambda context: make_nodes(context, reviewed)) if ctx is None else None

    def node(name: str) -> Any:
        def run(state: CleanState, config: RunnableConfig) -> Any:
            if served is not None:  # never the state's workspace: the door's own, per thread
                return served.nodes(dict(state), config)[name](state)
            if not nodes:
                nodes.update(make_nodes(ctx, reviewed))
            return nodes[name](state)

        run.__name__ = name
        return run

    graph = StateGraph(CleanState, input_schema=CleanInput) if served is not None else StateGraph(CleanState)
    wanted = ["create_data_cleaner_code", "execute_data_cleaner_code", "fix_data_cleaner_code"]
    if not bypass_recommended_steps:
        wanted.insert(0, "recommend_cleaning_steps")
        if human_in_the_loop:
            wanted.insert(1, "human_review")
    if not bypass_explain_code:
        wanted.append("report_agent_outputs")
    for name in wanted:
        if name == "human_review":
            graph.add_node(name, node(name), destinations=("recommend_cleaning_steps", "create_data_cleaner_code", "execute_data_cleaner_code"))
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
    if reviewed:  # rewritten code is approved before it runs and is saved
        graph.add_conditional_edges("fix_data_cleaner_code", partial(after_fix, reviewed=True),
                                    {"human_review": "human_review", "execute_data_cleaner_code": "execute_data_cleaner_code"})
    else:
        graph.add_edge("fix_data_cleaner_code", "execute_data_cleaner_code")
    return graph.compile(checkpointer=checkpointer)
