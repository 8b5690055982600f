"""Seed 000: plan → code (≤3 attempts) → evaluate? → explain, or → error."""

from dsagent.workflows.quick.graph import build_graph
from dsagent.workflows.quick.state import initial_state

__all__ = ["build_graph", "initial_state"]
