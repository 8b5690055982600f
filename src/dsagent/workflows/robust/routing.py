"""Seed 002's five routing functions, as written; the three loop limits are settings.

``route_from_node_3`` keeps the seed's return value ``"node_1a_explain_limitation"``: the graph maps
it onto the node ``node_1a_explain`` (the same node explains concepts and limitations).
"""

from __future__ import annotations

from typing import Literal

from dsagent.workflows.robust.state import RobustState

DEFAULT_MAX_ALIGNMENT_ITERATIONS = 2
DEFAULT_MAX_CODE_ATTEMPTS = 2
DEFAULT_MAX_REMEDIATIONS = 3


def route_from_node_0(state: RobustState) -> Literal["node_1a_explain", "node_1b_requirements"]:
    """Route from question understanding."""
    if not state["needs_data_work"]:
        return "node_1a_explain"
    else:
        return "node_1b_requirements"


def route_from_node_3(
    state: RobustState, max_iterations: int = DEFAULT_MAX_ALIGNMENT_ITERATIONS
) -> Literal["node_4_code", "node_1a_explain_limitation", "node_1b_requirements", "node_2_data"]:
    """Route from alignment check."""
    alignment = state["alignment_check"]
    recommendation = alignment.get("recommendation", "")

    # Proceed if aligned OR if we can proceed with caveats
    if alignment["aligned"] or recommendation == "proceed_with_caveats":
        return "node_4_code"
    elif state["alignment_iterations"] >= max_iterations or recommendation == "cannot_proceed":
        return "node_1a_explain_limitation"
    elif recommendation == "revise_requirements":
        return "node_1b_requirements"
    else:  # revise_data_understanding
        return "node_2_data"


def route_from_node_4(
    state: RobustState, max_attempts: int = DEFAULT_MAX_CODE_ATTEMPTS
) -> Literal["node_5_evaluate", "node_4_code"]:
    """Route from code execution."""
    if state["execution_success"] or state["code_attempts"] >= max_attempts:
        return "node_5_evaluate"
    else:
        return "node_4_code"  # Retry


def route_from_node_5(state: RobustState) -> Literal["node_6_explain", "node_5a_remediation"]:
    """Route from evaluation."""
    if state["evaluation"]["is_valid"]:
        return "node_6_explain"
    else:
        return "node_5a_remediation"


def route_from_node_5a(
    state: RobustState, max_remediations: int = DEFAULT_MAX_REMEDIATIONS
) -> Literal["node_6_explain", "node_4_code", "node_1b_requirements", "node_2_data"]:
    """Route from remediation planning."""
    if state["total_remediations"] >= max_remediations:
        return "node_6_explain"  # Give up gracefully

    action = state["remediation_plan"]["action"]
    if action == "rewrite_code":
        return "node_4_code"
    elif action == "revise_requirements":
        return "node_1b_requirements"
    else:  # reexamine_data
        return "node_2_data"
