"""Chat models by ``provider:model`` spec: :func:`get_chat_model`."""

from dsagent.llm.registry import get_chat_model, parse_spec

__all__ = ["get_chat_model", "parse_spec"]
