"""One loaded chat model per spec for the long-lived doors (MCP server, LangGraph server, a
notebook's kernel), so the embedded model is loaded once, not on every question.

The scripted model is not kept: each Session replays its file from the first reply (tests).
A model is used by one run at a time (llama.cpp's context is not shared between threads).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

_models: dict[str, Any] = {}
_locks: dict[str, threading.Lock] = {}
_guard = threading.Lock()


@contextmanager
def shared_model(settings: Any) -> Iterator[Any]:
    """The loaded model for ``settings.model`` (None for ``scripted:``), held for one run."""
    spec = settings.model
    if spec.startswith("scripted:"):
        yield None
        return
    with _guard:
        lock = _locks.setdefault(spec, threading.Lock())
    with lock:
        if spec not in _models:
            from dsagent.llm import get_chat_model

            _models[spec] = get_chat_model(spec, settings)
        yield _models[spec]
