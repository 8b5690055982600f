"""The embedded model's lanes (llm/lanes.py): contexts that run calls side by side, each used by
one call at a time, lane 0 first, threads split while lanes run together. Fake contexts for the
pool's logic; the real model for replies side by side being the replies one after another."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage, SystemMessage

from dsagent.llm.lanes import Lanes, beside


class FakeContext:
    def __init__(self, index: int) -> None:
        self.index = index
        self._ctx = None  # no llama.cpp context: the thread split is only computed

    def eval(self, tokens):  # noqa: ANN001, ANN201
        return tokens


def test_calls_side_by_side_get_lanes_of_their_own_and_share_the_threads():
    loaded = []
    lanes = Lanes(lambda i: loaded.append(i) or FakeContext(i), size=2, threads=2)
    assert lanes.threads_now() == 2
    with lanes.acquire() as a:
        assert lanes.threads_now() == 2  # alone: every thread
        with lanes.acquire() as b:
            assert (a.index, b.index) == (0, 1) and lanes.threads_now() == 1 and lanes.busy == 2
        assert lanes.threads_now() == 2
    with lanes.acquire() as again:
        assert again.index == 0  # the lowest free lane: lane 0 holds the longest-lived prefix
    assert loaded == [0, 1]  # each lane loaded once


def test_work_beside_a_run_takes_the_highest_lane_and_leaves_lane_0_to_the_run():
    lanes = Lanes(FakeContext, size=2, threads=2)
    with lanes.acquire() as run:
        assert run.index == 0
    with beside(), lanes.acquire() as check:
        assert check.index == 1  # lane 0 is free, but a new lane loads: lane 0 keeps the run's cache
    with beside(), lanes.acquire() as check:
        assert check.index == 1  # both free: the highest
    with lanes.acquire() as run, beside(), lanes.acquire() as check:
        assert (run.index, check.index) == (0, 1)
    with beside(), lanes.acquire() as check, lanes.acquire() as run:
        assert (check.index, run.index) == (1, 0)


def test_a_call_waits_for_a_free_lane_when_all_are_busy():
    lanes = Lanes(FakeContext, size=1, threads=2)
    order = []

    def second() -> None:
        with lanes.acquire():
            order.append("second")

    with lanes.acquire():
        t = threading.Thread(target=second)
        t.start()
        time.sleep(0.2)
        order.append("first done")  # the second call has not run: one lane, one call
    t.join(5)
    assert order == ["first done", "second"]


def test_a_lane_that_fails_to_load_is_loaded_again_next_time():
    attempts = []

    def load(i: int) -> FakeContext:
        attempts.append(i)
        if len(attempts) == 1:
            raise RuntimeError("out of memory")
        return FakeContext(i)

    lanes = Lanes(load, size=2, threads=2)
    with pytest.raises(RuntimeError), lanes.acquire():
        pass
    with lanes.acquire() as ctx:
        assert ctx.index == 0 and lanes.busy == 1
    assert attempts == [0, 0] and lanes.busy == 0


class TimedContext(FakeContext):
    """Records each decode (lane, tokens, start, end); a decode of many tokens takes a while."""

    def __init__(self, index: int, log: list) -> None:
        super().__init__(index)
        self.log = log

    def eval(self, tokens):  # noqa: ANN001, ANN201
        start = time.perf_counter()
        time.sleep(0.3 if len(tokens) > 40 else 0.02)
        self.log.append((self.index, len(tokens), start, time.perf_counter()))


def test_work_beside_a_run_reads_in_pieces_that_wait_while_the_run_reads_its_prompt():
    log: list = []
    lanes = Lanes(lambda i: TimedContext(i, log), size=2, threads=2)
    with lanes.acquire(), beside(), lanes.acquire():
        pass  # both lanes loaded
    run_reading = threading.Event()

    def check() -> None:
        run_reading.wait(5)
        with beside(), lanes.acquire() as ctx:
            ctx.eval(list(range(100)))

    t = threading.Thread(target=check)
    t.start()
    with lanes.acquire() as run:
        run_reading.set()
        run.eval(list(range(600)))  # the run's own prompt
        run.eval([1])  # a generated token
    t.join(5)
    read = next(entry for entry in log if entry[0] == 0 and entry[1] == 600)
    pieces = [entry for entry in log if entry[0] == 1]
    assert [n for _, n, _, _ in pieces] == [32, 32, 32, 4]  # BESIDE_CHUNK tokens at a time
    assert all(start >= read[3] or end <= read[2] for _, _, start, end in pieces)  # never during the run's read


def test_a_run_reading_its_prompt_takes_every_thread_and_shares_them_while_it_generates():
    lanes = Lanes(FakeContext, size=2, threads=2)
    with lanes.acquire(), beside(), lanes.acquire():
        assert lanes.threads_now(reading=True) == 2  # work beside waits meanwhile
        assert lanes.threads_now() == 1
    with lanes.acquire(), lanes.acquire():  # two of the run's own calls (the web app's sessions)
        assert lanes.threads_now(reading=True) == 1


@pytest.mark.real_model
def test_two_calls_side_by_side_give_the_replies_they_give_one_after_another(local_spec):
    from dsagent.config import load_settings
    from dsagent.llm.registry import get_chat_model

    model = get_chat_model(local_spec, load_settings(local_lanes=2, local_prefix_cache=False))
    asks = [[SystemMessage("Answer with one word."), HumanMessage(q)] for q in ("Capital of France?", "Opposite of hot?")]
    alone = [model.invoke(m, max_tokens=8).content for m in asks]
    together: dict[int, str] = {}
    threads = [threading.Thread(target=lambda i=i: together.__setitem__(i, model.invoke(asks[i], max_tokens=8).content))
               for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [together[0], together[1]] == alone
    assert len(model._lanes()._lanes) == 2  # the second call had a context of its own


def test_work_started_ahead_stops_at_its_next_decode_when_no_node_will_take_it():
    from dsagent.llm.lanes import Cancelled
    from dsagent.runtime import RunContext

    lanes = Lanes(FakeContext, size=2, threads=2)
    decoded = []

    def generate() -> str:  # a long reply, token by token
        with lanes.acquire() as llm:
            for _ in range(500):
                llm.eval([1])
                decoded.append(1)
                time.sleep(0.01)
        return "the whole reply"

    ctx = RunContext(settings=None, model=None, model_label="test", sandbox=None, run_log=None,  # type: ignore[arg-type]
                     run_id="r", workspace=Path("."))
    future = ctx.ahead("explain", "node_6_explain", generate, own=True)
    ctx.ahead("check", "node_5_evaluate", lambda: "kept")
    time.sleep(0.1)
    ctx.cancel_ahead("explain")
    with pytest.raises(Cancelled):
        future.result(5)
    assert len(decoded) < 100 and "explain" not in ctx.pending  # stopped long before its 500 tokens
    assert ctx.take_ahead("check").result(5) == "kept"  # other work is not touched
    assert lanes.busy == 0
