"""The LangGraph server door: `langgraph dev` on loopback serves langgraph.json's graphs, and the
quick graph runs through langgraph-sdk with the scripted model (a real sandbox and run log)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import anyio
import pytest

REPO = Path(__file__).resolve().parents[2]
LANGGRAPH = Path(sys.executable).with_name("langgraph")
PLAN = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "compute it"}
# Nothing leaves the machine: no CLI analytics, no LangSmith tracing, no license or metadata calls.
OFFLINE_ENV = {"LANGGRAPH_CLI_NO_ANALYTICS": "1", "LANGSMITH_TRACING": "false", "LANGCHAIN_TRACING_V2": "false"}


def test_langgraph_json_names_the_workflow_graphs():
    config = json.loads((REPO / "langgraph.json").read_text())
    assert {"quick", "react", "robust", "clean", "assistant"} <= set(config["graphs"])
    from dsagent.doors import langgraph_app

    for name in ("quick", "react", "robust"):
        module, _, attr = config["graphs"][name].partition(":")
        assert module == "dsagent.doors.langgraph_app" and getattr(langgraph_app, attr) is not None
        schema = getattr(langgraph_app, attr).get_input_jsonschema()
        assert "paths" in schema["required"] and "question" in schema["properties"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def _langgraph_dev(tmp_path: Path, model_spec: str) -> Iterator[str]:
    """`langgraph dev` on a free loopback port with langgraph.json's graphs; yields its URL."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LANGSMITH_", "LANGCHAIN_", "LANGGRAPH_"))}
    env.update(OFFLINE_ENV, DSAGENT_MODEL=model_spec)
    log = open(tmp_path / "langgraph.log", "w")
    proc = subprocess.Popen(
        [str(LANGGRAPH), "dev", "--no-browser", "--no-reload", "--host", "127.0.0.1", "--port", str(port), "--config", str(REPO / "langgraph.json")],
        cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{url}/ok", timeout=1)
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("langgraph dev did not start:\n" + (tmp_path / "langgraph.log").read_text()[-3000:])
                time.sleep(0.3)
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()


@pytest.fixture
def server(tmp_path, script_file, sales_csv):
    with _langgraph_dev(tmp_path, script_file([PLAN, "result = df['units'].sum()", "Units add up to the total shown."])) as url:
        yield url


def test_quick_runs_through_the_sdk(server, tmp_path, sales_csv):
    from langgraph_sdk import get_client

    async def go():  # type: ignore[no-untyped-def]
        client = get_client(url=server)
        graphs = {a["graph_id"] for a in await client.assistants.search()}
        thread = await client.threads.create()
        custom, values = [], None
        async for part in client.runs.stream(thread["thread_id"], "quick", input={"paths": ["sales.csv"], "question": "How many units in total?"},
                                             stream_mode=["custom", "values"]):
            if part.event == "custom":
                custom.append(part.data)
            elif part.event == "values":
                values = part.data
        try:
            await client.runs.wait(None, "quick", input={"paths": ["/etc/hostname"], "question": "What is in it?"})
            refused = ""
        except Exception as exc:  # the SDK raises the run's error
            refused = str(exc)
        return graphs, custom, values, refused

    graphs, custom, values, refused = anyio.run(go)
    assert {"quick", "react", "robust"} <= graphs
    total = sum(int(line.split(",")[2]) for line in sales_csv.read_text().splitlines()[1:])
    assert values["answer"] == "Units add up to the total shown." and values["result"] == str(total)
    assert values["code"].strip() == "result = df['units'].sum()" and values["output_type"] == "analysis"
    assert "3 model calls" in values["usage"]
    report = Path(values["report_path"])
    assert report.is_file() and report.is_relative_to(Path(os.environ["DSAGENT_WORKSPACE_ROOT"]))
    assert [e["node"] for e in custom if e["kind"] == "node_start"] == ["plan", "code", "explain"]
    assert [m["type"] for m in values["messages"]] == ["human", "ai"]
    assert refused.startswith("ValueError: dsagent: /etc/hostname is outside the allowed folders")


def test_chat_form_input_and_a_follow_up_on_the_same_thread(script_file, sales_csv, monkeypatch):
    """Agent Chat UI's {"messages": [...]} input; the thread's messages reach the next run as history."""
    from langgraph.checkpoint.memory import InMemorySaver

    from dsagent.doors.langgraph_app import make_graph
    from dsagent.errors import UserError  # noqa: F401  (the node turns it into a ValueError)

    spec = script_file([PLAN, "result = df['units'].sum()", "The total is shown."])
    monkeypatch.setenv("DSAGENT_MODEL", spec)
    graph = make_graph("quick").builder.compile(checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t1"}}
    first = graph.invoke({"paths": ["sales.csv"], "messages": [{"role": "user", "content": "How many units in total?"}]}, config)
    assert first["answer"] == "The total is shown." and [m.type for m in first["messages"]] == ["human", "ai"]
    second_spec = script_file([PLAN, "result = df['units'].max()", "The largest is shown."])
    with pytest.raises(ValueError, match="a client cannot choose a scripted model"):  # a file named by the client
        graph.invoke({"messages": [{"role": "user", "content": "And the largest?"}]},
                     {"configurable": {"thread_id": "t3", "model": second_spec}})
    monkeypatch.setenv("DSAGENT_MODEL", second_spec)  # the operator's model (a new script from its first reply)
    follow = graph.invoke({"messages": [{"role": "user", "content": "And the largest?"}]}, config)
    assert follow["answer"] == "The largest is shown." and len(follow["messages"]) == 4
    from dsagent.store import RunLog
    from dsagent.config import load_settings

    prompt = json.loads(RunLog(load_settings().db_url).llm_calls(follow["run_id"])[0]["prompt"])
    assert [m["content"] for m in prompt[1:3]] == ["How many units in total?", "The total is shown."]
    with pytest.raises(ValueError, match="the input needs a question"):
        graph.invoke({"paths": ["sales.csv"]}, {"configurable": {"thread_id": "t2"}})


@pytest.fixture
def clean_server(tmp_path):
    from tests.workflows.clean.conftest import decision

    script = tmp_path / "clean_script.json"
    script.write_text(json.dumps([decision()]))
    with _langgraph_dev(tmp_path, f"scripted:{script}") as url:
        yield url


def test_clean_stops_at_review_and_resumes_through_the_api(clean_server, tmp_path):
    """The clean graph's review is an Agent Inbox action request; Command(resume=...) through the API goes on."""
    from langgraph_sdk import get_client

    rows = ["id,city,price"] + [f"{i},{['Lisbon', 'Porto'][i % 2]},{3 + i % 4}.50" for i in range(40)]
    rows[7] = "7,  porto ,n.a."
    (tmp_path / "shops.csv").write_text("\n".join(rows) + "\n")
    raw = (tmp_path / "shops.csv").read_bytes()

    async def go():  # type: ignore[no-untyped-def]
        client = get_client(url=clean_server)
        thread = await client.threads.create()
        first = await client.runs.wait(thread["thread_id"], "clean", input={
            "data_raw": {"shops": {"path": str(tmp_path / "shops.csv")}}, "user_instructions": "Clean it; keep every record.", "max_retries": 2})
        state = await client.threads.get_state(thread["thread_id"])
        done = await client.runs.wait(thread["thread_id"], "clean", command={"resume": [{"type": "accept", "args": None}]})
        return first, state, done

    first, state, done = anyio.run(go)
    (pending,) = [i for task in state["tasks"] for i in task["interrupts"]]
    assert pending["value"]["action_request"]["action"] == "review_cleaning_steps"
    assert pending["value"]["config"]["allow_accept"] and pending["value"]["config"]["allow_edit"]
    assert state["next"] == ["human_review"]
    assert done["data_cleaner_error"] is None
    cleaned = Path(done["data_cleaned"]["shops"]["csv"])
    import pandas as pd

    assert set(pd.read_csv(cleaned)["city"]) == {"Lisbon", "Porto"}  # '  porto ' folded to its frequent spelling
    assert (tmp_path / "shops.csv").read_bytes() == raw  # the source file is never written
