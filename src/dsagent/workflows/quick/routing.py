"""Seed 000's three routing functions, as written; the attempt limit is a setting (default 3)."""

from __future__ import annotations

from typing import Literal

from dsagent.workflows.quick.state import QuickState

DEFAULT_MAX_ATTEMPTS = 3


def should_execute_code(state: QuickState) -> Literal["code", "explain"]:
    if state["plan"]["needs_code"]:
        return "code"
    return "explain"


def should_retry_code(state: QuickState, max_attempts: int = DEFAULT_MAX_ATTEMPTS) -> Literal["evaluate", "retry", "error"]:
    if state["execution_success"]:
        return "evaluate"
    if state["attempts"] < max_attempts:
        return "retry"
    return "error"


def should_evaluate(state: QuickState) -> Literal["evaluate", "explain"]:
    if state["plan"]["needs_evaluation"]:
        return "evaluate"
    return "explain"


def route_after_code(state: QuickState, max_attempts: int = DEFAULT_MAX_ATTEMPTS) -> Literal["evaluate", "explain", "retry", "error"]:
    """The seed's code → EVAL_CHECK diamond: should_retry_code, then should_evaluate on success."""
    decision = should_retry_code(state, max_attempts)
    return should_evaluate(state) if decision == "evaluate" else decision
