"""The embedded model, run in-process by llama-cpp-python.

llama.cpp keeps the tokens of the previous call and re-reads only what changed after the longest
common prefix, so prompts that share a stable prefix (system text + data profile) are cheap to
repeat. Structured output uses JSON-schema-constrained decoding (a llama.cpp grammar).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult
from pydantic import ConfigDict

from dsagent.errors import ProviderError, UserError

if TYPE_CHECKING:
    from dsagent.llm.lanes import Lanes

_LOADED: dict[tuple[str, int, int], Any] = {}
_LANES: dict[tuple[str, int, int], Any] = {}
_LOCK = threading.RLock()


def _role(message: BaseMessage) -> str:
    return {"human": "user", "ai": "assistant", "system": "system"}.get(message.type, "user")


def load_llama(path: Path, n_ctx: int, n_threads: int, progress: Any = None) -> Any:
    """Load once per process (about 4 s) and reuse; llama.cpp's own logging is silenced."""
    key = (str(path), n_ctx, n_threads)
    with _LOCK:
        if key in _LOADED:
            return _LOADED[key]
        say = progress or (lambda m: print(m, file=sys.stderr, flush=True))
        say(f"loading local model {path.name} …")
        started = time.perf_counter()
        llm = _new_llama(path, n_ctx, n_threads)
        say(f"local model loaded in {time.perf_counter() - started:.1f} s")
        _LOADED[key] = llm
        # From now on profiles count tokens with the model's own tokenizer, not the estimate.
        from dsagent.data.tokens import set_token_counter

        set_token_counter(lambda text: len(llm.tokenize(text.encode("utf-8"), add_bos=False, special=False)))
        return llm


def _new_llama(path: Path, n_ctx: int, n_threads: int) -> Any:
    """A llama.cpp context over the model file (the weights are memory-mapped: a second context shares them)."""
    if not path.is_file():
        raise UserError(f"model file not found: {path}")
    from dsagent.llm.token_threads import configure_openmp

    configure_openmp(os.environ)  # threads spin briefly while they wait (llm/token_threads.py)
    try:
        from llama_cpp import Llama
    except ImportError as exc:
        raise UserError(
            "the local model needs llama-cpp-python: install it with `uv sync --extra local` "
            "(or `pip install 'dsagent[local]'`)"
        ) from exc
    try:
        with _without_amx_buffers():
            llm = Llama(model_path=str(path), n_ctx=n_ctx, n_threads=_threads(n_threads), n_batch=512, verbose=False)
    except Exception as exc:  # llama.cpp reports a bad file as ValueError/RuntimeError
        raise UserError(f"could not load the model {path}: {exc}") from exc
    from dsagent.llm import sampling

    return sampling.install(llm)  # greedy grammar decoding checks the best token first (~25 ms/token less)


def _threads(n_threads: int) -> int:
    return n_threads or os.cpu_count() or 2


def lanes_for(path: Path, n_ctx: int, n_threads: int, size: int) -> "Lanes":
    """The process's lanes of this model (llm/lanes.py); lane 0 is :func:`load_llama`'s context.
    ``size`` caps how many contexts load (the latest chat model's setting holds)."""
    from dsagent.llm.lanes import Lanes

    key = (str(path), n_ctx, n_threads)
    with _LOCK:
        lanes = _LANES.get(key)
        if lanes is None:
            load = lambda i: load_llama(path, n_ctx, n_threads) if i == 0 else _new_llama(path, n_ctx, n_threads)  # noqa: E731
            lanes = _LANES[key] = Lanes(load, size, _threads(n_threads))
        lanes.size = max(1, size)
        return lanes


def _cpu_has_amx() -> bool:
    try:
        return " amx_tile" in Path("/proc/cpuinfo").read_text()
    except OSError:
        return False


@contextmanager
def _without_amx_buffers() -> Iterator[None]:
    """Load without llama.cpp's extra (repacking) buffer types on a CPU that advertises AMX.

    A VM can advertise AMX without the kernel enabling its state: ggml's AMX matmul then dies on
    its first ``ldtilecfg`` (a general protection fault, the process is killed). Plain CPU buffers
    avoid that path; elsewhere nothing changes.
    """
    if not _cpu_has_amx():
        yield
        return
    import llama_cpp.llama as llama_module

    original = llama_module.llama_cpp.llama_model_default_params

    def params() -> Any:
        p = original()
        p.use_extra_bufts = False
        return p

    llama_module.llama_cpp.llama_model_default_params = params
    try:
        yield
    finally:
        llama_module.llama_cpp.llama_model_default_params = original


class LocalChatModel(BaseChatModel):
    """A LangChain chat model over an in-process GGUF model."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    model_path: Path
    n_ctx: int = 8192
    n_threads: int = 0
    temperature: float = 0.0
    max_tokens: int = 1024
    prefix_cache: bool = True
    """Keep the state of earlier prompt prefixes (llm/prefix_cache.py)."""
    prefix_cache_dir: Path | None = None
    prefix_cache_mb: int = 0
    """Disk space for saved prefixes under ``prefix_cache_dir`` (0: memory only)."""
    lanes: int = 1
    """Contexts that may run calls side by side (llm/lanes.py); 1: calls take turns."""

    @property
    def _llm_type(self) -> str:
        return "dsagent-local"

    @property
    def model_name(self) -> str:
        return f"local:{self.model_path.name}"

    @property
    def parallel_calls(self) -> int:
        """How many calls can run at once without waiting for each other."""
        return max(1, self.lanes)

    def holds_prefix(self, messages: list[BaseMessage]) -> bool:
        """Whether a call of this process has read these messages' system text (the data profile)
        already: a lane restores it from the shared prefix cache instead of reading it again."""
        return bool(messages) and messages[0].type == "system" and _digest(self, str(messages[0].content)) in _READ

    def _lanes(self) -> "Lanes":
        return lanes_for(self.model_path, self.n_ctx, self.n_threads, self.lanes)

    @property
    def llama(self) -> Any:
        """Lane 0's context (loaded on first use)."""
        return self._lanes().first()

    def _cache(self, llm: Any) -> Any:
        """The lane's prefix cache (installed once per context), or None when it is off."""
        installed = getattr(llm, "_dsagent_prefix_cache", None)
        if not self.prefix_cache:
            if installed is not None:
                installed.active = False
            return None
        from dsagent.llm import prefix_cache

        cache = installed or prefix_cache.install(llm, self.model_path, self.prefix_cache_dir, self.prefix_cache_mb)
        cache.configure(self.prefix_cache_dir, self.prefix_cache_mb)  # the loaded model is shared; the home is this model's
        cache.active, cache.restored = True, 0
        return cache

    def _after_call(self, llm: Any, cache: Any, before: list[int], prompt_tokens: int) -> int:
        """Prompt tokens not evaluated (served from llama.cpp's cache or restored from the prefix
        cache); saves the state when this call read a new prefix."""
        reused = max(_reused(llm, before, prompt_tokens), min(cache.restored if cache else 0, max(prompt_tokens - 1, 0)))
        if cache is not None:
            cache.after_call(llm, prompt_tokens, reused)
        return reused

    def count_tokens(self, text: str) -> int:
        return len(self.llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        chat = [{"role": _role(m), "content": str(m.content)} for m in messages]
        with self._lanes().acquire() as llm:
            return self._complete(llm, chat, stop, kwargs)

    def _complete(self, llm: Any, chat: list[dict[str, str]], stop: list[str] | None, kwargs: dict[str, Any]) -> ChatResult:
        cache = self._cache(llm)
        before = _context_tokens(llm)
        try:
            out = llm.create_chat_completion(
                messages=chat,
                temperature=kwargs.get("temperature", self.temperature),
                max_tokens=kwargs.get("max_tokens", self.max_tokens),
                stop=stop,
                response_format=kwargs.get("response_format"),
                seed=0,
            )
        except ValueError as exc:  # e.g. the prompt exceeds the context window
            raise ProviderError(f"local model failed: {exc}; shorten the question or raise DSAGENT_LOCAL_N_CTX") from exc
        choice = out["choices"][0]
        usage = out.get("usage") or {}
        if self.prefix_cache and chat and chat[0]["role"] == "system":
            _remember_read(_digest(self, chat[0]["content"]))
        message = AIMessage(
            content=choice["message"].get("content") or "",
            usage_metadata={
                "input_tokens": usage.get("prompt_tokens", 0),
                "output_tokens": usage.get("completion_tokens", 0),
                "total_tokens": usage.get("total_tokens", 0),
                "input_token_details": {"cache_read": self._after_call(llm, cache, before, usage.get("prompt_tokens", 0))},
            },
            response_metadata={"finish_reason": choice.get("finish_reason"), "model_name": self.model_name},
        )
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _stream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> Iterator[ChatGenerationChunk]:
        """Token by token (used when a caller streams, e.g. the assistant's answer in the CLI)."""
        chat = [{"role": _role(m), "content": str(m.content)} for m in messages]
        with self._lanes().acquire() as llm:
            yield from self._stream_on(llm, chat, stop, run_manager, kwargs)

    def _stream_on(self, llm: Any, chat: list[dict[str, str]], stop: list[str] | None,
                   run_manager: CallbackManagerForLLMRun | None, kwargs: dict[str, Any]) -> Iterator[ChatGenerationChunk]:
        self._cache(llm)  # a saved prefix is restored for a stream too (nothing is saved after one)
        try:
            stream = llm.create_chat_completion(
                messages=chat, temperature=kwargs.get("temperature", self.temperature),
                max_tokens=kwargs.get("max_tokens", self.max_tokens), stop=stop,
                response_format=kwargs.get("response_format"), seed=0, stream=True,
            )
            for part in stream:
                choice = part["choices"][0]
                text = (choice.get("delta") or {}).get("content") or ""
                if not text and not choice.get("finish_reason"):
                    continue
                chunk = ChatGenerationChunk(message=AIMessageChunk(
                    content=text, response_metadata={"finish_reason": choice.get("finish_reason"), "model_name": self.model_name} if choice.get("finish_reason") else {}))
                if run_manager and text:
                    run_manager.on_llm_new_token(text, chunk=chunk)
                yield chunk
        except ValueError as exc:
            raise ProviderError(f"local model failed: {exc}; shorten the question or raise DSAGENT_LOCAL_N_CTX") from exc


_READ: dict[str, None] = {}
"""Digests of system texts a call has read (newest last; :meth:`LocalChatModel.holds_prefix`)."""


def _digest(model: LocalChatModel, text: str) -> str:
    import hashlib

    return hashlib.sha256(f"{model.model_path}\0{text}".encode()).hexdigest()


def _remember_read(digest: str) -> None:
    with _LOCK:
        _READ.pop(digest, None)
        _READ[digest] = None
        while len(_READ) > 64:
            del _READ[next(iter(_READ))]


def _context_tokens(llm: Any) -> list[int]:
    """The tokens whose keys and values the context holds from its last call (its KV cache)."""
    return [int(t) for t in llm._input_ids[: llm.n_tokens]]


def _reused(llm: Any, before: list[int], prompt_tokens: int) -> int:
    """Prompt tokens served from the KV cache, not evaluated: the prompt's common prefix with
    what the cache held before the call (llama.cpp evaluates only the rest; a prompt fully held
    replays its last token)."""
    import numpy as np

    from dsagent.llm.prefix_cache import common_prefix

    same = common_prefix(np.asarray(before, dtype=np.int64), np.asarray(llm._input_ids[:prompt_tokens], dtype=np.int64))
    return min(same, max(prompt_tokens - 1, 0))
