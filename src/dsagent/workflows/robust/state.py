"""Seed 002's ``MVPAgentState``, field for field, plus four extras marked as such."""

from __future__ import annotations

from typing import Any, Optional, TypedDict


class RobustState(TypedDict, total=False):
    # Input
    question: str
    """The user's question."""
    datasets: dict[str, dict[str, Any]]
    """{dataset_id: {name, rows, columns}}; the frames live in the sandbox and in ``ctx.datasets``."""
    data_summary: str
    """Combined profile of all datasets (Summary B, or A+B for wide tables): the stable prompt prefix."""
    messages: list
    """Chat history (earlier turns), oldest first."""

    # Node 0
    needs_data_work: bool
    """Does the question need data analysis (else node 1A explains a concept)?"""

    # Node 1B
    requirements: Optional[dict]
    """{reasoning, variables_needed, constraints, analysis_type, success_criteria}."""

    # Node 2
    data_profile: Optional[dict]
    """{reasoning, available_columns, missing_columns, data_quality, limitations, is_suitable}."""

    # Node 3
    alignment_check: Optional[dict]
    """{reasoning, aligned, gaps, caveats, recommendation} of the latest check."""
    alignment_iterations: int
    """Alignment checks in the current round (max ``robust_max_alignment_iterations``)."""

    # Node 4
    code: Optional[str]
    """The latest generated or fixed code."""
    execution_result: Optional[dict]
    """{type, figures, tables, result_str, stdout, duration_s} of the latest run; None if it failed."""
    execution_success: bool
    """Did the latest code run succeed?"""
    error: Optional[str]
    """Error of the latest failed run."""
    code_attempts: int
    """Code attempts in the current round (max ``robust_max_code_attempts``)."""

    # Node 5
    evaluation: Optional[dict]
    """{reasoning, is_valid, issues_found, confidence, recommendation}."""

    # Node 5a
    remediation_plan: Optional[dict]
    """{reasoning, root_cause, action, guidance} of the latest plan."""
    total_remediations: int
    """Remediation plans so far: the one global counter (max ``robust_max_remediations``)."""

    # Node 6
    explanation: str
    """Final user-facing explanation (node 6, or node 1A)."""
    final_output: dict
    """The complete output package (see node 6 / node 1A)."""

    # Extras, not in the seed's schema
    alignment_caveats: list
    """Extra: the caveats of the latest alignment check, kept apart so node 6 and the report show them."""
    failed_attempts: list
    """Extra: [{attempt, code, error}, ...] — every failed execution is kept, as in quick."""
    remediation_history: list
    """Extra: [{action, root_cause}, ...] of every plan, so node 6 can say what was tried."""
    cross_check: Optional[dict]
    """Extra: node 5's independent computations of the question, made once per run (see cross_check.py):
    {code, result_str, error, second: the tie-break {code, result_str, error} or None, third: the
    second tie-break (when no two of three agreed) or None, reference: the result two computations
    backed, or None}."""


def initial_state(question: str, datasets: dict[str, dict[str, Any]], data_summary: str, messages: list | None = None) -> RobustState:
    return RobustState(
        question=question, datasets=datasets, data_summary=data_summary, messages=list(messages or []),
        needs_data_work=False, requirements=None, data_profile=None, alignment_check=None, alignment_iterations=0,
        code=None, execution_result=None, execution_success=False, error=None, code_attempts=0,
        evaluation=None, remediation_plan=None, total_remediations=0, explanation="", final_output={},
        alignment_caveats=[], failed_attempts=[], remediation_history=[], cross_check=None,
    )
