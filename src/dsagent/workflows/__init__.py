"""The registry of the five workflows: every door looks a graph up here, by name.

Each workflow is a package ``dsagent.workflows.<name>`` whose ``graph.py`` has
``build_graph(checkpointer=None, *, ctx=None, **options)``: ``ctx`` is the
:class:`~dsagent.runtime.RunContext` every node is handed (through ``make_nodes(ctx)``); None
means a graph served to clients (LangGraph server), whose context is made per thread from the
operator's settings. The workflows ``ask`` offers (quick, robust, react) also have
``initial_state(question, datasets, data_summary, messages)`` and are run by
:meth:`dsagent.session.Session.ask`; clean and the assistant have APIs of their own
(``clean.api``, ``assistant.api``).

The registry holds module paths, not modules: nothing of a workflow (or of LangGraph) is imported
until a graph is asked for, and the session, below the workflows, looks them up here without
importing one. ``langgraph.json`` serves the same five (a test checks that it agrees).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import Any


@dataclass(frozen=True)
class Workflow:
    name: str
    description: str
    module: str
    """The package; its graph is ``<module>.graph:build_graph``."""
    asked: bool
    """Offered by ``ask`` (CLI ``--workflow``, the web app's modes, MCP's ``ask``, Session.ask)."""


REGISTRY: dict[str, Workflow] = {w.name: w for w in (
    Workflow("quick", "Seed 000: plan → code (≤3 attempts) → evaluate? → explain.", "dsagent.workflows.quick", True),
    Workflow("robust", "Seed 002: requirements, profiling, alignment and remediation loops.", "dsagent.workflows.robust", True),
    Workflow("react", "Seed 001: reason ⇄ code_exec (≤5 loops), ask the user when unsure, structured report.", "dsagent.workflows.react", True),
    Workflow("clean", "Seed 003: recommend cleaning steps → review → data_cleaner code → run ⟲ fix → report.", "dsagent.workflows.clean", False),
    Workflow("assistant", "Seed 004: one agent over your files — summaries, tasks, planned analyses, questions, cleaning.",
             "dsagent.workflows.assistant", False),
)}

WORKFLOWS: dict[str, str] = {w.name: w.description for w in REGISTRY.values() if w.asked}
"""The workflows ``ask`` offers, by name, with their descriptions (the first is the default a door shows)."""


def workflow(name: str) -> Workflow:
    """The registry's entry for ``name``, or a UserError listing the five."""
    if name not in REGISTRY:
        from dsagent.errors import UserError

        raise UserError(f"unknown workflow {name!r}; available: {', '.join(REGISTRY)}")
    return REGISTRY[name]


def load_workflow(name: str) -> ModuleType:
    """The package of a workflow ``ask`` offers (imported lazily: graphs pull in LangGraph)."""
    if name not in WORKFLOWS:
        from dsagent.errors import UserError

        other = f" ({name} has its own command: dsagent {name})" if name in REGISTRY else ""
        raise UserError(f"unknown workflow {name!r}{other}; available: {', '.join(WORKFLOWS)}")
    return importlib.import_module(REGISTRY[name].module)


def build_graph(name: str, checkpointer: Any = None, *, ctx: Any = None, **options: Any) -> Any:
    """The compiled graph of any of the five, built by its package's ``graph.build_graph``."""
    return importlib.import_module(f"{workflow(name).module}.graph").build_graph(checkpointer, ctx=ctx, **options)
