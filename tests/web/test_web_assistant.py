"""The assistant mode of the web app (AppTest, scripted model, real tools)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).resolve().parents[2] / "src" / "dsagent" / "web" / "app.py")


@pytest.fixture(autouse=True)
def _close_runtimes():
    yield
    from dsagent.workflows.assistant.runtime import close_all

    close_all()


def test_assistant_mode_runs_tools_on_the_uploads_and_keeps_the_thread(monkeypatch, script_file, sales_csv):
    spec = script_file([{"tool": "summarize_data"}, {"tool": "none"}, "Your sales file has 40 rows.", {"tool": "suggest_tasks"}, "Here are some tasks."])
    monkeypatch.setenv("DSAGENT_MODEL", spec)
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.sidebar.file_uploader[0].set_value(("sales.csv", sales_csv.read_bytes(), "text/csv"))
    at.run()
    at.sidebar.selectbox(key="workflow").set_value("assistant").run()
    assert "Seed 004" in "\n".join(c.value for c in at.sidebar.caption)
    at.chat_input[0].set_value("Summarize my data").run()
    assert not at.exception and not at.error
    message = at.session_state["messages"][-1]
    assert message["content"] == "Your sales file has 40 rows."
    assert [s["name"] for s in message["steps"]] == ["summarize_data"] and "✓ Summarized 1 file(s)" in message["steps"][0]["result"]
    workspace = Path(at.session_state["workspace_dir"])
    assert (workspace / "project" / "data" / "raw" / "sales.csv").read_bytes() == sales_csv.read_bytes()
    assert (workspace / "project" / "data" / "summaries" / "sales.csv.md").is_file()
    assert any(e.label.startswith("summarize_data") for e in at.expander)
    thread = at.session_state["assistant_thread"]

    at.chat_input[0].set_value("Suggest tasks").run()
    assert not at.exception and at.session_state["assistant_thread"] == thread
    assert [s["name"] for s in at.session_state["messages"][-1]["steps"]] == ["suggest_tasks"]
    tasks = json.loads((workspace / "project" / "data" / "tasks.json").read_text())["tasks"]
    assert tasks and tasks[0]["file"] == "sales.csv"


def test_assistant_mode_errors_are_one_line(monkeypatch, script_file, sales_csv):
    monkeypatch.setenv("DSAGENT_MODEL", script_file([]))  # no replies: the first model call fails
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.sidebar.file_uploader[0].set_value(("sales.csv", sales_csv.read_bytes(), "text/csv"))
    at.run()
    at.sidebar.selectbox(key="workflow").set_value("assistant").run()
    at.chat_input[0].set_value("hello").run()
    assert not at.exception
    assert len(at.error) == 1 and "ran out of replies" in at.error[0].value


def test_an_answer_to_a_question_shows_its_verified_mark(monkeypatch, tmp_path):
    from dsagent.web import assistant_mode
    from dsagent.workflows import assistant
    from dsagent.workflows.assistant.api import TurnResult

    mark = "verified: an independent computation of the question gives the same result"
    monkeypatch.setattr(assistant, "run_turn", lambda *a, **k: TurnResult("t1", "The average is 21.", verified=True, verification=mark))
    state = {"messages": [], "workspace_dir": str(tmp_path)}
    message = assistant_mode.ask(state, "What is the average?", "")
    assert message["verification"] == "✓ Verified: an independent computation of the question gives the same result"
    plain = TurnResult("t2", "Two files.")
    monkeypatch.setattr(assistant, "run_turn", lambda *a, **k: plain)
    assert assistant_mode.ask(state, "Which files?", "")["verification"] == ""  # no computed answer: no line
