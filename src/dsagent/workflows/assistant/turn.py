"""One run in the run log per assistant turn: every model call of the turn is recorded in it.

A turn is one user message and what runs for it: the agent node's choices and answer, and the
stages the tools run (stage 3's plan, stage 4's code and explanation). The agent node runs once per
tool call of the turn, and the tools run between its calls, so the turn's :class:`RunContext` is
kept here, by the project and the user message's id, from the first call of the turn to its answer
(:func:`finish`). ``dsagent runs show RUN --prompts`` then shows the turn as one run of workflow
``assistant``.

A call that needs the model's whole reply (native tool calling) goes through :func:`invoke`, which
records it like :meth:`RunContext.llm` does.
"""

from __future__ import annotations

import threading
import time
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING, Any, Iterator

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage

if TYPE_CHECKING:
    from dsagent.runtime import RunContext

_OPEN: dict[tuple[str, str], tuple[ExitStack, "RunContext"]] = {}
_LOCK = threading.Lock()


def turn_key(state: dict[str, Any]) -> tuple[str, str] | None:
    """(project folder, id of the turn's user message), or None without a user message."""
    from dsagent.workflows.assistant.project import Project

    messages = state.get("messages") or []
    human = next((m for m in reversed(messages) if isinstance(m, HumanMessage)), None)
    if human is None:
        return None
    ident = human.id or f"{sum(isinstance(m, HumanMessage) for m in messages)}:{hash(str(human.content))}"
    return str(Project.at(state.get("project_dir")).root), ident


def context(state: dict[str, Any], runtime: Any) -> "RunContext":
    """The turn's run context, opened (a run row of workflow ``assistant``) at its first call."""
    key = turn_key(state)
    with _LOCK:
        if key is not None and key in _OPEN:
            return _OPEN[key][1]
    request = next((str(m.content) for m in reversed(state.get("messages") or []) if isinstance(m, HumanMessage)), "")
    stack = ExitStack()
    ctx = stack.enter_context(runtime.run_context(request))
    if key is not None:
        with _LOCK:
            _OPEN[key] = (stack, ctx)
    return ctx


def current(state: dict[str, Any]) -> "RunContext | None":
    """The turn's run context when one is open (a tool run inside a turn), else None."""
    key = turn_key(state)
    with _LOCK:
        return _OPEN[key][1] if key in _OPEN else None


@contextmanager
def stage_context(state: dict[str, Any], runtime: Any, question: str) -> Iterator["RunContext"]:
    """The run context a stage's model calls go through: the turn's when the tool runs in a turn,
    else a run of its own (a tool called by itself), finished when the stage ends."""
    ctx = current(state)
    if ctx is not None:
        yield ctx
        return
    with runtime.run_context(question) as ctx:
        yield ctx


def finish(state: dict[str, Any], final_output: dict[str, Any] | None = None, error: BaseException | None = None) -> None:
    """End the turn's run: ok with ``final_output`` (the answer and its grounding record), or failed."""
    key = turn_key(state)
    with _LOCK:
        stack, ctx = _OPEN.pop(key, (None, None)) if key is not None else (None, None)
    if stack is None:
        return
    if error is None:
        ctx.finish("ok", final_output=final_output)
        stack.close()
    else:
        stack.__exit__(type(error), error, error.__traceback__)


def invoke(ctx: "RunContext", model: Any, messages: list[BaseMessage], **kwargs: Any) -> AIMessage:
    """``model.invoke(messages)`` with the reply kept whole (its tool calls), recorded in the run
    log with its prompt and reply and its remote retries logged, as :meth:`RunContext.llm` records."""
    started = time.perf_counter()
    try:
        with ctx.retries_logged():
            reply = model.invoke(messages, **kwargs)
    except Exception as exc:
        ctx._record([], started, str(exc), [messages])
        raise
    shown = reply if not getattr(reply, "tool_calls", None) else AIMessage(
        content=f"{reply.content}\n[tool calls] " + "; ".join(f"{c['name']} {c.get('args') or {}}" for c in reply.tool_calls),
        usage_metadata=reply.usage_metadata, response_metadata=reply.response_metadata)
    ctx._record([shown], started, prompts=[messages])
    return reply
