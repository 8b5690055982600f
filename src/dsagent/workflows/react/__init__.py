"""Seed 001: reason ⇄ code_exec (≤5 loops), ask the user when unsure, structured report."""

from dsagent.workflows.react.graph import build_graph
from dsagent.workflows.react.state import initial_state

__all__ = ["build_graph", "initial_state"]
