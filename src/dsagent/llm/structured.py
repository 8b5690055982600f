"""Structured output: by what the server supports (JSON schema, else JSON mode, else a plain prompt
with the schema) for an OpenAI-protocol server, native for Anthropic, a JSON-schema grammar for the
local model, and for any model parse-and-repair with one retry, then a typed error."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, TypeVar

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from pydantic import BaseModel, ValidationError

from dsagent.errors import StructuredOutputError

T = TypeVar("T", bound=BaseModel)
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


def extract_json(text: str) -> str:
    """The JSON object inside a reply that may carry prose or a markdown fence around it."""
    fenced = _FENCE.search(text)
    if fenced:
        text = fenced.group(1)
    start = text.find("{")
    end = text.rfind("}")
    return text[start : end + 1] if start != -1 and end > start else text.strip()


STRUCTURED_MAX_TOKENS = 400



@dataclass(frozen=True)
class Bound:
    """A length bound only the local model's grammar applies, written ``Annotated[str, Bound(160)]``
    (``Bound(100, items=3)`` on a list of strings): constrained decoding runs at ~7-10 tokens/s here,
    and a small model's ``reasoning`` rambled for 240 tokens that no later node reads in full.
    It is not in the pydantic schema, so hosted providers (OpenAI's strict mode refuses
    ``maxLength``) and validation never see it."""

    chars: int
    items: int | None = None


def grammar_schema(schema: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema for the local grammar: the model's own, with its :class:`Bound` s applied."""
    out = schema.model_json_schema()
    props = out.get("properties", {})
    for name, info in schema.model_fields.items():
        for bound in (m for m in info.metadata if isinstance(m, Bound)):
            prop = props.get(info.alias or name)
            if prop is None:
                continue
            if bound.items is None:
                prop["maxLength"] = bound.chars
            else:
                prop["maxItems"] = bound.items
                prop["items"] = {**prop.get("items", {"type": "string"}), "maxLength": bound.chars}
    return out

def parse_reply(text: str, schema: type[T]) -> T:
    return schema.model_validate(json.loads(extract_json(text)))


def _native(model: BaseChatModel) -> bool:
    from dsagent.llm.guard import unwrap

    return type(unwrap(model)).__name__ in {"ChatOpenAI", "ChatAnthropic"}


def openai_protocol(model: BaseChatModel) -> bool:
    from dsagent.llm.guard import unwrap

    return type(unwrap(model)).__name__ == "ChatOpenAI"


MODE_KEY = "dsagent_structured"
"""Where a reply's ``response_metadata`` says how it was held to the schema (the run log's ``mode``)."""


def with_schema(messages: list[BaseMessage], schema: type[BaseModel]) -> list[BaseMessage]:
    """The messages with the schema asked for in words (plain prompts, and JSON mode on a server that
    does not hold the reply to the schema)."""
    ask = ("Reply with only a JSON object (no prose, no markdown fence) that matches this JSON schema:\n"
           + json.dumps(schema.model_json_schema(), ensure_ascii=False))
    last = messages[-1] if messages else None
    if isinstance(last, HumanMessage) and isinstance(last.content, str):
        return [*messages[:-1], HumanMessage(content=f"{last.content}\n\n{ask}")]
    return [*messages, HumanMessage(content=ask)]


def schema_held(model: BaseChatModel, mode: str) -> bool:
    """Whether the server holds a ``json_object`` reply to the schema sent with it, as llama.cpp's
    servers do by grammar (and the embedded model in-process): then the prompt stays as the workflow
    wrote it, which names the keys and asks for JSON, the same prompt the in-process model reads.
    Assumed until a reply in JSON mode parses as JSON that misses the schema."""
    from dsagent.llm import capabilities

    return mode == "json_object" and capabilities.SCHEMA_IN_JSON_MODE not in capabilities.refused(model)


def _json_object(text: str) -> bool:
    try:
        return isinstance(json.loads(extract_json(text)), dict)
    except ValueError:
        return False


def invoke_structured(
    model: BaseChatModel, messages: list[BaseMessage], schema: type[T]
) -> tuple[T, list[AIMessage]]:
    """Return the parsed object and every raw reply (for token accounting); each reply's
    ``response_metadata[MODE_KEY]`` names the mode used.

    An OpenAI-protocol server is asked in the best mode it has not refused
    (:data:`dsagent.llm.capabilities.STRUCTURED_MODES`); a refusal is remembered for the model and
    the next mode tried at once. Anthropic uses its native structured output; the embedded model a
    JSON-schema grammar; any other model (Ollama, scripted) the prompt as the workflow wrote it ("plain").
    Every mode ends with parse-and-repair: one retry, then a typed error."""
    from dsagent.llm import capabilities
    from dsagent.llm.local import LocalChatModel

    if openai_protocol(model):
        for mode in capabilities.structured_modes(model):
            try:
                return _in_mode(model, messages, schema, mode)
            except capabilities.FeatureRefused:
                if mode == "prompt":
                    raise
                capabilities.note_refused(model, mode)
    if _native(model):
        return _in_mode(model, messages, schema, "native")
    return _in_mode(model, messages, schema, "grammar" if isinstance(model, LocalChatModel) else "plain")


def _in_mode(model: BaseChatModel, messages: list[BaseMessage], schema: type[T], mode: str) -> tuple[T, list[AIMessage]]:
    replies: list[AIMessage] = []

    def mark(reply: AIMessage) -> AIMessage:
        reply.response_metadata = {**(reply.response_metadata or {}), MODE_KEY: mode}
        replies.append(reply)
        return reply

    kwargs: dict[str, Any] = {}
    if mode in ("native", "json_schema"):
        method = {"method": "json_schema"} if mode == "json_schema" else {}
        out = model.with_structured_output(schema, include_raw=True, **method).invoke(messages)
        raw = out.get("raw")
        if isinstance(raw, AIMessage):
            mark(raw)
        if out.get("parsed") is not None:
            return out["parsed"], replies
        text = str(raw.content) if raw is not None else ""
    else:
        if mode == "grammar":
            kwargs["response_format"] = {"type": "json_object", "schema": grammar_schema(schema)}
            # Constrained decoding runs at ~7 tokens/s here; a reply that rambles past this is
            # cut, fails to parse and gets the one repair instead of running for minutes.
            kwargs["max_tokens"] = STRUCTURED_MAX_TOKENS
        elif mode in ("json_object", "prompt"):
            # As for the embedded model: a server in these modes is most likely a small local one, and a
            # reply that rambles is cut here and gets the one repair rather than running for minutes.
            kwargs["max_tokens"] = STRUCTURED_MAX_TOKENS
            if mode == "json_object":
                # llama.cpp's servers also take the schema here and hold the reply to it by grammar.
                kwargs["response_format"] = {"type": "json_object", "schema": grammar_schema(schema)}
            if not schema_held(model, mode):
                messages = with_schema(messages, schema)
        text = str(mark(model.invoke(messages, **kwargs)).content)
    try:
        return parse_reply(text, schema), replies
    except (ValueError, ValidationError) as exc:
        problem = str(exc).splitlines()[0]
        if schema_held(model, mode) and _json_object(text):
            # JSON that misses the schema: this server holds JSON mode to JSON only. The schema goes
            # into the prompt from now on (the repair's first).
            from dsagent.llm import capabilities

            capabilities.note_refused(model, capabilities.SCHEMA_IN_JSON_MODE)
            messages = with_schema(messages, schema)
    repair = messages + [
        AIMessage(content=text),
        HumanMessage(
            content=f"That reply was not valid JSON for the schema ({problem}). "
            f"Reply with only a JSON object with keys: {', '.join(schema.model_fields)}."
        ),
    ]
    text = str(mark(model.invoke(repair, **kwargs)).content)
    try:
        return parse_reply(text, schema), replies
    except (ValueError, ValidationError) as exc:
        raise StructuredOutputError(
            f"the model's reply is not valid {schema.__name__} JSON after one repair: {str(exc).splitlines()[0]}",
            raw=text,
        ) from exc
