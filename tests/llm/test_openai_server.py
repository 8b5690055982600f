"""Every workflow through a real OpenAI-protocol server (issue 42): llama-cpp-python's own server
(`python -m llama_cpp.server`) serving the embedded model on 127.0.0.1, driven as
`openai-compatible:<name>@http://127.0.0.1:<port>/v1`.

That server takes ``response_format`` ``json_object`` (with a schema it holds the reply to by
grammar) but refuses ``json_schema`` (HTTP 500), and writes tool calls as text: so structured
calls run in JSON mode after one refusal and the assistant routes like the embedded model. A thin
proxy in front of it that refuses every ``response_format`` covers the plain-prompt mode. Each test
records its seconds and modes in ``OPENAI_SERVER_TIMES`` (a file, when set) for docs/benchmarks.md.
Slow (the real model): marked ``real_model`` and ``openai_server``; CI runs them."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Iterator

import pandas as pd
import pytest

from dsagent.config import load_settings
from dsagent.llm import capabilities
from dsagent.store import RunLog

pytestmark = [pytest.mark.real_model, pytest.mark.openai_server]

QUESTION = "What is the total number of units sold? Give the number."
PROBE = ("Write pandas code that sets result to the total population of Africa in 1952 from df "
         "(columns country, continent, year, pop). Only code.")
"""A request whose reply llama-cpp-python's server writes differently with its default repeat_penalty 1.1."""
REFUSED = ("1 validation error: {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), "
           "'msg': 'response_format is not supported by this server'}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(local_spec: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """llama-cpp-python's server on a free loopback port, serving the embedded model; its base URL.
    Its OpenMP threads spin briefly before they sleep, as the in-process model's do
    (llm/token_threads.py): with libgomp's default a loaded machine makes each token take seconds."""
    try:
        import uvicorn  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("CI must run the OpenAI-server tests, but llama-cpp-python's server extra is missing (uv sync --group dev)")
        pytest.skip("llama-cpp-python's server needs the dev group (uv sync --group dev)")
    from dsagent.llm.token_threads import configure_openmp

    port = _free_port()
    log = (tmp_path_factory.mktemp("server") / "server.log").open("w")
    cmd = [sys.executable, "-m", "llama_cpp.server", "--model", local_spec.split(":", 1)[1], "--host", "127.0.0.1",
           "--port", str(port), "--n_ctx", str(load_settings().local_n_ctx), "--n_threads", str(os.cpu_count() or 2)]
    env = dict(os.environ)
    configure_openmp(env)
    proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"{url}/models", timeout=2):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"llama_cpp.server did not start (exit {proc.poll()}): {Path(log.name).read_text()[-2000:]}")
                time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)
        log.close()


class RefusingProxy:
    """A loopback proxy to ``upstream`` that refuses any ``response_format`` with HTTP 500 naming it."""

    def __init__(self, upstream: str) -> None:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if json.loads(raw or b"{}").get("response_format"):
                    proxy.refused += 1
                    self._send(500, json.dumps({"error": {"message": REFUSED, "type": "internal_server_error"}}).encode(), "application/json")
                    return
                request = urllib.request.Request(upstream + self.path.removeprefix("/v1"), data=raw,
                                                 headers={"Content-Type": "application/json"}, method="POST")
                with urllib.request.urlopen(request, timeout=600) as reply:
                    self._send(reply.status, reply.read(), reply.headers.get("Content-Type", "application/json"))

            def _send(self, status: int, body: bytes, kind: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.refused = 0
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> "RefusingProxy":
        self._thread.start()
        return self

    def __exit__(self, *_exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(autouse=True)
def limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DSAGENT_LLM_TIMEOUT_S", "900")
    monkeypatch.setenv("DSAGENT_LLM_TOTAL_TIMEOUT_S", "1800")


def spec(url: str) -> str:
    return f"openai-compatible:qwen@{url}"


def modes(run_id: str) -> list[str]:
    calls = RunLog(load_settings().db_url).llm_calls(run_id)
    assert all(c["ok"] for c in calls), [c["error"] for c in calls if not c["ok"]]
    return [c["mode"] for c in calls if c["mode"]]


def note(name: str, right: bool, seconds: float, used: list[str]) -> None:
    out = os.environ.get("OPENAI_SERVER_TIMES")
    if out:
        with open(out, "a") as f:
            f.write(json.dumps({"test": name, "right": right, "seconds": round(seconds, 1), "modes": sorted(set(used))}) + "\n")


def total_units(csv: Path) -> float:
    return float(pd.read_csv(csv)["units"].sum())


def answered(result: Any, expected: float) -> bool:
    words = str(result.result_str or "").replace(",", "").split()
    return bool(words) and words[-1].replace(".", "", 1).lstrip("-").isdigit() and float(words[-1]) == pytest.approx(expected)


@pytest.mark.parametrize("workflow", ["quick", "react", "robust"])
def test_ask_through_the_server(server: str, sales_csv: Path, workflow: str, monkeypatch: pytest.MonkeyPatch):
    from dsagent import Session

    monkeypatch.setenv("DSAGENT_DECIDE_BY_CODE", "0")  # quick plans with the model: a structured call
    started = time.perf_counter()
    with Session([sales_csv], model=spec(server)) as session:
        result = session.ask(QUESTION, workflow=workflow)
    used = modes(result.run_id)
    right = answered(result, total_units(sales_csv))
    note(workflow, right, time.perf_counter() - started, used)
    assert right, (result.result_str, result.explanation, result.error)
    # llama.cpp's server refuses json_schema (HTTP 500): refused once, JSON mode since.
    assert used and set(used) == {"json_object"}


def test_clean_with_its_review_through_the_server(server: str, tmp_path: Path):
    from dsagent.workflows.clean.api import clean, resume

    path = tmp_path / "shops.csv"
    rows = ["id,city,price"] + [f"{i},{['Lisbon', 'Porto'][i % 2]},{3.5 + i % 4}" for i in range(30)]
    rows[4] = "4,Lisbon,n.a."
    rows.append(rows[7])
    path.write_text("\n".join(rows) + "\n")
    started = time.perf_counter()
    first = clean([path], model=spec(server))
    assert first.status == "needs_review", first.error
    assert first.recommended_steps.strip()
    done = resume(first.thread_id, "yes", model=spec(server))
    assert done.status == "done", done.error
    cleaned = pd.read_csv(done.cleaned_files[0])
    right = not cleaned.duplicated().any() and pd.api.types.is_numeric_dtype(cleaned["price"])
    used = modes(first.run_id) if first.run_id else []
    note("clean", right, time.perf_counter() - started, used)
    assert right, cleaned.head()


def test_the_assistant_routes_on_a_server_without_tool_calls(server: str, tmp_path: Path):
    from dsagent.workflows.assistant import Configuration, run_turn
    from dsagent.workflows.assistant.configuration import AgentLLM
    from dsagent.workflows.assistant.runtime import close_all

    raw = tmp_path / "project" / "data" / "raw"
    raw.mkdir(parents=True)
    (raw / "sales.csv").write_text("region,units\nNorth,3\nSouth,4\n")
    conf = Configuration(agent_llm=AgentLLM(model=spec(server), max_tokens=60))
    started = time.perf_counter()
    try:
        out = run_turn("Which data files are in this project?", project_dir=tmp_path / "project", configuration=conf)
    finally:
        close_all()
    right = [c["name"] for c in out.tool_calls] == ["list_data_files"] and "sales" in out.answer
    note("assistant", right, time.perf_counter() - started, ["router"])
    assert right, (out.tool_calls, out.answer)
    # The server wrote the call as text: the assistant learnt it lacks tool calling and routed.
    from dsagent.llm import get_chat_model

    assert "tools" in capabilities.refused(get_chat_model(spec(server), load_settings()))


def test_a_server_without_response_format_gets_plain_prompts(server: str, sales_csv: Path, monkeypatch: pytest.MonkeyPatch):
    from dsagent import Session

    monkeypatch.setenv("DSAGENT_DECIDE_BY_CODE", "0")
    started = time.perf_counter()
    with RefusingProxy(server) as proxy, Session([sales_csv], model=spec(proxy.url)) as session:
        result = session.ask(QUESTION, workflow="quick")
    used = modes(result.run_id)
    right = answered(result, total_units(sales_csv))
    note("quick, response_format refused", right, time.perf_counter() - started, used)
    assert right, (result.result_str, result.explanation, result.error)
    assert used and set(used) == {"prompt"} and proxy.refused == 2  # json_schema, then json_object: once each


def test_the_same_model_writes_the_same_through_the_server_and_in_process(server: str, local_spec: str):
    """The server is sent the in-process sampling (llm/sampling.py): the same prompt, the same reply.
    With the server's own defaults (repeat_penalty 1.1) this reply goes on past the code."""
    from langchain_core.messages import HumanMessage

    from dsagent.llm import get_chat_model

    settings = load_settings()
    served = get_chat_model(spec(server), settings)
    asked = [HumanMessage(content=PROBE)]
    through_server = served.invoke(asked, max_tokens=60).content
    in_process = get_chat_model(local_spec, settings).invoke(asked, max_tokens=60).content
    assert through_server == in_process
    assert not capabilities.refused(served) & {"sampling", "llama_fields"}  # the server took every field
