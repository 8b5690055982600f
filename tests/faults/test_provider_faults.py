"""Provider faults end in a typed, explained result within their limits (issue 24, part 1).

A real HTTP server (tests/fake_openai.py) on 127.0.0.1 plays an OpenAI-compatible provider that
fails in each way; `dsagent ask` runs against it in-process with small timeouts. A provider at
fault ends with exit 3 and one line that says what happened; retries back off, are written to
the run log, and the whole call stays within DSAGENT_LLM_TOTAL_TIMEOUT_S.
"""

from __future__ import annotations

import re

import pytest
from fake_openai import FakeOpenAI, refused_url

from dsagent.cli.main import main
from dsagent.config import load_settings
from dsagent.llm.guard import RetryPolicy, call_with_retries
from dsagent.store import RunLog

PLAN = '{"reasoning": "sum", "needs_code": true, "needs_evaluation": false, "needs_explanation": true}'


@pytest.fixture(autouse=True)
def fast_limits(monkeypatch):
    monkeypatch.setenv("DSAGENT_LLM_TIMEOUT_S", "1.5")
    monkeypatch.setenv("DSAGENT_LLM_TOTAL_TIMEOUT_S", "4")
    monkeypatch.setenv("DSAGENT_LLM_MAX_ATTEMPTS", "2")
    monkeypatch.setenv("DSAGENT_VERIFY", "0")  # the fake server's replies are counted: no independent check among them


def ask(url: str, csv, capsys) -> tuple[int, str]:
    """`dsagent ask` against the provider at ``url``: exit code and stderr."""
    code = main(["ask", str(csv), "How many units in total?", "--model", f"openai-compatible:m@{url}"])
    return code, capsys.readouterr().err


def last_run_calls() -> list[dict]:
    log = RunLog(load_settings().db_url)
    return log.llm_calls(log.recent_runs(1)[0]["id"])


def failed_node_seconds() -> float:
    """How long the node whose model call failed ran (the run log's step): the part the limits bound.
    (The command's own end — closing the sandbox worker — is not, and is slow on a busy machine.)"""
    log = RunLog(load_settings().db_url)
    steps = log.steps(log.recent_runs(1)[0]["id"])
    return next(s["duration_s"] for s in reversed(steps) if s["outcome"] == "exception")


FAULTS = {
    "500": "failed with HTTP 500",
    "invalid_json": "not a chat completion",
    "wrong_shape": "not a chat completion",
    "truncated": "broke before the reply was complete",
    "empty_body": "not a chat completion",
}


@pytest.mark.parametrize("mode", list(FAULTS))
def test_a_failing_provider_is_retried_once_then_exit_3(mode, sales_csv, capsys):
    with FakeOpenAI([mode]) as fake:
        code, err = ask(fake.url, sales_csv, capsys)
    assert code == 3, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("dsagent: error: ") and FAULTS[mode] in last and "TypeError" not in last.split("(")[0]
    assert "gave up after 2 tries" in last
    assert len(fake.requests) == 2 and fake.requests[1] - fake.requests[0] >= 0.9  # backed off ~1 s
    assert "retrying in 1.0 s (try 2 of 2)" in err  # shown while it runs
    calls = last_run_calls()
    assert [c["ok"] for c in calls] == [0, 0] and "retried after 1.0 s" in calls[0]["error"]
    assert failed_node_seconds() < 4 + 0.5  # DSAGENT_LLM_TOTAL_TIMEOUT_S


def test_an_empty_reply_is_retried_then_a_provider_error(sales_csv, capsys):
    with FakeOpenAI([f"ok:{PLAN}", "empty"]) as fake:
        code, err = ask(fake.url, sales_csv, capsys)
    assert code == 3 and "returned an empty reply" in err.splitlines()[-1]
    assert len(fake.requests) == 3  # the plan, then the code call twice


def test_429_waits_as_long_as_retry_after_says(sales_csv, capsys, monkeypatch):
    monkeypatch.setenv("DSAGENT_LLM_MAX_ATTEMPTS", "3")
    with FakeOpenAI(["429:2", "429:3"]) as fake:
        code, err = ask(fake.url, sales_csv, capsys)
    assert code == 3 and "rate limiting (HTTP 429)" in err
    gaps = [b - a for a, b in zip(fake.requests, fake.requests[1:])]
    assert gaps[0] >= 1.9  # Retry-After: 2, not our 1 s back-off
    assert len(fake.requests) == 2  # waiting 3 s more would pass the 4 s total: given up, and said so
    assert "DSAGENT_LLM_TOTAL_TIMEOUT_S" in err.splitlines()[-1]


def test_a_hanging_provider_is_given_up_within_the_total_timeout(sales_csv, capsys):
    with FakeOpenAI(["hang"], hang_s=30) as fake:
        code, err = ask(fake.url, sales_csv, capsys)
    assert code == 3
    assert "no reply from the model server" in err and re.search(r"within 1(\.\d)? s", err.splitlines()[-1])
    assert len(fake.requests) == 2
    assert failed_node_seconds() < 4 + 0.5  # DSAGENT_LLM_TOTAL_TIMEOUT_S=4, not 2 x 120 s


def test_a_refused_connection_says_where_and_what_to_check(sales_csv, capsys):
    url = refused_url()
    code, err = ask(url, sales_csv, capsys)
    assert code == 3
    last = err.splitlines()[-1]
    assert f"cannot reach the model server at {url}" in last and "is the server running" in last


@pytest.mark.parametrize(("mode", "words"), [("401", "refused the credentials (HTTP 401)"), ("404", "HTTP 404")])
def test_a_client_error_is_not_retried(mode, words, sales_csv, capsys):
    with FakeOpenAI([mode]) as fake:
        code, err = ask(fake.url, sales_csv, capsys)
    assert code == 3 and words in err.splitlines()[-1] and "gave up after 1 try" in err
    assert len(fake.requests) == 1


def test_a_provider_that_recovers_gives_the_answer(sales_csv, capsys):
    with FakeOpenAI(["500", f"ok:{PLAN}", "ok:result = int(df['units'].sum())", "ok:The total is computed."]) as fake:
        code, err = ask(fake.url, sales_csv, capsys)
    assert code == 0, err
    assert len(fake.requests) == 4
    calls = last_run_calls()
    assert [c["ok"] for c in calls] == [0, 1, 1, 1]  # the failed try is in the run log


def test_the_total_timeout_bounds_every_try_and_wait():
    """Unit: a fake clock shows that the tries and waits never pass the total, whatever the tries allow."""
    now = [0.0]
    waits: list[float] = []

    def failing() -> None:
        now[0] += 0.5
        raise ConnectionError("refused")

    def sleep(s: float) -> None:
        waits.append(s)
        now[0] += s

    from dsagent.errors import ProviderError

    with pytest.raises(ProviderError, match="DSAGENT_LLM_TOTAL_TIMEOUT_S"):
        call_with_retries(failing, RetryPolicy(attempt_timeout_s=5, total_timeout_s=10, max_attempts=10), "X", clock=lambda: now[0], sleep=sleep)
    assert waits == [1.0, 2.0, 4.0] and now[0] <= 10


# --- faults in what the model says (scripted model): the workflows end within their limits ---


@pytest.mark.parametrize("workflow", ["quick", "robust"])
def test_truncated_and_empty_replies_end_in_a_typed_result(workflow, script_file, sales_csv, capsys):
    truncated = '{"reasoning": "sum", "needs_co'
    spec = script_file([truncated, "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", ""] * 3)
    code = main(["ask", str(sales_csv), "How many units?", "--model", spec, "--workflow", workflow, "--json"])
    err = capsys.readouterr().err
    assert code in (0, 3, 4), err  # an answer, the error node (4), or replies ran out (3): never a crash
    assert "internal error" not in err


def test_a_model_that_acts_forever_stops_at_the_loop_limit(script_file, sales_csv, capsys, monkeypatch):
    monkeypatch.setenv("DSAGENT_REACT_MAX_LOOPS", "3")
    act = {"rationale": "more", "next_action": "act", "instruction": "sum units", "question": None, "assumption": None}
    steps = [reply for n in range(3) for reply in ({**act, "instruction": f"step {n}"}, f"result = {n}")]
    spec = script_file(steps + [act, {"title": "t", "sections": [], "suggestions": []}])
    code = main(["ask", str(sales_csv), "sum the units", "--model", spec, "--workflow", "react", "--json"])
    out = capsys.readouterr().out
    assert code == 0 and '"output_type": "limit"' in out
