"""Structured output by what the server supports (issue 42): JSON schema, else JSON mode, else a
plain prompt with the schema; a refusal of ``response_format`` is recognised (not retried as a
fault), remembered per server and model, and the run log records the mode each call used.

tests/fake_openai.py plays the servers on 127.0.0.1: one that refuses ``json_schema`` the way
llama-cpp-python's server does (HTTP 500, "Input should be 'text' or 'json_object'"), one that
refuses any ``response_format`` (HTTP 400)."""

from __future__ import annotations

import json

import pytest
from fake_openai import FakeOpenAI
from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel

from dsagent.config import load_settings
from dsagent.llm import capabilities, get_chat_model
from dsagent.llm.structured import invoke_structured

ANSWER = '{"answer": "42", "confident": true}'


class Reply(BaseModel):
    answer: str
    confident: bool


@pytest.fixture(autouse=True)
def limits(monkeypatch):
    monkeypatch.setenv("DSAGENT_LLM_TIMEOUT_S", "5")
    monkeypatch.setenv("DSAGENT_LLM_TOTAL_TIMEOUT_S", "20")


def ask(url: str) -> tuple[Reply, list]:
    model = get_chat_model(f"openai-compatible:m@{url}", load_settings())
    return invoke_structured(model, [SystemMessage(content="Answer."), HumanMessage(content="What is six times seven?")], Reply)


def formats(fake: FakeOpenAI) -> list[str | None]:
    return [(b.get("response_format") or {}).get("type") for b in fake.bodies]


def test_a_server_that_honours_json_schema_gets_it():
    with FakeOpenAI([f"ok:{ANSWER}"]) as fake:
        parsed, replies = ask(fake.url)
    assert parsed == Reply(answer="42", confident=True)
    assert formats(fake) == ["json_schema"] and replies[0].response_metadata["dsagent_structured"] == "json_schema"


def test_a_refused_json_schema_falls_back_to_json_mode_at_once_and_is_remembered():
    with FakeOpenAI([f"no_schema:{ANSWER}"]) as fake:
        parsed, replies = ask(fake.url)
        assert parsed.answer == "42"
        # Refused once, not retried as a fault (no back-off, no second json_schema try): JSON mode next.
        assert formats(fake) == ["json_schema", "json_object"]
        assert fake.requests[1] - fake.requests[0] < 0.9
        assert "JSON schema" in json.dumps(fake.bodies[1]["messages"][-1]) and fake.bodies[1]["response_format"]["schema"]["properties"]
        assert [r.response_metadata["dsagent_structured"] for r in replies] == ["json_object"]
        ask(fake.url)  # the same server and model later in the process: straight to JSON mode
        assert formats(fake)[2:] == ["json_object"]
    assert capabilities.refused(get_chat_model(f"openai-compatible:m@{fake.url}", load_settings())) == {"json_schema"}
    assert capabilities.refused(get_chat_model(f"openai-compatible:other@{fake.url}", load_settings())) == set()


def test_a_server_without_response_format_gets_a_plain_prompt_with_the_schema():
    with FakeOpenAI([f"no_format:```json\n{ANSWER}\n```"]) as fake:
        parsed, replies = ask(fake.url)
    assert parsed.confident is True
    assert formats(fake) == ["json_schema", "json_object", None]
    assert '"confident"' in fake.bodies[2]["messages"][-1]["content"]
    assert replies[-1].response_metadata["dsagent_structured"] == "prompt"


def test_a_plain_prompt_reply_that_does_not_parse_gets_one_repair():
    with FakeOpenAI(["no_format:x", "no_format:x", "no_format:Sure! The answer is 42.", f"no_format:{ANSWER}"]) as fake:
        parsed, replies = ask(fake.url)
    assert parsed.answer == "42" and len(replies) == 2
    assert "not valid JSON" in fake.bodies[-1]["messages"][-1]["content"]


def test_a_refusal_is_recognised_only_when_it_names_the_field():
    class Refused(Exception):
        def __init__(self, status: int, body: str) -> None:
            super().__init__(body)
            self.status_code = status

    assert capabilities.refusal(Refused(500, "Input should be 'text' or 'json_object' ('body', 'response_format', 'type')")) == "response_format"
    assert capabilities.refusal(Refused(422, "json_schema is not supported")) == "response_format"
    assert capabilities.refusal(Refused(400, "tool_choice auto is not supported")) == "tools"
    assert capabilities.refusal(Refused(500, "CUDA out of memory")) is None
    assert capabilities.refusal(Refused(401, "response_format")) is None


def test_the_run_log_records_the_mode(tmp_path):
    from dsagent.runtime import RunContext
    from dsagent.store import RunLog

    settings = load_settings()
    log = RunLog(settings.db_url)
    with FakeOpenAI([f"no_schema:{ANSWER}"]) as fake:
        model = get_chat_model(f"openai-compatible:m@{fake.url}", settings)
        run_id = log.start_run(workflow="quick", model="m", question="q", datasets=[], workspace=str(tmp_path))
        ctx = RunContext(settings, model, "m", None, log, run_id, tmp_path)  # type: ignore[arg-type]
        assert ctx.llm_structured([HumanMessage(content="What is six times seven?")], Reply).answer == "42"
    calls = log.llm_calls(run_id)
    assert [(c["ok"], c["mode"]) for c in calls] == [(True, "json_object")]


def test_a_model_outside_the_openai_protocol_gets_the_workflows_prompt_as_written():
    from dsagent.llm.scripted import ScriptedChatModel

    model = ScriptedChatModel(replies=[ANSWER])
    sent = [HumanMessage(content="What is six times seven?")]
    parsed, replies = invoke_structured(model, sent, Reply)
    assert parsed.answer == "42" and replies[0].response_metadata["dsagent_structured"] == "plain"
    assert [m.content for m in model.history[0]] == ["What is six times seven?"]
