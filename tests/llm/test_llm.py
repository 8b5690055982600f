"""Model registry, scripted model, structured output with repair."""

import json

import pytest
from langchain_core.messages import HumanMessage
from pydantic import BaseModel

from dsagent.errors import ProviderError, StructuredOutputError, UserError
from dsagent.llm import get_chat_model, parse_spec
from dsagent.llm.scripted import ScriptedChatModel
from dsagent.llm.structured import extract_json, invoke_structured


class Pick(BaseModel):
    column: str
    score: float


def test_parse_spec_and_unknown_provider():
    assert parse_spec("openai:gpt-4.1-mini") == ("openai", "gpt-4.1-mini")
    assert parse_spec("local") == ("local", "")
    with pytest.raises(UserError, match="unknown model provider 'foo'"):
        parse_spec("foo:bar")


def test_scripted_replays_in_order_and_runs_out_clearly(script_file):
    model = get_chat_model(script_file(["one", "two"]))
    assert model.invoke([HumanMessage(content="a")]).content == "one"
    assert model.invoke([HumanMessage(content="b")]).content == "two"
    assert [m[0].content for m in model.history] == ["a", "b"]
    with pytest.raises(ProviderError, match="ran out of replies: all 2"):
        model.invoke([HumanMessage(content="c")])


def test_scripted_file_errors(tmp_path):
    with pytest.raises(UserError, match="not found"):
        get_chat_model(f"scripted:{tmp_path / 'missing.json'}")
    bad = tmp_path / "bad.json"
    bad.write_text('{"not": "a list"}')
    with pytest.raises(UserError, match="JSON array of strings"):
        get_chat_model(f"scripted:{bad}")


def test_local_without_install_says_how():
    with pytest.raises(UserError, match="dsagent models install"):
        get_chat_model("local")


def test_remote_providers_need_keys_and_are_built_without_network(monkeypatch):
    with pytest.raises(UserError, match="OPENAI_API_KEY"):
        get_chat_model("openai:gpt-4.1-mini")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    model = get_chat_model("openai:gpt-4.1-mini")
    # Every remote model is wrapped in the one retry/deadline policy (llm/guard.py); the provider's own has no retries.
    assert type(model).__name__ == "GuardedChatModel" and model.model_name == "gpt-4.1-mini"
    assert type(model.inner).__name__ == "ChatOpenAI" and model.inner.max_retries == 0
    compat = get_chat_model("openai-compatible:qwen@http://127.0.0.1:9/v1")
    assert str(compat.inner.openai_api_base) == "http://127.0.0.1:9/v1" and "http://127.0.0.1:9/v1" in compat.where
    with pytest.raises(UserError, match="<model>@<base_url>"):
        get_chat_model("openai-compatible:qwen")


def test_extract_json_from_prose_and_fences():
    assert json.loads(extract_json('Sure!\n```json\n{"a": 1}\n```\nDone')) == {"a": 1}
    assert json.loads(extract_json('The plan is {"a": {"b": 2}} ok')) == {"a": {"b": 2}}


def test_structured_repairs_once_then_succeeds():
    model = ScriptedChatModel(replies=["not json at all", '{"column": "price", "score": 0.5}'])
    parsed, replies = invoke_structured(model, [HumanMessage(content="pick")], Pick)
    assert parsed == Pick(column="price", score=0.5)
    assert len(replies) == 2
    assert "not valid JSON" in model.history[1][-1].content


def test_structured_gives_typed_error_after_one_repair():
    model = ScriptedChatModel(replies=["nope", '{"column": "x"}', "unused"])
    with pytest.raises(StructuredOutputError, match="Pick") as info:
        invoke_structured(model, [HumanMessage(content="pick")], Pick)
    assert info.value.raw == '{"column": "x"}'
    assert model.remaining == 1


def test_grammar_bounds_reach_only_the_local_grammar():
    """Bound() caps free text in the local model's JSON grammar; the pydantic schema that hosted
    providers get (OpenAI's strict mode refuses maxLength) and validation do not see it."""
    from dsagent.llm.structured import grammar_schema
    from dsagent.workflows.robust.schemas import Requirements

    grammar = grammar_schema(Requirements)["properties"]
    assert grammar["reasoning"]["maxLength"] == 60 and list(grammar)[-1] == "reasoning"  # last, as in seed 002
    assert grammar["constraints"]["maxItems"] == 3 and grammar["constraints"]["items"]["maxLength"] == 100
    plain = Requirements.model_json_schema()["properties"]
    assert "maxLength" not in plain["reasoning"] and "maxItems" not in plain["constraints"]
    assert Requirements(reasoning="x" * 500).reasoning == "x" * 500  # never rejected for length
