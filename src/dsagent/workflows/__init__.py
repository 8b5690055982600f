"""The workflows, one package each, built from the seeds in the design documents.

Each package exposes ``build_graph(ctx)`` and ``initial_state(question, datasets, data_summary,
messages)``; :class:`dsagent.session.Session` runs whichever the settings or the caller name.
"""

from __future__ import annotations

import importlib
from types import ModuleType

WORKFLOWS: dict[str, str] = {
    "quick": "Seed 000: plan → code (≤3 attempts) → evaluate? → explain.",
    "robust": "Seed 002: requirements, profiling, alignment and remediation loops.",
    "react": "Seed 001: reason ⇄ code_exec (≤5 loops), ask the user when unsure, structured report.",
}


def load_workflow(name: str) -> ModuleType:
    """The workflow's package (imported lazily: graphs pull in LangGraph)."""
    if name not in WORKFLOWS:
        from dsagent.errors import UserError

        raise UserError(f"unknown workflow {name!r}; available: {', '.join(WORKFLOWS)}")
    return importlib.import_module(f"dsagent.workflows.{name}")
