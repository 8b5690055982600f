"""A deterministic chat model that replays a queue of replies (tests and demos; no key, no network).

The script file is a JSON array of strings, each the raw text of one reply in call order (JSON text
where a node asks for structured output). Running out of replies is a clear error.
For demos and screenshots of a run in progress, ``DSAGENT_SCRIPTED_DELAY`` (seconds) makes each
reply of a model read from a file wait that long first; one reply can wait on its own when it is
written as ``{"text": "...", "delay_s": 60}`` (the crash tests kill dsagent inside that call).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from dsagent.errors import ProviderError, UserError


def _approx_tokens(text: str) -> int:
    return max(1, len(text) // 4)


def _timed(reply: Any) -> bool:
    """A reply that waits on its own: ``{"text": str, "delay_s": number}``."""
    return isinstance(reply, dict) and isinstance(reply.get("text"), str) and isinstance(reply.get("delay_s"), (int, float))


class ScriptedChatModel(BaseChatModel):
    """Replays ``replies`` in order and keeps every prompt it was sent in ``history``."""

    replies: list[str]
    source: str = "<inline>"
    position: int = 0
    history: list[list[BaseMessage]] = Field(default_factory=list)
    delay_s: float = 0.0
    """Seconds each reply waits before it is returned (0: none)."""
    waits: dict[int, float] = Field(default_factory=dict)
    """{reply index: seconds} for the replies that wait on their own."""

    @classmethod
    def from_file(cls, path: str | Path) -> "ScriptedChatModel":
        path = Path(path)
        try:
            replies = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError as exc:
            raise UserError(f"scripted model file not found: {path}") from exc
        except (OSError, ValueError) as exc:
            raise UserError(f"scripted model file {path} is not valid JSON: {exc}") from exc
        if not isinstance(replies, list) or not all(isinstance(r, str) or _timed(r) for r in replies):
            raise UserError(f"scripted model file {path} must be a JSON array of strings (one per reply)")
        waits = {i: float(r["delay_s"]) for i, r in enumerate(replies) if not isinstance(r, str)}
        replies = [r if isinstance(r, str) else r["text"] for r in replies]
        raw_delay = os.environ.get("DSAGENT_SCRIPTED_DELAY", "").strip()
        try:
            delay = float(raw_delay) if raw_delay else 0.0
        except ValueError as exc:
            raise UserError(f"DSAGENT_SCRIPTED_DELAY must be a number of seconds, got {raw_delay!r}") from exc
        return cls(replies=replies, source=str(path), delay_s=max(0.0, delay), waits=waits)

    @property
    def _llm_type(self) -> str:
        return "dsagent-scripted"

    @property
    def model_name(self) -> str:
        return f"scripted:{self.source}"

    @property
    def remaining(self) -> int:
        return len(self.replies) - self.position

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.history.append(list(messages))
        if self.position >= len(self.replies):
            raise ProviderError(
                f"scripted model ran out of replies: all {len(self.replies)} in {self.source} were used "
                f"and call {self.position + 1} asked for another"
            )
        text = self.replies[self.position]
        self.position += 1
        wait = self.waits.get(self.position - 1, self.delay_s)
        if wait:
            time.sleep(wait)
        prompt = "".join(str(m.content) for m in messages)
        usage = {"input_tokens": _approx_tokens(prompt), "output_tokens": _approx_tokens(text)}
        usage["total_tokens"] = usage["input_tokens"] + usage["output_tokens"]
        message = AIMessage(content=text, usage_metadata=usage)
        return ChatResult(generations=[ChatGeneration(message=message)])
