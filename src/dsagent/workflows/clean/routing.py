"""Seed 003's edges as routing functions; the flags pick which are wired (see graph.py).

- entry: ``recommend_cleaning_steps``, or ``create_data_cleaner_code`` with bypass_recommended_steps
- after recommending: ``human_review`` when human_in_the_loop, else ``create_data_cleaner_code``
- human review: "yes" → ``create_data_cleaner_code`` (or, reviewing code the fix node rewrote,
  ``execute_data_cleaner_code``), anything else → ``recommend_cleaning_steps``
- after fixing: ``human_review`` when the code changed and a person reviews (the rewritten code is
  approved before it runs and is saved), else ``execute_data_cleaner_code``
- after executing: ``fix_data_cleaner_code`` while there is an error and retries are left, else
  ``report_agent_outputs`` (or END with bypass_explain_code)
"""

from __future__ import annotations

from typing import Literal

from dsagent.workflows.clean.state import CleanState


def error_and_can_retry(state: CleanState) -> bool:
    return state.get("data_cleaner_error") is not None and state.get("retry_count", 0) < state.get("max_retries", 0)


def entry_node(bypass_recommended_steps: bool) -> Literal["recommend_cleaning_steps", "create_data_cleaner_code"]:
    return "create_data_cleaner_code" if bypass_recommended_steps else "recommend_cleaning_steps"


def after_recommend(human_in_the_loop: bool) -> Literal["human_review", "create_data_cleaner_code"]:
    return "human_review" if human_in_the_loop else "create_data_cleaner_code"


def after_execute(state: CleanState, bypass_explain_code: bool = False) -> Literal["fix_data_cleaner_code", "report_agent_outputs", "__end__"]:
    if error_and_can_retry(state):
        return "fix_data_cleaner_code"
    return "__end__" if bypass_explain_code else "report_agent_outputs"


def is_yes(answer: str) -> bool:
    """The reviewer approves with "yes" (or y / ok / approve / accept), in any case, with punctuation."""
    return answer.strip().strip(".!").strip().lower() in {"yes", "y", "ok", "okay", "approve", "approved", "accept", "go", "lgtm"}


def after_review(answer: str, fixing: bool = False) -> Literal["create_data_cleaner_code", "execute_data_cleaner_code", "recommend_cleaning_steps"]:
    if not is_yes(answer):
        return "recommend_cleaning_steps"
    return "execute_data_cleaner_code" if fixing else "create_data_cleaner_code"


def after_fix(state: CleanState, reviewed: bool = False) -> Literal["human_review", "execute_data_cleaner_code"]:
    """Code the fix node rewrote goes back to the reviewer when there is one (issue 38, finding 7)."""
    if reviewed and (state.get("functions") or {}) != (state.get("approved_functions") or {}):
        return "human_review"
    return "execute_data_cleaner_code"
