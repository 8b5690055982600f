"""The best-token-first grammar sampler (llm/sampling.py): it stands in only for greedy grammar
calls, and it picks the token the library's own sampler chain picks."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import BaseModel

from dsagent.llm import sampling


class FakeLlama:
    def __init__(self) -> None:
        self.calls: list[dict] = []

    def _init_sampler(self, **kwargs):  # noqa: ANN003, ANN202
        self.calls.append(kwargs)
        return "library"


@pytest.mark.parametrize("kwargs", [
    {"temp": 0.8, "grammar": object()},
    {"temp": 0.0, "grammar": None},
    {"temp": 0.0},
    {"temp": 0.0, "grammar": object(), "logits_processor": [lambda ids, logits: logits]},
    {"temp": 0.0, "grammar": object(), "repeat_penalty": 1.1},
    {"temp": 0.0, "grammar": object(), "presence_penalty": 0.5},
])
def test_other_calls_get_the_library_sampler(kwargs):
    llm = sampling.install(FakeLlama())
    assert sampling.install(llm) is llm  # installing twice wraps once
    assert llm._init_sampler(**kwargs) == "library" and llm.calls == [kwargs]
    assert sampling.fast_path_applies({"temp": 0.0, "grammar": object(), "repeat_penalty": 1.0})
    sampling.uninstall(llm)
    assert llm._init_sampler.__func__ is FakeLlama._init_sampler


class City(BaseModel):
    city: str
    population: int
    facts: list[str]


class Plan(BaseModel):
    steps: list[str]
    done: bool


CASES = [
    ("Describe Paris as JSON with three short facts.", City),
    ("Plan in two steps how to load a CSV file with pandas.", Plan),
]
PROSE_FIRST = [
    {"role": "system", "content": "Always begin your reply with a sentence of explanation, then a ```json code block."},
    {"role": "user", "content": "Describe Rome."},
]


@pytest.fixture(scope="module")
def llm(local_spec):  # noqa: ANN001, ANN201
    from dsagent.llm.local import _new_llama

    return _new_llama(Path(local_spec.removeprefix("local:")), 2048, 0)  # installed by _new_llama


def _json(llm, messages, schema, max_tokens=80):  # noqa: ANN001, ANN202
    llm.reset()  # read the prompt afresh: a reused prefix can move the logits in the last bits
    out = llm.create_chat_completion(messages=messages, temperature=0.0, max_tokens=max_tokens, seed=0,
                                     response_format={"type": "json_object", "schema": schema})
    return out["choices"][0]["message"]["content"]


@pytest.mark.real_model
def test_the_fast_path_writes_the_same_tokens_as_the_library(llm):
    asks = [([{"role": "user", "content": q}], model.model_json_schema()) for q, model in CASES]
    asks.append((PROSE_FIRST, City.model_json_schema()))
    fast = []
    for messages, schema in asks:
        fast.append(_json(llm, messages, schema))
        assert isinstance(llm._sampler, sampling.GreedyGrammarSampler) and llm._sampler.fast > 0
    sampling.uninstall(llm)
    try:
        library = [_json(llm, messages, schema) for messages, schema in asks]
        assert not isinstance(llm._sampler, sampling.GreedyGrammarSampler)
    finally:
        sampling.install(llm)
    assert fast == library
    assert all(text.startswith("{") for text in fast)


@pytest.mark.real_model
def test_a_rejected_best_token_falls_back_to_the_whole_vocabulary(llm):
    # unconstrained, the model starts with prose; under the schema the first token must open the object
    free = llm.create_chat_completion(messages=PROSE_FIRST, temperature=0.0, max_tokens=3, seed=0)
    assert not free["choices"][0]["message"]["content"].lstrip().startswith("{")
    _json(llm, PROSE_FIRST, City.model_json_schema(), max_tokens=1)
    assert (llm._sampler.fast, llm._sampler.full) == (0, 1)
