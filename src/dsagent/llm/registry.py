"""One registry: a ``provider:model`` spec becomes a LangChain ``BaseChatModel``.

Nodes ask the registry for a model and never import a vendor SDK. Keys come from the usual
environment variables (OPENAI_API_KEY, ANTHROPIC_API_KEY, OPENAI_COMPATIBLE_API_KEY); each goes only
to its own provider, and none reaches the sandbox, whose environment is scrubbed.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dsagent.errors import UserError

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from dsagent.config import Settings

PROVIDERS = ("local", "scripted", "openai", "anthropic", "ollama", "openai-compatible")


def _import(module: str, extra: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise UserError(f"this provider needs {module}: install it with `pip install 'dsagent[{extra}]'`") from exc


def _need_key(var: str, provider: str) -> str:
    key = os.environ.get(var)
    if not key:
        raise UserError(f"{provider} needs an API key: set {var}, or use the offline default `--model local`")
    return key


def parse_spec(spec: str) -> tuple[str, str]:
    provider, _, name = spec.strip().partition(":")
    provider = provider.lower()
    if provider not in PROVIDERS:
        raise UserError(f"unknown model provider {provider!r} in {spec!r}; use one of: {', '.join(PROVIDERS)}")
    return provider, name


def get_chat_model(spec: str | None = None, settings: "Settings | None" = None) -> "BaseChatModel":
    """Build the chat model for ``spec`` (default: the settings' model)."""
    from dsagent.config import load_settings

    settings = settings or load_settings()
    spec = spec or settings.model
    provider, name = parse_spec(spec)
    temperature = settings.temperature

    if provider == "scripted":
        if not name:
            raise UserError("scripted model needs a file: `scripted:<replies.json>`")
        from dsagent.llm.scripted import ScriptedChatModel

        return ScriptedChatModel.from_file(name)
    if provider == "local":
        from dsagent.llm import model_files
        from dsagent.llm.local import LocalChatModel

        path = Path(name).expanduser() if name else model_files.verified_model_path(settings.models_dir)
        if name and not path.is_file():
            raise UserError(f"GGUF model file not found: {path}")
        return LocalChatModel(
            model_path=path, n_ctx=settings.local_n_ctx, n_threads=settings.local_threads, temperature=temperature,
            prefix_cache=settings.local_prefix_cache, prefix_cache_dir=settings.home / "cache" / "kv",
            prefix_cache_mb=settings.local_prefix_cache_mb, lanes=settings.local_lanes,
        )
    if not name:
        raise UserError(f"model spec {spec!r} needs a model name, e.g. `{provider}:<model>`")
    inner, where = _remote(provider, name, spec, settings)
    from dsagent.llm.guard import GuardedChatModel, RetryPolicy

    # Retries, back-off and the deadline are ours (one policy for every provider): max_retries=0.
    # A server other than OpenAI's own gets the in-process model's sampling fields: its defaults
    # (llama-cpp-python's server: repeat_penalty 1.1) would otherwise change what the same model writes.
    sampling = provider == "openai-compatible" and not _openai_itself(name.rpartition("@")[2])
    return GuardedChatModel(inner=inner, policy=RetryPolicy.from_settings(settings), where=where, sampling=sampling)


def _remote(provider: str, name: str, spec: str, settings: "Settings") -> tuple["BaseChatModel", str]:
    """The provider's own chat model, and how error messages name it."""
    timeout, temperature = settings.llm_timeout_s, settings.temperature
    if provider == "openai":
        mod = _import("langchain_openai", "openai")
        key = _need_key("OPENAI_API_KEY", "openai")
        return mod.ChatOpenAI(model=name, api_key=key, timeout=timeout, temperature=temperature, max_retries=0), "OpenAI"
    if provider == "openai-compatible":
        model, sep, base_url = name.rpartition("@")
        if not sep or not model or not base_url:
            raise UserError(f"use `openai-compatible:<model>@<base_url>`, e.g. openai-compatible:qwen@http://localhost:8000/v1 (got {spec!r})")
        mod = _import("langchain_openai", "openai")
        key = compatible_key(base_url)
        chat = mod.ChatOpenAI(model=model, base_url=base_url, api_key=key, timeout=timeout, temperature=temperature, max_retries=0)
        return chat, f"the model server at {base_url}"
    if provider == "anthropic":
        mod = _import("langchain_anthropic", "anthropic")
        key = _need_key("ANTHROPIC_API_KEY", "anthropic")
        return mod.ChatAnthropic(model=name, api_key=key, timeout=timeout, temperature=temperature, max_retries=0), "Anthropic"
    mod = _import("langchain_ollama", "ollama")
    host = os.environ.get("OLLAMA_HOST") or None
    return mod.ChatOllama(model=name, temperature=temperature, base_url=host, client_kwargs={"timeout": timeout}), f"Ollama at {host or 'localhost:11434'}"


def compatible_key(base_url: str) -> str:
    """The key an ``openai-compatible:`` server gets: ``OPENAI_COMPATIBLE_API_KEY``, or ``OPENAI_API_KEY``
    only when the URL is OpenAI's own (a key goes only to the provider it was issued for)."""
    own = os.environ.get("OPENAI_COMPATIBLE_API_KEY")
    if own:
        return own
    return (os.environ.get("OPENAI_API_KEY") if _openai_itself(base_url) else None) or "not-needed"


def _openai_itself(base_url: str) -> bool:
    """Whether ``base_url`` is OpenAI's own API (https://api.openai.com)."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(base_url)
        return parts.scheme == "https" and (parts.hostname or "").lower() == "api.openai.com" and parts.port in (None, 443)
    except ValueError:
        return False


def model_label(model: "BaseChatModel") -> str:
    """A short name for the run log."""
    from dsagent.llm.guard import unwrap

    model = unwrap(model)
    for attr in ("model_name", "model"):
        value = getattr(model, attr, None)
        if isinstance(value, str) and value:
            return value
    return type(model).__name__
