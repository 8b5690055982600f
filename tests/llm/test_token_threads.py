"""Threads for a generated token, chosen by measured speed (llm/token_threads.py), and the lanes
that use the choice only for a lane generating alone (llm/lanes.py)."""

from __future__ import annotations

import time

from dsagent.llm import token_threads
from dsagent.llm.lanes import Lanes
from dsagent.llm.token_threads import PROBE, TokenThreads, configure_openmp


def _run(choice: TokenThreads, seconds: dict[int, float], tokens: int) -> list[int]:
    used = []
    for _ in range(tokens):
        threads = choice.choose()
        choice.record(threads, seconds[threads])
        used.append(threads)
    return used


def test_both_counts_are_tried_first_then_the_faster_one_is_kept_with_a_probe_of_the_other():
    choice = TokenThreads(2)
    used = _run(choice, {2: 0.040, 1: 0.058}, 2 + 3 * PROBE)
    assert used[:2] == [2, 1]
    rest = used[2:]
    assert rest.count(1) == 3 and rest.count(2) == 3 * PROBE - 3  # one probe in every PROBE tokens
    assert [i for i, t in enumerate(rest) if t == 1] == [PROBE - 1, 2 * PROBE - 1, 3 * PROBE - 1]


def test_the_choice_follows_the_machine_when_another_process_takes_the_cores():
    choice = TokenThreads(2)
    _run(choice, {2: 0.040, 1: 0.058}, 100)  # quiet: two threads
    used = _run(choice, {2: 0.110, 1: 0.060}, 4 * PROBE)  # loaded: two spinning threads slow down
    assert used[-PROBE:].count(1) >= PROBE - 1  # one thread, with a probe of two
    used = _run(choice, {2: 0.040, 1: 0.058}, 8 * PROBE)  # quiet again
    assert used[-PROBE:].count(2) >= PROBE - 1


def test_one_thread_machines_never_choose():
    choice = TokenThreads(1)
    assert _run(choice, {1: 0.05}, 5) == [1] * 5


class Ctx:
    _ctx = None

    def eval(self, tokens):  # noqa: ANN001, ANN201
        return tokens


def test_only_a_lane_generating_alone_uses_the_choice():
    lanes = Lanes(lambda i: Ctx(), size=2, threads=2)
    lanes.token_threads.seconds = {2: 0.1, 1: 0.01}  # one thread measured faster
    with lanes.acquire():
        with lanes.decoding(1, False) as threads:
            assert threads == 1  # alone, one token: the measured choice
        with lanes.decoding(500, False) as threads:
            assert threads == 2  # reading a prompt: every thread
        with lanes.acquire(), lanes.decoding(1, False) as threads:
            assert threads == 1  # two lanes busy: the split, not the choice
    assert set(lanes.token_threads.seconds) == {1, 2}


def test_a_decode_is_timed_into_the_figure_of_the_count_it_used():
    lanes = Lanes(lambda i: Ctx(), size=1, threads=2)
    lanes.token_threads.seconds = {2: 1.0, 1: 1.0}
    with lanes.acquire(), lanes.decoding(1, False) as threads:
        time.sleep(0.05)
    assert lanes.token_threads.seconds[threads] < 1.0  # moved towards the measured 0.05 s
    assert lanes.token_threads.seconds[3 - threads] == 1.0


def test_openmp_threads_spin_briefly_unless_the_user_chose_how_they_wait():
    env: dict[str, str] = {}
    configure_openmp(env)
    assert env == {"GOMP_SPINCOUNT": token_threads.SPIN_COUNT}
    env = {"OMP_WAIT_POLICY": "PASSIVE"}
    configure_openmp(env)
    assert env == {"OMP_WAIT_POLICY": "PASSIVE"}
    env = {"GOMP_SPINCOUNT": "50"}
    configure_openmp(env)
    assert env == {"GOMP_SPINCOUNT": "50"}
