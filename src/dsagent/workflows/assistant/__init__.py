"""Seed 004: a tool-calling agent over the four-stage pipeline, and the one front door to every workflow.

``build_graph(checkpointer=None)`` compiles agent_node ⇄ tools; :func:`run_turn` runs one user
message on a thread (the CLI's ``dsagent assistant``, the web app's assistant mode, the benchmark).
"""

from dsagent.workflows.assistant.api import TurnResult, run_turn
from dsagent.workflows.assistant.configuration import Configuration
from dsagent.workflows.assistant.graph import build_graph
from dsagent.workflows.assistant.state import AssistantState

__all__ = ["AssistantState", "Configuration", "TurnResult", "build_graph", "run_turn"]
