"""Lanes: more than one llama.cpp context over one loaded model, so independent calls run side by side.

On a 2-core machine the embedded model *generates* at about the same speed on one thread as on
two (15 vs 16 tokens/s for the 1.5B model: each token waits on latency, not on the cores), while
*reading* a prompt is compute-bound (38 tokens/s on one thread, 62 on two). So two contexts, each
generating on its own thread, give about twice the throughput: two 50-token replies took 3.5 s side
by side against 7.7 s one after the other. A lane that runs alone uses every thread; lanes that
run together split them (set before each decode, so a lane speeds up again as soon as the other
finishes).

- The weights are memory-mapped once and shared; a lane costs its own KV cache and compute
  buffers (about 300 MB at 8,192 tokens for the 1.5B model). Extra lanes load on first need.
- A call takes a free lane (the lowest first: lane 0 holds the longest-lived prefix) or waits;
  one context never serves two calls at once, so concurrent callers (the web app's sessions, the
  LangGraph server) are safe with one lane too.
- Work started beside a run (``with beside():``, e.g. robust's cross-check written ahead) takes
  the highest lane instead, loading one if it may: the run's own calls keep lane 0, whose cache
  still holds their conversation (a fix continues the prompt and code it follows).
- Each lane has its own prefix cache; saved prefixes (the data profile) are shared in memory, so
  a lane restores a profile another lane read.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

_BESIDE: ContextVar[bool] = ContextVar("dsagent_lane_beside", default=False)


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

    def threads_now(self) -> int:
        """Threads for a lane's next decode: all of them alone, a share when others run."""
        return max(1, self.threads // max(1, self._busy))

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
            self._free.append(index)
            self._cond.notify()


def _split_threads(llm: Any, lanes: Lanes) -> None:
    """Before each decode, the lane takes the threads it may use now (see the module notes)."""
    original = llm.eval
    state = {"threads": None}

    def eval(tokens: Any) -> Any:
        n = lanes.threads_now()
        if n != state["threads"] and getattr(llm, "_ctx", None) is not None:
            import llama_cpp

            llama_cpp.llama_set_n_threads(llm._ctx.ctx, n, n)
            state["threads"] = n
        return original(tokens)

    llm.eval = eval
