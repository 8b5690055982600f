"""Seed 000's ``AgentState``, field for field (named ``QuickState`` here: each workflow's state has its own name)."""

from __future__ import annotations

from typing import Any, Optional, TypedDict


class QuickState(TypedDict, total=False):
    # Input
    question: str
    """The user's question."""
    datasets: dict[str, dict[str, Any]]
    """{dataset_id: {name, rows, columns}}; the frames themselves live in the sandbox."""
    data_summary: str
    """Combined profile of all datasets (Summary B, or A+B for wide tables)."""
    messages: list
    """Chat history (earlier turns), oldest first."""

    # Workflow state
    plan: Optional[dict]
    """From plan_node: needs_code, needs_evaluation, needs_explanation, reasoning."""
    code: Optional[str]
    """The latest generated or fixed code."""
    execution_result: Optional[dict]
    """{type, figures, result_str, stdout, tables} of the latest successful run."""
    execution_success: bool
    """Did the latest code run succeed?"""
    error: Optional[str]
    """Error of the latest failed run."""
    attempts: int
    """Code attempts so far (0..max_code_attempts)."""
    failed_attempts: list
    """[{attempt, code, error}, ...] — every failed attempt is kept."""
    rescued: Optional[dict]
    """Extra: the independent computation ({code, result_str}) that answers when every attempt failed (common.verify.rescue)."""

    # Output
    evaluation: Optional[str]
    """Critical evaluation of the result (evaluate_node)."""
    explanation: Optional[str]
    """Final user-facing explanation (explain_node or error_node)."""
    final_output: Optional[dict]
    """The complete output package (see explain_node / error_node)."""


def initial_state(question: str, datasets: dict[str, dict[str, Any]], data_summary: str, messages: list | None = None) -> QuickState:
    return QuickState(
        question=question, datasets=datasets, data_summary=data_summary, messages=list(messages or []),
        plan=None, code=None, execution_result=None, execution_success=False, error=None,
        attempts=0, failed_attempts=[], evaluation=None, explanation=None, final_output=None,
    )
