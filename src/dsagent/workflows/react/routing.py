"""Seed 001's one conditional edge, after ``reason``; the loop limit is a setting (default 5).

``ask`` ends the turn (the question is the answer of this invoke), ``act`` goes to ``code_exec``,
``finalize`` to ``report``; an ``act`` once ``loop_count`` has reached the limit goes to ``report``
too, as ``limit``, so the report can say so and show the intermediate results.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from dsagent.workflows.react.state import ReactState

DEFAULT_MAX_LOOPS = 5


def _get(state: ReactState | Mapping[str, Any], key: str) -> Any:
    return state.get(key) if isinstance(state, Mapping) else getattr(state, key)


def route_after_reason(state: ReactState | Mapping[str, Any], max_loops: int = DEFAULT_MAX_LOOPS) -> Literal["ask", "act", "finalize", "limit"]:
    """Route from reason: its ``next_action``, unless another loop would pass the limit."""
    action = _get(state, "next_action")
    if action == "ask":
        return "ask"
    if action == "finalize":
        return "finalize"
    if _get(state, "loop_count") >= max_loops:
        return "limit"
    return "act"


def limit_reached(state: ReactState, max_loops: int = DEFAULT_MAX_LOOPS) -> bool:
    """Did this request end at the loop limit? (report's view of the ``limit`` route.)"""
    return route_after_reason(state, max_loops) == "limit"
