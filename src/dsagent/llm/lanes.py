"""Lanes: more than one llama.cpp context over one loaded model, so independent calls run side by side.

Generating one token is bound by waiting, not by compute, on few cores, while reading a prompt is
compute-bound; so two contexts that each generate on their own thread give more throughput than
one after the other (figures: docs/history.md, "Lanes"). A lane that runs alone uses every
thread; lanes that run together split them (set before each decode, so a lane speeds up again as
soon as the other finishes).

- The weights are memory-mapped once and shared; a lane costs its own KV cache and compute
  buffers. Extra lanes load on first need.
- A call takes a free lane (the lowest first: lane 0 holds the longest-lived prefix) or waits;
  one context never serves two calls at once, so concurrent callers (the web app's sessions, the
  LangGraph server) are safe with one lane too.
- Work started beside a run (``with beside():``, e.g. robust's cross-check written ahead) takes
  the highest lane instead, loading one if it may: the run's own calls keep lane 0, whose cache
  still holds their conversation (a fix continues the prompt and code it follows).
- Each lane has its own prefix cache; saved prefixes (the data profile) are shared in memory, so
  a lane restores a profile another lane read.
- **The run's own prompt reading goes first.** Two lanes reading at once each go at half speed,
  and the run would wait on its own call while work beside it (which a later node takes) reads.
  So work beside a run reads its prompt in short pieces (``BESIDE_CHUNK`` tokens) and pauses,
  before each piece and each generated token, while one of the run's own lanes reads a prompt; a
  run's lane that starts reading waits for the piece in flight, then reads with every thread. A
  run's lane that generates still shares the cores with work beside it (more throughput in all,
  at some cost to the run's own call).
- A lane alone generates with as many threads as are fastest now (llm/token_threads.py).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from dsagent.llm.token_threads import TokenThreads

_BESIDE: ContextVar[bool] = ContextVar("dsagent_lane_beside", default=False)
_CANCEL: ContextVar[threading.Event | None] = ContextVar("dsagent_lane_cancel", default=None)


class Cancelled(RuntimeError):
    """A call made for work started ahead was stopped: no node will take its reply."""


@contextmanager
def cancelled_by(event: threading.Event) -> Iterator[None]:
    """Calls made inside stop at their next decode once ``event`` is set (``RunContext.cancel_ahead``)."""
    token = _CANCEL.set(event)
    try:
        yield
    finally:
        _CANCEL.reset(token)


@contextmanager
def beside() -> Iterator[None]:
    """Calls made inside take the highest lane (work beside a run, see the module notes)."""
    token = _BESIDE.set(True)
    try:
        yield
    finally:
        _BESIDE.reset(token)


def is_beside() -> bool:
    """Whether this call is work beside a run (:func:`beside`), not one of the run's own calls."""
    return _BESIDE.get()


class Lanes:
    """The contexts of one loaded model; ``load(index)`` makes lane ``index``."""

    def __init__(self, load: Callable[[int], Any], size: int, threads: int) -> None:
        self._load = load
        self.size = max(1, size)
        self.threads = max(1, threads)
        self._lanes: list[Any] = []
        """Loaded lanes, by index (None while one loads)."""
        self._free: list[int] = []
        self._busy = 0
        self._cond = threading.Condition()
        self._beside_busy = 0
        """Lanes taken by work beside a run."""
        self._beside_decoding = 0
        self._reading = 0
        """The run's own lanes (not work beside it) reading a prompt now, or about to."""
        self.token_threads = TokenThreads(self.threads)
        """Threads a lane alone generates with (llm/token_threads.py)."""

    @property
    def busy(self) -> int:
        return self._busy

    def first(self) -> Any:
        """Lane 0, loaded if need be (for tokenizing: the vocabulary is the model's, shared)."""
        with self._cond:
            if self._lanes and self._lanes[0] is not None:
                return self._lanes[0]
        with self.acquire() as llm:
            return llm

    def threads_now(self, reading: bool = False) -> int:
        """Threads for a lane's next decode: all of them alone, a share when others run; a run's
        own lane reading a prompt shares only with the run's other lanes (work beside waits)."""
        return max(1, self.threads // max(1, self._busy - (self._beside_busy if reading else 0)))

    @contextmanager
    def decoding(self, n_tokens: int, beside_work: bool) -> Iterator[int]:
        """Around one decode of ``n_tokens``; yields the threads it may use (see the module notes:
        work beside a run waits while the run's own lanes read a prompt)."""
        reading = n_tokens > 1 and not beside_work
        with self._cond:
            if reading:
                self._reading += 1
                while self._beside_decoding:  # at most one short piece in flight
                    self._cond.wait()
            elif beside_work:
                while self._reading:
                    self._cond.wait()
            threads = self.threads_now(reading)
            self._beside_decoding += beside_work
        chosen = n_tokens == 1 and threads == self.threads > 1  # alone, generating: by measured speed
        if chosen:
            threads = self.token_threads.choose()
        started = time.perf_counter()
        try:
            yield threads
            if chosen:
                self.token_threads.record(threads, time.perf_counter() - started)
        finally:
            with self._cond:
                self._beside_decoding -= beside_work
                self._reading -= reading
                self._cond.notify_all()

    @contextmanager
    def acquire(self) -> Iterator[Any]:
        index = self._take()
        try:
            llm = self._lanes[index] if self._lanes[index] is not None else self._make(index)
            yield llm
        finally:
            self._give(index)

    def _take(self) -> int:
        high = _BESIDE.get()
        with self._cond:
            while not self._free and len(self._lanes) >= self.size:
                self._cond.wait()
            self._busy += 1
            self._beside_busy += high
            if self._free and not (high and len(self._lanes) < self.size):
                self._free.sort()
                return self._free.pop(-1 if high else 0)
            self._lanes.append(None)  # reserved: loaded outside the lock
            return len(self._lanes) - 1

    def _make(self, index: int) -> Any:
        llm = self._load(index)  # on failure the slot stays empty: the next call loads it again
        _split_threads(llm, self)
        with self._cond:
            self._lanes[index] = llm
        return llm

    def _give(self, index: int) -> None:
        with self._cond:
            self._busy -= 1
            self._beside_busy -= _BESIDE.get()
            self._free.append(index)
            self._cond.notify_all()  # a lane is free; work beside may be waiting on the same condition


BESIDE_CHUNK = 32
"""Prompt tokens work beside a run reads at a time (about 0.5 s on one thread of this machine's
CPU): how long a run's own lane that starts reading may wait for the piece in flight."""


def _split_threads(llm: Any, lanes: Lanes) -> None:
    """Before each decode, the lane takes the threads it may use now, and work beside a run reads
    in pieces that give way to the run's own reading (see the module notes)."""
    original = llm.eval
    state = {"threads": None}

    def decode(tokens: Any, beside_work: bool) -> Any:
        cancel = _CANCEL.get()
        if cancel is not None and cancel.is_set():
            raise Cancelled("stopped: work started ahead that no node will take")
        with lanes.decoding(len(tokens), beside_work) as n:
            if n != state["threads"] and getattr(llm, "_ctx", None) is not None:
                import llama_cpp

                llama_cpp.llama_set_n_threads(llm._ctx.ctx, n, n)
                state["threads"] = n
            return original(tokens)

    def eval(tokens: Any) -> Any:
        if not _BESIDE.get():
            return decode(tokens, False)
        tokens = list(tokens)
        for start in range(0, max(1, len(tokens)), BESIDE_CHUNK):  # llama-cpp's eval appends: pieces read as one
            decode(tokens[start:start + BESIDE_CHUNK], True)
        return None

    llm.eval = eval
