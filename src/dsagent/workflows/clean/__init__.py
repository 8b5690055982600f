"""Seed 003: the data-cleaning agent with human review (``dsagent clean``, ``dsagent.clean``).

recommend_cleaning_steps → human_review (an interrupt, checkpointed in SQLite) →
create_data_cleaner_code → execute_data_cleaner_code ⟲ fix_data_cleaner_code → report_agent_outputs.
Problems are found by code (detect.py), the model decides which default steps the user's
instructions change, and ``data_cleaner(data_raw)`` is assembled from vetted snippets (snippets.py).
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:  # LangGraph is imported only when the graph is wanted
    if name == "build_graph":
        from dsagent.workflows.clean.graph import build_graph

        return build_graph
    if name in {"clean", "resume", "CleanOutcome"}:
        from dsagent.workflows.clean import api

        return getattr(api, name)
    raise AttributeError(name)
