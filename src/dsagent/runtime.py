"""What every node of every workflow is handed: the model, the sandbox, the run log, progress.

Nodes call :meth:`RunContext.llm` (which records every call in the run log) and run code through
:attr:`RunContext.sandbox`; :meth:`RunContext.step` wraps a node so its start, end and outcome are
written as the run goes and shown as progress.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future
from contextlib import contextmanager
from contextvars import ContextVar, copy_context
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.tracers.context import register_configure_hook
from pydantic import BaseModel

from dsagent.errors import DsagentError, ProviderError

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from dsagent.config import Settings
    from dsagent.data import Dataset
    from dsagent.sandbox import Sandbox
    from dsagent.store import RunLog

T = TypeVar("T", bound=BaseModel)


class PromptCapture(BaseCallbackHandler):
    """Collects the messages of every chat-model call made while it is the current capture,
    including the repair call inside a structured call, in order (for the run log)."""

    def __init__(self) -> None:
        self.prompts: list[list[BaseMessage]] = []

    def on_chat_model_start(self, serialized: Any, messages: list[list[BaseMessage]], **kwargs: Any) -> None:
        self.prompts.append(list(messages[0]) if messages else [])


_node_var: ContextVar[str | None] = ContextVar("dsagent_node", default=None)
"""The node a call made on a background thread belongs to (:meth:`RunContext.ahead`)."""
_capture_var: ContextVar[PromptCapture | None] = ContextVar("dsagent_prompt_capture", default=None)
register_configure_hook(_capture_var, inheritable=True)


@contextmanager
def capture_prompts() -> Iterator[PromptCapture]:
    capture = PromptCapture()
    token = _capture_var.set(capture)
    try:
        yield capture
    finally:
        _capture_var.reset(token)


def messages_json(messages: list[BaseMessage]) -> str:
    """A prompt as the run log keeps it: ``[{"role": "system", "content": "..."}, ...]``."""
    return json.dumps([{"role": m.type, "content": m.content} for m in messages], ensure_ascii=False, default=str)


@dataclass
class ProgressEvent:
    kind: str  # "node_start", "node_end", "info"
    node: str = ""
    seconds: float = 0.0
    outcome: str = ""
    message: str = ""
    """node_end: the step's detail ("attempt 2: success"); info: the line to show."""


@dataclass
class RunContext:
    settings: "Settings"
    model: "BaseChatModel"
    model_label: str
    sandbox: "Sandbox"
    run_log: "RunLog"
    run_id: str
    workspace: Path
    progress: Callable[[ProgressEvent], None] = lambda _e: None
    datasets: "Mapping[str, Dataset]" = field(default_factory=dict)
    """The session's datasets (frames included), for nodes that profile data themselves."""
    redact: Callable[[list[BaseMessage]], list[BaseMessage]] | None = None
    """Masks the data's cell values in every prompt (data_sharing = schema); None sends prompts as built."""
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    _node: str = field(default="", repr=False)
    pending: dict[str, "Future[Any]"] = field(default_factory=dict, repr=False)
    """Work started ahead on a thread of its own (:meth:`ahead`), by key."""
    _cancels: dict[str, threading.Event] = field(default_factory=dict, repr=False)
    _lock: Any = field(default_factory=threading.Lock, repr=False)
    last_prompt: list[BaseMessage] | None = field(default=None, repr=False)
    """The messages of the run's last own model call (not work beside it): what the model's cache
    holds, for a node deciding whether to continue that conversation (``common.code.continues``)."""
    finished: bool = False
    """Whether :meth:`finish` has written the run's end (``Session.open_run`` finishes it otherwise)."""

    def finish(self, status: str, final_output: dict[str, Any] | None = None, error: str | None = None) -> None:
        """Write the run's end in the run log: ``status`` ok, error, failed or needs_review, with its final output."""
        self.run_log.finish_run(self.run_id, status, final_output=final_output, error=error)
        self.finished = True

    def _remember(self, messages: list[BaseMessage]) -> None:
        from dsagent.llm.lanes import is_beside

        if not is_beside():
            self.last_prompt = list(messages)

    def ahead(self, key: str, node: str, work: Callable[[], Any], own: bool = False) -> "Future[Any]":
        """Start ``work`` now on a thread of its own (its model calls are logged under ``node``),
        for a later node that takes it with :meth:`take_ahead`. Only worth it with a model that
        runs calls side by side (``parallel_calls`` > 1, e.g. the embedded model's lanes).
        The work runs beside the run (another lane, giving way to the run's reading) unless
        ``own``: a call the run would make next anyway, written while the run waits."""
        future: Future[Any] = Future()
        context = copy_context()
        cancel = threading.Event()

        def run() -> None:
            from dsagent.llm.lanes import beside, cancelled_by

            _node_var.set(node)
            try:
                with cancelled_by(cancel):
                    if own:
                        future.set_result(work())
                    else:
                        with beside():  # the embedded model: a lane other than the run's own
                            future.set_result(work())
            except BaseException as exc:  # noqa: BLE001 — handed to whoever takes it
                future.set_exception(exc)

        threading.Thread(target=context.run, args=(run,), name=f"dsagent-{key}", daemon=True).start()
        self.pending[key] = future
        self._cancels[key] = cancel
        return future

    def take_ahead(self, key: str) -> "Future[Any] | None":
        """The work started ahead under ``key`` (once), or None."""
        self._cancels.pop(key, None)
        return self.pending.pop(key, None)

    def cancel_ahead(self, key: str | None = None) -> None:
        """Stop the work started ahead under ``key`` (all of it when None) that no node will take:
        its embedded-model calls end at their next token, so they stop taking the cores (a call to
        another model runs to its end; its reply is dropped)."""
        for k in [key] if key is not None else list(self.pending):
            cancel = self._cancels.pop(k, None)
            if cancel is not None:
                cancel.set()
            self.pending.pop(k, None)

    def prefix_ready(self, messages: list[BaseMessage]) -> bool:
        """Whether the model has these messages' stable prefix read already (a side-by-side call
        then does not read the data profile a second time); False unless the model says."""
        holds = getattr(self.model, "holds_prefix", None)
        return bool(holds and holds(self._prepare(messages)))

    @property
    def parallel_calls(self) -> int:
        """How many model calls can run at once without waiting for each other (1 unless the model says)."""
        return int(getattr(self.model, "parallel_calls", 1) or 1)

    @contextmanager
    def step(self, node: str) -> Iterator[dict[str, str]]:
        """Record one node; the body may set ``outcome['outcome']`` and ``outcome['detail']``."""
        self._node = node
        step_id = self.run_log.start_step(self.run_id, node)
        self.progress(ProgressEvent("node_start", node))
        started = time.perf_counter()
        outcome = {"outcome": "ok", "detail": ""}
        try:
            yield outcome
        except BaseException as exc:
            outcome = {"outcome": "exception", "detail": f"{type(exc).__name__}: {exc}"}
            raise
        finally:
            seconds = time.perf_counter() - started
            self.run_log.finish_step(step_id, outcome["outcome"], seconds, outcome["detail"] or None)
            self.progress(ProgressEvent("node_end", node, seconds, outcome["outcome"], outcome["detail"]))

    def _record(self, replies: list[AIMessage], started: float, error: str | None = None,
                prompts: list[list[BaseMessage]] | None = None) -> None:
        latency = (time.perf_counter() - started) / max(1, len(replies))
        prompts = prompts or []
        for i, reply in enumerate(replies or [None]):  # type: ignore[list-item]
            usage = (getattr(reply, "usage_metadata", None) or {}) if reply is not None else {}
            p, c = int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0))
            cached = (usage.get("input_token_details") or {}).get("cache_read")
            with self._lock:
                self.llm_calls += 1
                self.prompt_tokens += p
                self.completion_tokens += c
            sent = prompts[i] if i < len(prompts) else (prompts[-1] if prompts else None)
            self.run_log.record_llm_call(
                self.run_id, node=_node_var.get() or self._node, model=self.model_label, prompt_tokens=p,
                completion_tokens=c, latency_s=latency, ok=error is None, error=error,
                prompt=messages_json(sent) if sent is not None else None,
                reply=str(reply.content) if reply is not None else None,
                cached_tokens=int(cached) if cached is not None else None,
                mode=(getattr(reply, "response_metadata", None) or {}).get("dsagent_structured") if reply is not None else None,
            )

    def _retried(self, retry: Any) -> None:
        """A remote call is about to be retried (``llm/guard.py``): logged as a failed call, shown as progress."""
        message = f"model call failed ({retry.problem}); retrying in {retry.wait_s:.1f} s (try {retry.attempt + 1} of {retry.max_attempts})"
        self.run_log.record_llm_call(self.run_id, node=self._node, model=self.model_label, prompt_tokens=0, completion_tokens=0,
                                     latency_s=0.0, ok=False, error=f"try {retry.attempt}: {retry.problem}; retried after {retry.wait_s:.1f} s")
        self.progress(ProgressEvent("info", self._node, message=message))

    @contextmanager
    def retries_logged(self) -> Iterator[None]:
        """Within this block, a remote model call's retries (llm/guard.py) are logged and shown as progress:
        :meth:`llm` and :meth:`llm_structured` use it; a node that calls the model itself (e.g. with tools) should too."""
        from dsagent.llm.guard import RETRY_LISTENER

        token = RETRY_LISTENER.set(self._retried)
        try:
            yield
        finally:
            RETRY_LISTENER.reset(token)

    def _prepare(self, messages: list[BaseMessage]) -> list[BaseMessage]:
        return self.redact(messages) if self.redact is not None else messages

    def llm(self, messages: list[BaseMessage], *, max_tokens: int | None = None, temperature: float | None = None) -> str:
        """One plain-text model call, recorded in the run log (with every retry of it)."""
        started = time.perf_counter()
        kwargs: dict[str, Any] = {"max_tokens": max_tokens} if max_tokens else {}
        if temperature is not None:
            kwargs["temperature"] = temperature
        self._remember(messages)
        messages = self._prepare(messages)
        try:
            with self.retries_logged():
                reply = self.model.invoke(messages, **kwargs)
        except DsagentError as exc:
            self._record([], started, str(exc), [messages])
            raise
        except Exception as exc:  # a provider's own exception family: timeouts, HTTP errors
            self._record([], started, str(exc), [messages])
            raise ProviderError(f"model call failed ({self.model_label}): {type(exc).__name__}: {exc}") from exc
        self._record([reply], started, prompts=[messages])
        return str(reply.content)

    def llm_structured(self, messages: list[BaseMessage], schema: type[T]) -> T:
        """One structured call (with at most one repair), every reply recorded."""
        from dsagent.errors import StructuredOutputError
        from dsagent.llm.structured import invoke_structured

        started = time.perf_counter()
        self._remember(messages)
        messages = self._prepare(messages)
        # The repair call inside is built there; the capture records what each call was sent.
        with capture_prompts() as capture:
            try:
                with self.retries_logged():
                    parsed, replies = invoke_structured(self.model, messages, schema)
            except StructuredOutputError as exc:
                self._record([], started, str(exc), capture.prompts or [messages])
                raise
            except DsagentError as exc:
                self._record([], started, str(exc), capture.prompts or [messages])
                raise
            except Exception as exc:
                self._record([], started, str(exc), capture.prompts or [messages])
                raise ProviderError(f"model call failed ({self.model_label}): {type(exc).__name__}: {exc}") from exc
        self._record(replies, started, prompts=capture.prompts or [messages])
        return parsed
