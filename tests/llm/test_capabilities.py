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


class Refused(Exception):
    """An HTTP error as a client raises it: a status code and the body's text."""

    def __init__(self, status: int, body: str) -> None:
        super().__init__(body)
        self.status_code = status


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
        # The schema goes with JSON mode (llama.cpp's servers hold the reply to it), the prompt as written.
        assert fake.bodies[1]["response_format"]["schema"]["properties"] and "JSON schema" not in json.dumps(fake.bodies[1]["messages"])
        assert [r.response_metadata["dsagent_structured"] for r in replies] == ["json_object"]
        ask(fake.url)  # the same server and model later in the process: straight to JSON mode
        assert formats(fake)[2:] == ["json_object"]
    assert capabilities.refused(get_chat_model(f"openai-compatible:m@{fake.url}", load_settings())) == {"json_schema"}
    assert capabilities.refused(get_chat_model(f"openai-compatible:other@{fake.url}", load_settings())) == set()


def test_a_json_mode_that_does_not_hold_the_schema_gets_it_in_the_prompt_from_then_on():
    with FakeOpenAI(['no_schema:{"reply": 42}', 'no_schema:{"reply": 42}', f"no_schema:{ANSWER}"]) as fake:
        parsed, replies = ask(fake.url)  # json_schema refused; JSON mode: JSON, not the schema's; the repair
        assert parsed.answer == "42" and formats(fake) == ["json_schema", "json_object", "json_object"]
        assert "JSON schema" not in json.dumps(fake.bodies[1]["messages"]) and "JSON schema" in json.dumps(fake.bodies[2]["messages"])
        ask(fake.url)
        assert "JSON schema" in json.dumps(fake.bodies[3]["messages"])  # remembered: the schema in words at once
    model = get_chat_model(f"openai-compatible:m@{fake.url}", load_settings())
    assert capabilities.refused(model) == {"json_schema", capabilities.SCHEMA_IN_JSON_MODE}


def test_a_json_mode_reply_cut_short_is_no_sign_the_schema_is_not_held():
    with FakeOpenAI(['no_schema:-', 'no_schema:{"answer": "4', f"no_schema:{ANSWER}"]) as fake:
        parsed, _ = ask(fake.url)
    assert parsed.answer == "42" and "JSON schema" not in json.dumps(fake.bodies[2]["messages"])
    assert capabilities.refused(get_chat_model(f"openai-compatible:m@{fake.url}", load_settings())) == {"json_schema"}


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


# The sampling fields (llm/sampling.py): a server decodes as the in-process model does, and a
# strict server (OpenAI's own API refuses fields it does not know) still answers.

IN_PROCESS_FIELDS = {"top_p": 0.95, "seed": 0, "frequency_penalty": 0.0, "presence_penalty": 0.0}
LLAMA_FIELDS = {"repeat_penalty": 1.0, "top_k": 40, "min_p": 0.05}


def sent(body: dict, fields: dict) -> bool:
    return all(body.get(k) == v for k, v in fields.items())


def test_an_openai_compatible_server_gets_the_in_process_models_sampling():
    with FakeOpenAI([f"ok:{ANSWER}"]) as fake:
        ask(fake.url)
        get_chat_model(f"openai-compatible:m@{fake.url}", load_settings()).invoke("Say hi.", max_tokens=77)
    for body in fake.bodies:  # the structured call and a plain one
        assert body["temperature"] == load_settings().temperature
        assert sent(body, IN_PROCESS_FIELDS) and sent(body, LLAMA_FIELDS)
    # The limit also under its older name: llama-cpp-python's server reads only max_tokens.
    assert fake.bodies[-1]["max_completion_tokens"] == fake.bodies[-1]["max_tokens"] == 77


def test_the_in_process_sampling_is_llama_cpp_pythons():
    """What the server is sent is what LocalChatModel's create_chat_completion call uses: the library's defaults."""
    import inspect

    llama_cpp = pytest.importorskip("llama_cpp")
    from dsagent.llm.sampling import IN_PROCESS

    defaults = inspect.signature(llama_cpp.Llama.create_chat_completion).parameters
    assert {k: v for k, v in IN_PROCESS.items() if k != "seed"} == {k: defaults[k].default for k in IN_PROCESS if k != "seed"}


def test_openai_itself_gets_no_extra_fields(monkeypatch):
    pytest.importorskip("langchain_openai")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    assert not get_chat_model("openai:gpt-4.1-mini", load_settings()).sampling
    assert not get_chat_model("openai-compatible:gpt-4.1-mini@https://api.openai.com/v1", load_settings()).sampling


def test_a_strict_server_refusing_llama_fields_answers_and_is_remembered():
    with FakeOpenAI([f"strict:{ANSWER}"]) as fake:
        parsed, _ = ask(fake.url)  # json_schema, through with_structured_output
        assert parsed.answer == "42"
        assert len(fake.bodies) == 2 and fake.requests[1] - fake.requests[0] < 0.9  # refused once, not backed off
        assert sent(fake.bodies[0], LLAMA_FIELDS)
        assert not set(LLAMA_FIELDS) & set(fake.bodies[1]) and sent(fake.bodies[1], IN_PROCESS_FIELDS)
        model = get_chat_model(f"openai-compatible:m@{fake.url}", load_settings())
        assert model.invoke("Say hi.").content == ANSWER  # later calls: straight without them
        tool = {"type": "function", "function": {"name": "noop", "parameters": {"type": "object", "properties": {}}}}
        model.bind_tools([tool]).invoke("Say hi.")
        assert len(fake.bodies) == 4 and not set(LLAMA_FIELDS) & (set(fake.bodies[2]) | set(fake.bodies[3]))
    assert capabilities.refused(model) == {"llama_fields"}


def test_a_refusal_that_names_nothing_drops_every_sampling_field_once_it_works_without():
    with FakeOpenAI([f"strict_mute:{ANSWER}"]) as fake:
        model = get_chat_model(f"openai-compatible:m@{fake.url}", load_settings())
        assert model.invoke("Say hi.").content == ANSWER
    assert len(fake.bodies) == 2 and not (set(LLAMA_FIELDS) | set(IN_PROCESS_FIELDS)) & set(fake.bodies[1])
    assert capabilities.refused(model) == {"sampling", "llama_fields"}


def test_a_bad_request_for_another_reason_forgets_nothing():
    from dsagent.errors import ProviderError

    with FakeOpenAI(["400"]) as fake:
        model = get_chat_model(f"openai-compatible:m@{fake.url}", load_settings())
        with pytest.raises(ProviderError, match="HTTP 400"):
            model.invoke("Say hi.")
    assert len(fake.bodies) == 2  # once more without the sampling fields: refused again, so they were not the cause
    assert capabilities.refused(model) == set()


def test_sampling_fields_named_in_a_refusal_are_recognised():
    assert capabilities.refusal(Refused(400, "Unrecognized request argument supplied: repeat_penalty")) == "llama_fields"
    assert capabilities.refusal(Refused(422, "{'type': 'extra_forbidden', 'loc': ('body', 'min_p')}")) == "llama_fields"
    assert capabilities.refusal(Refused(400, "Unsupported parameter: 'max_tokens'; use 'max_completion_tokens'")) == "llama_fields"
    assert capabilities.refusal(Refused(400, "Unsupported parameter: 'top_p' is not supported with this model.")) == "sampling"
