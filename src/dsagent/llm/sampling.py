"""How the embedded model samples: greedy decoding under a grammar that checks the best token
first, and the same sampling asked of a server that serves a model over the OpenAI protocol.

llama-cpp-python samples with a chain (penalties → grammar → greedy) that runs the grammar over
all ~152k candidates at every token; on the embedded model that costs about 25 ms per token
(11 instead of 15.5 tokens/s for JSON-schema output). llama.cpp's own common/sampling.cpp does
better: take the argmax of the logits and ask the grammar about that one token; only if the
grammar rejects it, filter the whole vocabulary and take the argmax of what is left.

The chosen token is the same as the library's at every step: filtering only lowers rejected logits
to -inf, so an allowed argmax stays the (first) argmax, and otherwise both take the first maximum
of the same filtered logits. :func:`install` uses this path only for greedy calls (temp 0) with a
grammar and without penalties or logits processors; every other call gets the library's chain.

:data:`IN_PROCESS` and :func:`server_fields` carry the in-process sampling to a server, whose own
defaults would otherwise decide what a request leaves out.
"""

from __future__ import annotations

import ctypes
import weakref
from typing import Any

import numpy as np

_FAST_FLAG = "_dsagent_fast_grammar"


class GreedyGrammarSampler:
    """Stands in for llama-cpp-python's ``LlamaSampler`` (the library calls only ``sample``)."""

    def __init__(self, llm: Any, grammar: Any) -> None:
        import llama_cpp

        self._lib = llama_cpp
        self.n_vocab = int(llm.n_vocab())
        ptr = llama_cpp.llama_sampler_init_grammar(
            llm._model.vocab, grammar._grammar.encode("utf-8"), grammar._root.encode("utf-8")
        )
        if not ptr:
            raise ValueError("llama.cpp rejected the grammar")
        self._grammar = ptr
        self._finalizer = weakref.finalize(self, llama_cpp.llama_sampler_free, ptr)
        # one candidate, and all of them (allocated once; numpy views over the ctypes buffers)
        self._one = (llama_cpp.llama_token_data * 1)()
        self._one_p = llama_cpp.llama_token_data_array(self._one, 1, -1, False)
        self._all = (llama_cpp.llama_token_data * self.n_vocab)()
        self._all_p = llama_cpp.llama_token_data_array(self._all, self.n_vocab, -1, False)
        self._view = np.ctypeslib.as_array(self._all)
        self._view["id"] = np.arange(self.n_vocab, dtype=np.int32)
        self.fast = 0  # tokens where the argmax was allowed
        self.full = 0  # tokens that needed the whole vocabulary filtered

    def _apply(self, array: Any, size: int) -> None:
        array.size, array.selected, array.sorted = size, -1, False
        self._lib.llama_sampler_apply(self._grammar, ctypes.byref(array))

    def sample(self, ctx: Any, idx: int = -1) -> int:
        ptr = self._lib.llama_get_logits_ith(ctx.ctx, idx)
        logits = np.ctypeslib.as_array(ptr, shape=(self.n_vocab,))
        token = int(np.argmax(logits))
        cand = self._one[0]
        cand.id, cand.logit, cand.p = token, float(logits[token]), 0.0
        self._apply(self._one_p, 1)
        if cand.logit != -np.inf:
            self.fast += 1
        else:
            self.full += 1
            self._view["logit"] = logits
            self._apply(self._all_p, self.n_vocab)
            token = int(self._view["id"][int(np.argmax(self._view["logit"]))])
        self.accept(token)
        return token

    def accept(self, token: int) -> None:
        self._lib.llama_sampler_accept(self._grammar, token)

    def reset(self) -> None:
        self._lib.llama_sampler_reset(self._grammar)

    def close(self) -> None:
        self._finalizer()  # frees once; later calls (and garbage collection) do nothing


def fast_path_applies(kwargs: dict[str, Any]) -> bool:
    """Greedy with a grammar and nothing else that changes the logits (the library's defaults)."""
    return (
        kwargs.get("grammar") is not None
        and kwargs.get("temp", 0.8) == 0.0
        and kwargs.get("logits_processor") is None
        and kwargs.get("repeat_penalty", 1.0) == 1.0
        and kwargs.get("frequency_penalty", 0.0) == 0.0
        and kwargs.get("presence_penalty", 0.0) == 0.0
    )


def install(llm: Any) -> Any:
    """Give this ``Llama`` the best-token-first grammar sampler for greedy calls; returns ``llm``."""
    if getattr(llm, _FAST_FLAG, False):
        return llm
    original = llm._init_sampler

    def init_sampler(*args: Any, **kwargs: Any) -> Any:
        if not args and fast_path_applies(kwargs):
            try:
                return GreedyGrammarSampler(llm, kwargs["grammar"])
            except ValueError:
                pass
        return original(*args, **kwargs)

    llm._init_sampler = init_sampler
    setattr(llm, _FAST_FLAG, True)
    return llm


def uninstall(llm: Any) -> None:
    """Back to the library's sampler (for comparisons and measurements)."""
    if getattr(llm, _FAST_FLAG, False):
        del llm._init_sampler
        setattr(llm, _FAST_FLAG, False)


# How the in-process model samples besides its temperature: llama-cpp-python's
# ``create_chat_completion`` defaults (at temperature 0 only the penalties change the greedy
# choice) and the seed LocalChatModel passes. A server that speaks the OpenAI protocol applies its
# own defaults to whatever a request leaves out (llama-cpp-python's server: repeat_penalty 1.1), so
# the same model would decode differently; :func:`server_fields` sends these values explicitly.
IN_PROCESS: dict[str, Any] = {
    "top_p": 0.95, "seed": 0, "frequency_penalty": 0.0, "presence_penalty": 0.0,
    "repeat_penalty": 1.0, "top_k": 40, "min_p": 0.05,
}

SERVER_GROUPS: dict[str, tuple[str, ...]] = {
    "sampling": ("top_p", "seed", "frequency_penalty", "presence_penalty"),
    "llama_fields": ("repeat_penalty", "top_k", "min_p"),
}
"""The fields sent to an ``openai-compatible:`` server, by capability (llm/capabilities.py): the
OpenAI protocol's own, and llama.cpp's (``extra_body``: servers built on llama.cpp, LM Studio and
others take them; a strict server refuses unknown fields, and then the group is dropped and
remembered for that server and model). llama.cpp's group also carries a call's token limit under
its older name ``max_tokens``: the client sends ``max_completion_tokens``, which llama-cpp-python's
server does not read, so a reply the in-process model ends at the limit would run on there."""


def server_fields(refused: set[str], max_tokens: int | None = None) -> tuple[dict[str, Any], set[str]]:
    """ChatOpenAI field values that make a server sample as the in-process model does, leaving out
    the groups the server refused; and which groups they carry."""
    update: dict[str, Any] = {}
    sent: set[str] = set()
    for group, names in SERVER_GROUPS.items():
        if group in refused:
            continue
        values = {name: IN_PROCESS[name] for name in names}
        if group == "sampling":
            update.update(values)
        else:  # not OpenAI protocol fields: ChatOpenAI passes them through as extra body fields
            update["extra_body"] = values if max_tokens is None else {**values, "max_tokens": max_tokens}
        sent.add(group)
    return update, sent
