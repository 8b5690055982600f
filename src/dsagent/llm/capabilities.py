"""What a model server supports, learnt from its refusals and remembered for the process.

OpenAI's own API honours ``response_format: json_schema`` and ``tools``; a server that speaks the
same protocol may not (llama-cpp-python's server takes only ``text`` or ``json_object``; some
servers take ``tools`` but never return ``tool_calls``; a strict server refuses the sampling
fields it does not know, such as llama.cpp's ``repeat_penalty``). A refusal of a request field is an HTTP
400, 422 or 500 whose body names the field: it is not a fault to retry, it says what the server
lacks. :func:`refusal` recognises it (the guard then raises :class:`FeatureRefused` at once), and
:func:`note_refused` remembers it per server and model (base URL + model name) so that every later
call of the process goes straight to what works.
"""

from __future__ import annotations

import threading
from typing import Any

from dsagent.errors import ProviderError

STRUCTURED_MODES = ("json_schema", "json_object", "prompt")
"""Structured output, best first: the server holds the reply to the schema; the server holds it to
JSON (llama.cpp servers also take the schema there as a grammar; a server that does not hold it,
seen from a reply, gets the schema in the prompt: :data:`SCHEMA_IN_JSON_MODE`); the prompt alone
carries the schema, and a reply that does not parse gets one repair."""

SCHEMA_IN_JSON_MODE = "json_object_schema"
"""The feature of holding a ``json_object`` reply to the schema sent along (llm/structured.py)."""

# What names a refused feature in an error body, by feature.
_NAMES = {
    "response_format": ("response_format", "json_schema", "json_object"),
    "tools": ("tools", "tool_choice", "function calling", "functions"),
    # Sampling fields dsagent sends so that a server decodes as the in-process model (llm/sampling.py).
    "llama_fields": ("repeat_penalty", "top_k", "min_p", "max_tokens"),
    "sampling": ("top_p", "seed", "frequency_penalty", "presence_penalty"),
}
_REFUSAL_STATUS = {400, 422, 500}

_lock = threading.Lock()
_refused: dict[str, set[str]] = {}
"""Per model key: the features (``json_schema``, ``json_object``, ``tools``, ``sampling``,
``llama_fields``) its server refused."""


class FeatureRefused(ProviderError):
    """The server refused a request field it does not support (not retried: a fault would pass, this will not)."""

    def __init__(self, message: str, feature: str) -> None:
        super().__init__(message)
        self.feature = feature


def _status(exc: BaseException) -> int | None:
    for source in (exc, getattr(exc, "response", None)):
        code = getattr(source, "status_code", None)
        if isinstance(code, int):
            return code
    return None


def refusal(exc: BaseException) -> str | None:
    """``"response_format"``, ``"tools"``, ``"llama_fields"`` or ``"sampling"`` when ``exc`` is a
    server's refusal of a request field of that feature."""
    if _status(exc) not in _REFUSAL_STATUS:
        return None
    body = getattr(exc, "body", None)
    text = f"{exc} {body if body is not None else ''}".lower()
    for feature, words in _NAMES.items():
        if any(word in text for word in words):
            return feature
    return None


def model_key(model: Any) -> str:
    """Which server and model a capability belongs to: ``<base URL>|<model name>``."""
    inner = getattr(model, "inner", model)  # the provider's model inside llm.guard's wrapper (guard imports this module)
    base = getattr(inner, "openai_api_base", None) or getattr(inner, "base_url", None) or type(inner).__name__
    name = getattr(inner, "model_name", None) or getattr(inner, "model", None) or ""
    return f"{base}|{name}"


def refused(model: Any) -> set[str]:
    with _lock:
        return set(_refused.get(model_key(model), ()))


def note_refused(model: Any, feature: str) -> None:
    with _lock:
        _refused.setdefault(model_key(model), set()).add(feature)


def structured_modes(model: Any) -> list[str]:
    """The structured-output modes still to try for ``model``, best first (never empty)."""
    gone = refused(model)
    return [m for m in STRUCTURED_MODES if m not in gone] or ["prompt"]


def forget_all() -> None:
    """Forget every refusal (tests)."""
    with _lock:
        _refused.clear()
