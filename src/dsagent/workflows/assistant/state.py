"""Seed 004's ``AgentState`` (named ``AssistantState`` here): the conversation plus the pipeline's progress, read from the project.

The pipeline fields are a view of the project's ``data/`` folder, refreshed by ``agent_node``
before every decision (the files are the truth: a resumed thread or a second process sees the
same progress). Lists and dicts use :func:`override_reducer`: a new value replaces the old one.
"""

from __future__ import annotations

from typing import Annotated, Any, Optional

from langgraph.graph import MessagesState


def override_reducer(current: Any, new: Any) -> Any:
    """Replace the value instead of appending to it (seed 004's ``override_reducer``)."""
    return new


class AssistantState(MessagesState, total=False):
    # Input (plain JSON: a LangGraph server sends {"messages": [...], "project_dir": "..."})
    project_dir: str
    """The project folder; its ``data/raw/`` holds the user's files (default: the current folder)."""

    # Pipeline execution tracking (seed 004)
    summaries_generated: bool
    """Stage 1 done: every raw file has an up-to-date summary in ``data/summaries/``."""
    tasks_suggested: bool
    """Stage 2 done: ``data/tasks.json`` is up to date with the raw files."""
    current_task_id: Optional[str]
    """The task the conversation is about (the latest one planned or executed)."""
    plan_created: bool
    """Stage 3 done for ``current_task_id``: its plan is in ``data/intermediate/``."""
    analysis_executed: bool
    """Stage 4 done for ``current_task_id``: its report is in ``data/outputs/``."""

    # Data tracking (seed 004)
    available_files: Annotated[list[str], override_reducer]
    """Names of the data files in ``data/raw/``."""
    summary_files: Annotated[list[str], override_reducer]
    """Up-to-date summary files (paths relative to the project)."""
    suggested_tasks: Annotated[list[dict[str, Any]], override_reducer]
    """The tasks of ``data/tasks.json``: {id, title, file, kind, target, features, question}."""
    analysis_results: Annotated[dict[str, Any], override_reducer]
    """{task_id: path of its report} for every executed task."""

    # Error handling (seed 004)
    last_error: Optional[str]
    """The latest tool result that was an error (cleared by a success)."""

    # Ours: routing memory within one user message
    pending_tools: Annotated[list[str], override_reducer]
    """Tools queued by code after the one being run (pipeline prerequisites put the asked tool here)."""
