"""One user message through the assistant, as the CLI, the web app and the benchmark run it.

:func:`run_turn` opens the SQLite checkpointer under the dsagent home (so ``thread_id`` resumes
a conversation after a restart), streams the graph and reports what happens through
``on_event``: ``("tool_call", {"name", "args"})``, ``("tool_result", {"name", "content"})``,
``("token", text)`` for the answer as it is written, ``("answer", text)`` at the end.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dsagent.workflows.assistant.configuration import Configuration

Event = Callable[[str, Any], None]


@dataclass
class TurnResult:
    thread_id: str
    answer: str
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    """[{"name", "args"}] in call order, for this message only."""
    tool_results: list[str] = field(default_factory=list)
    limit_reached: bool = False
    grounding: dict[str, Any] | None = None
    """The grounding check's record of the answer (claims checked, caught, left), or None."""
    run_id: str | None = None
    """The turn's run in the run log (every model call of the turn is in it)."""
    verified: bool = False
    """answer_question's mark when the answer is its answer: an independent computation agreed (common.verify)."""
    verification: str = ""
    """What agreed or disagreed; empty when the answer is not a computed one."""

    def to_json(self) -> dict[str, Any]:
        return {"thread_id": self.thread_id, "answer": self.answer, "tool_calls": self.tool_calls, "run_id": self.run_id,
                "verified": self.verified, "verification": self.verification}


def new_thread_id() -> str:
    return uuid.uuid4().hex[:12]


def run_turn(message: str, *, project_dir: str | Path | None = None, thread_id: str | None = None,
             configuration: Configuration | None = None, on_event: Event | None = None, checkpointer: Any = None,
             tools: list[Any] | None = None) -> TurnResult:
    """Send ``message`` on ``thread_id`` (a new thread when None) and return the answer.

    ``tools`` replaces the tool list (the benchmark stands in for the slow stages)."""
    from dsagent.config import load_settings
    from dsagent.errors import UserError
    from dsagent.store.checkpoint import sqlite_checkpointer

    if not message.strip():
        raise UserError("the message is empty: say what you want to do with your data")
    thread_id = thread_id or new_thread_id()
    if checkpointer is not None:
        return _run(message, project_dir, thread_id, configuration, on_event, checkpointer, tools)
    with sqlite_checkpointer(load_settings().home) as saver:
        return _run(message, project_dir, thread_id, configuration, on_event, saver, tools)


def thread_exists(thread_id: str) -> bool:
    from dsagent.config import load_settings
    from dsagent.store.checkpoint import sqlite_checkpointer
    from dsagent.workflows.assistant.graph import build_graph

    with sqlite_checkpointer(load_settings().home) as saver:
        return bool(build_graph(saver).get_state({"configurable": {"thread_id": thread_id}}).values)


def _run(message: str, project_dir: Any, thread_id: str, configuration: Configuration | None, on_event: Event | None, saver: Any,
         tools: list[Any] | None = None) -> TurnResult:
    from langchain_core.messages import AIMessage, AIMessageChunk, ToolMessage
    from langgraph.errors import GraphRecursionError

    from dsagent.workflows.assistant.graph import build_graph, run_config
    from dsagent.workflows.assistant.nodes import ANSWER_TAG

    emit = on_event or (lambda _k, _v: None)
    conf = configuration or Configuration.defaults()
    graph = build_graph(saver, tools)
    config = run_config(conf, thread_id)
    project = str(Path(project_dir or ".").expanduser().resolve())
    inputs = {"messages": [{"role": "user", "content": message}], "project_dir": project}
    result = TurnResult(thread_id, "")
    streamed = False
    try:
        for mode, payload in graph.stream(inputs, config, stream_mode=["updates", "messages"]):
            if mode == "messages":
                chunk, meta = payload
                if isinstance(chunk, AIMessageChunk) and ANSWER_TAG in (meta.get("tags") or []) and chunk.content:
                    streamed = True
                    emit("token", str(chunk.content))
                continue
            for node, update in (payload or {}).items():
                for msg in (update or {}).get("messages", []) if isinstance(update, dict) else []:
                    if isinstance(msg, AIMessage) and msg.tool_calls:
                        for call in msg.tool_calls:
                            result.tool_calls.append({"name": call["name"], "args": call.get("args") or {}})
                            emit("tool_call", {"name": call["name"], "args": call.get("args") or {}})
                    elif isinstance(msg, ToolMessage):
                        result.tool_results.append(str(msg.content))
                        emit("tool_result", {"name": msg.name, "content": str(msg.content)})
                    elif isinstance(msg, AIMessage) and node == "agent_node":
                        result.answer = str(msg.content)
                        result.grounding = msg.response_metadata.get("grounding")
                        result.run_id = msg.response_metadata.get("run_id")
                        result.verified = bool(msg.response_metadata.get("verified"))
                        result.verification = str(msg.response_metadata.get("verification") or "")
    except GraphRecursionError:
        result.limit_reached = True
        result.answer = (f"I stopped: this request took more steps than the limit allows (max_tool_iterations = {conf.max_tool_iterations}). "
                         f"Tools run: {', '.join(c['name'] for c in result.tool_calls) or 'none'}.")
    if "max_tool_iterations" in result.answer:
        result.limit_reached = True
    emit("answer", {"text": result.answer, "streamed": streamed})
    return result
