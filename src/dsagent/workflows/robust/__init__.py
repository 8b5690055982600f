"""Seed 002: understand → requirements → profile → align (⟲ ≤2) → code (⟲ ≤2) → evaluate →
explain, with remediation loops back to code, requirements or data (≤3 in all)."""

from dsagent.workflows.robust.graph import build_graph
from dsagent.workflows.robust.state import initial_state

__all__ = ["build_graph", "initial_state"]
