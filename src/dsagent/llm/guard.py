"""One retry and deadline policy for every call to a remote model provider.

The registry wraps each remote chat model (openai, openai-compatible, anthropic, ollama) in a
:class:`GuardedChatModel`. A call is tried at most ``llm_max_attempts`` times; each try may take
``llm_timeout_s``; a failure that may pass (connection refused, timeout, HTTP 5xx, 429, a reply
that is not a chat completion, an empty reply) is retried after a back-off (1 s, 2 s, 4 s … or
the server's ``Retry-After``); one that will not (401, 403, 404, 400) ends at once, and so does a
refusal of a request field the server lacks (:mod:`dsagent.llm.capabilities`: the caller degrades). Everything a
call does — tries and waits — stays within ``llm_total_timeout_s``: that one setting bounds how
long a model call can keep a run waiting. Then a :class:`ProviderError` says what happened.

Each retry is reported to whoever listens (:data:`RETRY_LISTENER`, set by the run context), which
writes it to the run log and shows it as progress.
"""

from __future__ import annotations

import contextvars
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import ConfigDict

from dsagent.errors import DsagentError, ProviderError
from dsagent.llm.capabilities import FeatureRefused, refusal

BACKOFF_FIRST_S = 1.0
BACKOFF_MAX_S = 30.0


@dataclass(frozen=True)
class RetryPolicy:
    attempt_timeout_s: float
    """One try: seconds before it is given up (``llm_timeout_s``)."""
    total_timeout_s: float
    """The whole call, tries and waits together (``llm_total_timeout_s``)."""
    max_attempts: int = 3
    """Tries at most (``llm_max_attempts``)."""
    backoff_s: float = BACKOFF_FIRST_S
    """The first wait; it doubles each retry, up to :data:`BACKOFF_MAX_S`."""

    @classmethod
    def from_settings(cls, settings: Any) -> "RetryPolicy":
        return cls(settings.llm_timeout_s, settings.llm_total_timeout_s, settings.llm_max_attempts)


@dataclass(frozen=True)
class Retry:
    """What a listener is told before a retry's wait."""

    attempt: int
    max_attempts: int
    problem: str
    wait_s: float


RETRY_LISTENER: contextvars.ContextVar[Callable[[Retry], None] | None] = contextvars.ContextVar("dsagent_retry_listener", default=None)


@dataclass(frozen=True)
class Fault:
    problem: str
    """What went wrong, in words: ``HTTP 500 from the provider``."""
    retryable: bool
    retry_after_s: float | None = None


class _Timeout(Exception):
    pass


class _EmptyReply(Exception):
    pass


def _names(exc: BaseException) -> set[str]:
    """The exception's class names and its causes' (a client wraps the transport's error)."""
    names: set[str] = set()
    seen = 0
    while exc is not None and seen < 5:
        names |= {cls.__name__ for cls in type(exc).__mro__}
        exc, seen = exc.__cause__ or exc.__context__, seen + 1  # type: ignore[assignment]
    return names


def _status(exc: BaseException) -> int | None:
    code = getattr(exc, "status_code", None)
    if isinstance(code, int):
        return code
    response = getattr(exc, "response", None)
    code = getattr(response, "status_code", None)
    return code if isinstance(code, int) else None


def _retry_after(exc: BaseException) -> float | None:
    headers = getattr(getattr(exc, "response", None), "headers", None) or {}
    raw = headers.get("retry-after") if hasattr(headers, "get") else None
    try:
        return max(0.0, float(raw)) if raw is not None else None
    except ValueError:
        return None  # an HTTP date: fall back to our own back-off


def _seconds(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def classify(exc: BaseException, where: str, timeout_s: float) -> Fault:
    """Say what a failed try means and whether another may succeed."""
    names = _names(exc)
    status = _status(exc)
    detail = " ".join(str(exc).split())[:200]
    if isinstance(exc, _Timeout) or names & {"APITimeoutError", "TimeoutException", "ReadTimeout", "ConnectTimeout", "TimeoutError"}:
        return Fault(f"no reply from {where} within {_seconds(timeout_s)} s", True)
    if isinstance(exc, _EmptyReply):
        return Fault(f"{where} returned an empty reply", True)
    if status == 429:
        return Fault(f"{where} is rate limiting (HTTP 429)", True, _retry_after(exc))
    if status is not None and 200 <= status < 300 or "APIResponseValidationError" in names:
        return Fault(f"{where} sent a reply that is not a chat completion ({detail})", True)
    if status is not None and (status >= 500 or status == 408):
        return Fault(f"{where} failed with HTTP {status}: {detail}", True, _retry_after(exc))
    if status in (401, 403):
        return Fault(f"{where} refused the credentials (HTTP {status}): check the API key (OPENAI_API_KEY / ANTHROPIC_API_KEY)", False)
    if status == 404:
        return Fault(f"{where} does not know this model or path (HTTP 404): check the model name and the base URL", False)
    if status is not None:
        return Fault(f"{where} rejected the request (HTTP {status}): {detail}", False)
    if names & {"RemoteProtocolError", "IncompleteRead", "ReadError"}:
        return Fault(f"the connection to {where} broke before the reply was complete", True)
    if names & {"APIConnectionError", "ConnectError", "ConnectionError"}:
        return Fault(f"cannot reach {where} ({detail}): is the server running and the URL right?", True)
    if isinstance(exc, (json.JSONDecodeError, TypeError, KeyError, AttributeError, IndexError, ValueError)):
        return Fault(f"{where} sent a reply that is not a chat completion ({type(exc).__name__}: {detail})", True)
    return Fault(f"{where} failed: {type(exc).__name__}: {detail}", True)


def _run_with_timeout(fn: Callable[[], Any], timeout_s: float) -> Any:
    """Run ``fn`` on a daemon thread and stop waiting after ``timeout_s`` (the thread ends with the
    client's own timeout; a daemon thread never holds up the process's exit)."""
    box: dict[str, Any] = {}
    ctx = contextvars.copy_context()

    def target() -> None:
        try:
            box["value"] = ctx.run(fn)
        except BaseException as exc:  # handed to the caller
            box["error"] = exc

    thread = threading.Thread(target=target, name="dsagent-model-call", daemon=True)
    thread.start()
    thread.join(max(0.0, timeout_s))
    if thread.is_alive():
        raise _Timeout()
    if "error" in box:
        raise box["error"]
    return box.get("value")


def call_with_retries(fn: Callable[[], Any], policy: RetryPolicy, where: str, clock: Callable[[], float] = time.monotonic,
                      sleep: Callable[[float], None] = time.sleep) -> Any:
    """``fn()`` under ``policy``: retried with back-off, never past ``policy.total_timeout_s``."""
    started = clock()
    deadline = started + policy.total_timeout_s
    attempt = 0
    while True:
        attempt += 1
        timeout = min(policy.attempt_timeout_s, deadline - clock())
        try:
            return _run_with_timeout(fn, timeout)
        except DsagentError:
            raise
        except Exception as exc:
            feature = refusal(exc)
            if feature is not None:  # what the server lacks, not a fault: the caller degrades (llm/capabilities.py)
                raise FeatureRefused(f"{where} does not support this {feature} ({' '.join(str(exc).split())[:200]})", feature) from exc
            fault = classify(exc, where, timeout)
            cause = exc
        spent = clock() - started
        ending = f"{fault.problem} (gave up after {attempt} {'try' if attempt == 1 else 'tries'} in {spent:.0f} s"
        if not fault.retryable:
            raise ProviderError(ending + ")") from cause
        if attempt >= policy.max_attempts:
            raise ProviderError(ending + f"; at most {policy.max_attempts} tries: DSAGENT_LLM_MAX_ATTEMPTS)") from cause
        wait = fault.retry_after_s if fault.retry_after_s is not None else min(BACKOFF_MAX_S, policy.backoff_s * 2 ** (attempt - 1))
        if clock() + wait + 0.1 >= deadline:
            raise ProviderError(ending + f"; the next try would pass the {policy.total_timeout_s:.0f} s limit on one model call: "
                                "DSAGENT_LLM_TOTAL_TIMEOUT_S)") from cause
        listener = RETRY_LISTENER.get()
        if listener is not None:
            listener(Retry(attempt, policy.max_attempts, fault.problem, wait))
        sleep(wait)


class GuardedChatModel(BaseChatModel):
    """A remote chat model whose every call goes through :func:`call_with_retries`."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    inner: BaseChatModel
    policy: RetryPolicy
    where: str
    """How messages name the provider: ``the model server at http://…``."""
    sampling: bool = False
    """Send the in-process model's sampling fields (llm/sampling.py) so that a server's own defaults
    do not change the decoding (``openai-compatible:`` servers)."""

    @property
    def _llm_type(self) -> str:
        return "dsagent-guarded"

    @property
    def model_name(self) -> str:
        for attr in ("model_name", "model"):
            value = getattr(self.inner, attr, None)
            if isinstance(value, str) and value:
                return value
        return type(self.inner).__name__

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        def once(inner: BaseChatModel) -> AIMessage:
            reply = inner.invoke(messages, stop=stop, **kwargs)
            if not isinstance(reply, AIMessage):
                raise TypeError(f"expected a chat message, got {type(reply).__name__}")
            if not str(reply.content).strip() and not getattr(reply, "tool_calls", None):
                raise _EmptyReply()
            return reply

        return ChatResult(generations=[ChatGeneration(message=self._call(once, kwargs.get("max_tokens")))])

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        """The provider's native structured output, under the same retries and deadline."""
        from langchain_core.runnables import RunnableLambda

        return RunnableLambda(lambda value: self._call(lambda inner: inner.with_structured_output(schema, **kwargs).invoke(value)))

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        """Tool calling through the provider's own binding, under the same retries and deadline."""
        from langchain_core.runnables import RunnableLambda

        return RunnableLambda(lambda value: self._call(lambda inner: inner.bind_tools(tools, **kwargs).invoke(value)))

    def _tuned(self, dropped: set[str], max_tokens: int | None) -> tuple[BaseChatModel, set[str]]:
        """The inner model with the in-process sampling fields the server has not refused (nor
        ``dropped``), and which capability groups they are (none unless :attr:`sampling`)."""
        if not self.sampling:
            return self.inner, set()
        from dsagent.llm import capabilities
        from dsagent.llm.sampling import server_fields

        update, sent = server_fields(capabilities.refused(self) | dropped, max_tokens)
        return (self.inner.model_copy(update=update) if update else self.inner), sent

    def _call(self, run: Callable[[BaseChatModel], Any], max_tokens: int | None = None) -> Any:
        """``run(inner)`` under the retry policy. A refusal that names a sampling field sent drops
        its group for this server and model for the rest of the process, and the call is made
        again at once without it. An HTTP 400/422 that names nothing while sampling fields were sent
        is tried once more without them, and they are remembered as refused only if that works."""
        from dsagent.llm import capabilities

        dropped: set[str] = set()
        unconfirmed: set[str] = set()
        while True:
            inner, sent = self._tuned(dropped, max_tokens)
            try:
                result = call_with_retries(lambda inner=inner: run(inner), self.policy, self.where)
            except FeatureRefused as exc:
                if exc.feature not in sent:
                    raise
                capabilities.note_refused(self, exc.feature)
                continue
            except ProviderError as exc:
                if not sent or _status(exc.__cause__) not in (400, 422):
                    raise
                dropped |= sent
                unconfirmed |= sent
                continue
            for feature in unconfirmed:
                capabilities.note_refused(self, feature)
            return result


def unwrap(model: Any) -> Any:
    """The provider's own model inside a guard (for checks such as "has native structured output")."""
    return getattr(model, "inner", model) if isinstance(model, GuardedChatModel) else model
