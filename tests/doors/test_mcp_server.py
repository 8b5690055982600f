"""The MCP server door, driven by the SDK's own client over stdio: a real `dsagent mcp` subprocess,
the scripted model, a real sandbox and run log."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio
import pytest

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

PLAN = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "compute it"}
DSAGENT = str(Path(sys.executable).with_name("dsagent"))


def _params(tmp_path: Path, spec: str, *extra: str) -> StdioServerParameters:
    env = {k: os.environ[k] for k in ("DSAGENT_HOME", "DSAGENT_WORKSPACE_ROOT", "PATH", "HOME") if k in os.environ}
    env["DSAGENT_MODEL"] = spec
    return StdioServerParameters(command=DSAGENT, args=["mcp", *extra], env=env, cwd=str(tmp_path))


def _failed(result) -> bool:  # type: ignore[no-untyped-def]
    """is_error (mcp 2.x) or isError (1.x)."""
    return bool(getattr(result, "is_error", None) or getattr(result, "isError", None))


def _text(result) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def _session(params: StdioServerParameters, steps):  # type: ignore[no-untyped-def]
    with open(Path(params.cwd) / "server.err", "w") as errlog:  # type: ignore[arg-type]
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return await steps(session)


def test_tools_over_stdio(tmp_path, sales_csv, script_file):
    # the last two replies are the independent checks of the answer (common.verify: verify is on in the server)
    spec = script_file([PLAN, "result = df['units'].mean()", "The average is about 21 units per row.", "result = df.units.sum() / len(df)",
                        "result = df['units'].agg('mean')"])
    outside = tmp_path.parent / f"{tmp_path.name}_outside.csv"
    outside.write_text("a,b\n1,2\n")

    async def steps(session):  # type: ignore[no-untyped-def]
        tools = {t.name: t for t in (await session.list_tools()).tools}
        profile = await session.call_tool("profile_data", {"paths": [str(sales_csv)]})
        answer = await session.call_tool("ask", {"paths": ["sales.csv"], "question": "What is the average number of units?"})
        refused = await session.call_tool("ask", {"paths": [str(outside)], "question": "What is in it?"})
        missing = await session.call_tool("profile_data", {"paths": ["nope.csv"]})
        bad_workflow = await session.call_tool("ask", {"paths": ["sales.csv"], "question": "x", "workflow": "fast"})
        return tools, profile, answer, refused, missing, bad_workflow

    tools, profile, answer, refused, missing, bad_workflow = anyio.run(_session, _params(tmp_path, spec), steps)
    outside.unlink()
    assert set(tools) >= {"profile_data", "ask", "clean_data", "get_report"}
    ask_schema = getattr(tools["ask"], "input_schema", None) or tools["ask"].inputSchema
    assert ask_schema["properties"]["paths"]["type"] == "array" and "question" in ask_schema["required"]

    text = _text(profile)
    assert not _failed(profile) and '"units" int64' in text and "datasets['sales']" in text

    text = _text(answer)
    assert not _failed(answer), text
    mean = sum(int(line.split(",")[2]) for line in sales_csv.read_text().splitlines()[1:]) / 40
    assert "The average is about 21" in text and f"Result:\n{mean}" in text
    assert "df['units'].mean()" in text and "Report: " in text and "5 model calls" in text
    assert "✓ Verified: two independent computations of the question give the same result" in text
    report = Path(text.split("Report: ")[1].splitlines()[0])
    assert report.is_file() and report.is_relative_to(tmp_path / "workspace")

    assert _failed(refused) and "outside the allowed folders" in _text(refused) and "allowed_roots" in _text(refused)
    assert _failed(missing) and "no such file" in _text(missing)
    assert _failed(bad_workflow) and "unknown workflow 'fast'" in _text(bad_workflow)


def test_get_report_and_roots_flag(tmp_path, sales_csv, script_file):
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / "sales.csv").write_text(sales_csv.read_text())
    spec = script_file([PLAN, "result = df['price'].max()", "The highest price is 6.5.", "result = df.price.min()", "result = df.price.mean()"])

    async def steps(session):  # type: ignore[no-untyped-def]
        answer = await session.call_tool("ask", {"paths": [str(data_dir / "sales.csv")], "question": "What is the highest price?"})
        run_id = _text(answer).split("\nRun ")[1].split(" ")[0]
        md = await session.call_tool("get_report", {"run_id": run_id, "format": "md"})
        html = await session.call_tool("get_report", {"run_id": run_id, "format": "html"})
        wrong = await session.call_tool("get_report", {"run_id": run_id, "format": "pdf"})
        unknown = await session.call_tool("get_report", {"run_id": "ffffffffffff"})
        root_file = await session.call_tool("profile_data", {"paths": [str(sales_csv)]})
        return answer, md, html, wrong, unknown, root_file

    answer, md, html, wrong, unknown, root_file = anyio.run(_session, _params(tmp_path, spec, "--root", str(data_dir)), steps)
    assert not _failed(answer), _text(answer)
    assert "What is the highest price?" in _text(md) and "df['price'].max()" in _text(md)
    assert "? Not verified: not sure — independent computations gave 2.5; 4.5" in _text(md)  # two checks differ: said so
    html_path = Path(_text(html).rsplit(" ", 1)[1])
    assert html_path.suffix == ".html" and html_path.is_file() and html_path.is_relative_to(tmp_path / "workspace")
    assert _failed(wrong) and "unknown report format 'pdf'" in _text(wrong)
    assert _failed(unknown) and "no run 'ffffffffffff'" in _text(unknown)
    # --root replaced the default (the current folder): a file beside it is now refused.
    assert _failed(root_file) and "outside the allowed folders" in _text(root_file)


def test_clean_data_stops_for_review_then_goes_on(monkeypatch, tmp_path, sales_csv):
    """clean_data over the clean workflow's API (a fake until the workflow is merged)."""
    import types
    from dataclasses import dataclass, field

    from dsagent.config import load_settings
    from dsagent.doors.mcp_server import Tools

    calls = []

    @dataclass
    class Outcome:
        thread_id: str
        status: str
        recommended_steps: str = ""
        cleaned_files: list = field(default_factory=list)
        function_path: str | None = None
        report_path: str | None = None
        error: str | None = None
        review_text: str = ""  # the real CleanOutcome: the steps and the code under review

    def clean(paths, instructions="", *, yes=False, model=None, settings=None, on_progress=None, thread_id=None):
        calls.append(("clean", paths, instructions))
        return Outcome("t-1", "needs_review", "1. Drop duplicate rows\n2. Parse month as a date",
                       review_text="1. Drop duplicate rows\n\n```python\ndef data_cleaner(data_raw):\n    return data_raw.drop_duplicates()\n```")

    def resume(thread_id, answer, *, model=None, settings=None, on_progress=None):
        calls.append(("resume", thread_id, answer))
        return Outcome(thread_id, "done", cleaned_files=["/ws/sales_clean.csv"], function_path="/ws/clean.py", report_path="/ws/report.md")

    def saved_state(thread_id, settings):  # what the door checks before resuming: the thread's files and workspace
        return {"data_raw": {"sales": {"path": str(sales_csv)}}, "workspace": str(tmp_path / "workspace" / "w1")}

    api = types.ModuleType("dsagent.workflows.clean.api")
    api.clean, api.resume, api.saved_state = clean, resume, saved_state
    monkeypatch.setitem(sys.modules, "dsagent.workflows.clean.api", api)
    tools = Tools(load_settings())
    first = tools.clean_data([str(sales_csv)], "tidy it")
    assert "Review needed (thread t-1)" in first and "Drop duplicate rows" in first and "answer='yes'" in first
    assert "return data_raw.drop_duplicates()" in first  # the code a yes runs and saves, in full (issue 38, finding 7)
    second = tools.clean_data([str(sales_csv)], "tidy it", answer="yes")
    assert calls[-1] == ("resume", "t-1", "yes")
    assert "Cleaned file: /ws/sales_clean.csv" in second and "Cleaning function: /ws/clean.py" in second
    from dsagent.errors import UserError

    with pytest.raises(UserError, match="no cleaning waits"):
        tools.clean_data([str(sales_csv)], "tidy it", answer="yes")


def test_streamable_http_on_loopback(tmp_path, sales_csv):
    """`dsagent mcp --http PORT`: the same tools over streamable HTTP on 127.0.0.1."""
    import signal
    import socket
    import subprocess
    import time

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "DSAGENT_MODEL": "scripted:none.json"}
    proc = subprocess.Popen([DSAGENT, "mcp", "--http", str(port)], cwd=tmp_path, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "dsagent mcp --http did not start"
                time.sleep(0.2)
        try:
            from mcp.client.streamable_http import streamable_http_client as connect
        except ImportError:  # mcp 1.x
            from mcp.client.streamable_http import streamablehttp_client as connect

        async def go():  # type: ignore[no-untyped-def]
            async with connect(f"http://127.0.0.1:{port}/mcp") as streams:
                async with ClientSession(streams[0], streams[1]) as session:
                    await session.initialize()
                    return await session.call_tool("profile_data", {"paths": ["sales.csv"]})

        result = anyio.run(go)
        assert not _failed(result) and '"region"' in _text(result)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(10)


def test_bad_flags_are_one_clear_line(tmp_path, capsys):
    from dsagent.cli.main import main

    assert main(["mcp", "--root", str(tmp_path / "nope")]) == 2
    assert "no such folder" in capsys.readouterr().err
    assert main(["mcp", "--http", "70000"]) == 2
    assert "between 1 and 65535" in capsys.readouterr().err
