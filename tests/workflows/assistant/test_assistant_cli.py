"""``dsagent assistant -q … --json`` and a conversation resumed by thread id in a new process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from dsagent.cli.main import main

from .conftest import decide


def _dsagent(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    script = Path(sys.executable).with_name("dsagent")
    command = [str(script)] if script.is_file() else [sys.executable, "-m", "dsagent.cli.main"]
    return subprocess.run([*command, *args], cwd=cwd, capture_output=True, text=True, env=os.environ.copy(), timeout=300)


def test_json_output_has_thread_answer_and_tool_calls(project: Path, script_file, capsys):
    spec = script_file([decide("summarize_data"), decide("none"), "Summarized iris."])
    assert main(["assistant", "-q", "summarize the iris data", "--json", "--project", str(project), "--model", spec]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"thread_id", "answer", "tool_calls", "run_id", "verified", "verification"} and out["run_id"]  # the turn's run in the run log
    assert out["verified"] is False and out["verification"] == ""  # no computed answer: no mark
    assert out["tool_calls"] == [{"name": "summarize_data", "args": {"file_names": ["iris.csv"]}}]
    assert out["answer"] == "Summarized iris."


def test_project_defaults_to_the_current_folder(project: Path, script_file, capsys, monkeypatch):
    monkeypatch.chdir(project)
    spec = script_file([decide("list_data_files"), decide("none"), "Two files."])
    assert main(["assistant", "-q", "which files?", "--json", "--model", spec]) == 0
    assert json.loads(capsys.readouterr().out)["tool_calls"][0]["name"] == "list_data_files"


def test_a_missing_project_folder_is_a_user_error(tmp_path: Path, capsys):
    assert main(["assistant", "-q", "hi", "--project", str(tmp_path / "nope")]) == 2
    assert "project folder not found" in capsys.readouterr().err


def test_resume_by_thread_id_in_a_new_process(project: Path, script_file, hermetic):
    first = script_file([decide("summarize_data"), decide("none"), "Summarized both files."])
    run1 = _dsagent("assistant", "-q", "Summarize my data", "--json", "--project", str(project), "--model", first, cwd=project)
    assert run1.returncode == 0, run1.stderr
    thread = json.loads(run1.stdout)["thread_id"]
    second = script_file([decide("suggest_tasks"), "Here are tasks."])
    run2 = _dsagent("assistant", "-q", "Now suggest tasks", "--json", "--thread", thread, "--project", str(project), "--model", second, cwd=project)
    assert run2.returncode == 0, run2.stderr
    out2 = json.loads(run2.stdout)
    assert out2["thread_id"] == thread and [c["name"] for c in out2["tool_calls"]] == ["suggest_tasks"]

    from dsagent.store.checkpoint import sqlite_checkpointer
    from dsagent.workflows.assistant import build_graph

    with sqlite_checkpointer(hermetic) as saver:
        state = build_graph(saver).get_state({"configurable": {"thread_id": thread}}).values
    humans = [m.content for m in state["messages"] if m.type == "human"]
    assert humans == ["Summarize my data", "Now suggest tasks"]
    assert state["summaries_generated"] and state["tasks_suggested"]
    assert [t["id"] for t in state["suggested_tasks"]][:2] == ["T1", "T2"]


def test_interactive_session_shows_tool_calls_and_answers(project: Path, script_file, monkeypatch, capsys):
    import io

    spec = script_file([decide("list_data_files"), decide("none"), "You have two files.", decide("none"), "Hello!"])
    monkeypatch.setattr(sys, "stdin", io.StringIO("which files do I have?\nhello\nexit\n"))
    assert main(["assistant", "--project", str(project), "--model", spec]) == 0
    captured = capsys.readouterr()
    assert "→ list_data_files" in captured.err and "Found 2 data file(s)" in captured.err
    assert "You have two files." in captured.out and "Hello!" in captured.out
    assert "--thread" in captured.err
