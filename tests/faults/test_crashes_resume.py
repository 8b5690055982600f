"""kill -9 of the checkpointed workflows, clean and assistant, then the resume in a new process (issue 24, part 3).

clean: killed during its model call, at its human review, and during the cleaner's execution in
the sandbox; the review and the execution resume by thread id and finish. assistant: killed during a
turn (in the robust workflow's model call or its sandbox cell); `dsagent assistant --thread ID` in
a new process goes on with the conversation. After each kill: the run is interrupted on the next
start, the files are whole and no sandbox worker is left.
"""

from __future__ import annotations

import json
import os
import pty
import select
import shutil
import subprocess
import time
from pathlib import Path

import pytest
from tests.workflows.clean.conftest import decision
from crash_helpers import Child, assert_files_whole, assert_no_orphan, dsagent, interrupted_run
from robust_script import ALIGNED, DATA_WORK, PROFILE_OK, REQ_UNITS

ASKED = "add a column total equal to price times units"
EXTRA = decision(extra_steps=["add a column total equal to price times units"])
TOTAL = "def custom_steps(df):\n    df['total'] = df['price'] * df['units']\n    return df\n"
# Sleeps the first time only (a flag file in the sandbox's own folder), so the resumed run finishes.
SLOW_ONCE = ("def custom_steps(df):\n    import os, time\n    if not os.path.exists('slow_once.flag'):\n"
             "        open('slow_once.flag', 'w').close()\n        time.sleep(60)\n"
             "    df['total'] = df['price'] * df['units']\n    return df\n")
SLOW_CELL = "import matplotlib.pyplot as plt\nplt.pause(60)\nresult = int(df['units'].sum())"


def _fenced(code: str) -> str:
    return f"```python\n{code}```"


def _workspaces(root: Path) -> list[Path]:
    return sorted(p for p in root.glob("*") if p.is_dir())


def _finished(out: str, thread: str) -> dict:
    done = json.loads(out)
    assert done["status"] == "done" and done["thread_id"] == thread, done
    cleaned = Path(done["cleaned_files"][0])
    assert cleaned.read_text().splitlines()[0].endswith(",total")  # the model's extra step ran
    assert Path(done["report_path"]).exists()
    return done


def test_clean_killed_during_its_model_call(dirty_csv, script_file, tmp_path):
    child = Child(["clean", str(dirty_csv), ASKED, "--model", script_file([EXTRA])], {"DSAGENT_SCRIPTED_DELAY": "60"},
                  stdin=subprocess.DEVNULL)
    try:
        child.wait_for(lambda: child.saw("▸ recommend_cleaning_steps"))
        workers = child.kill()
        interrupted_run("clean")
        (workspace,) = _workspaces(tmp_path / "workspace")
        assert_files_whole(workspace)
        assert_no_orphan(workers)
    finally:
        child.stop()


def test_clean_killed_at_its_review_resumes_in_a_new_process(dirty_csv, script_file, tmp_path):
    # A terminal, so `dsagent clean` asks for the review and waits at the prompt.
    master, slave = pty.openpty()
    child = Child(["clean", str(dirty_csv), ASKED, "--model", script_file([EXTRA, _fenced(TOTAL)])], stdin=slave, stdout=slave)
    os.close(slave)
    shown = b""
    try:
        deadline = time.monotonic() + 90
        while b"to answer later" not in shown and time.monotonic() < deadline:
            if select.select([master], [], [], 0.5)[0]:
                shown += os.read(master, 65536)
        text = shown.decode(errors="replace")
        thread = text.split("dsagent clean --resume ", 1)[1].split()[0]  # said before the prompt
        workers = child.kill(with_worker=False)  # at input(), the next line after that one
        time.sleep(0.5)
        assert child.saw("Are these steps right?")  # the prompt was up (a terminal's input() writes it to stderr)
        assert not workers  # the session (and its worker) closed before the prompt: nothing to orphan
        (workspace,) = _workspaces(tmp_path / "workspace")
        assert_files_whole(workspace)
    finally:
        child.stop()
        os.close(master)
    resumed = dsagent("clean", "--resume", thread, "yes", "--json", "--model", script_file([]))  # the code was written before the review
    assert resumed.returncode == 0, resumed.stderr
    done = _finished(resumed.stdout, thread)
    assert Path(done["workspace"]) == workspace  # the same workspace as before the kill


def test_clean_killed_during_the_cleaners_execution_resumes(dirty_csv, script_file, tmp_path):
    first = dsagent("clean", str(dirty_csv), ASKED, "--json", "--model", script_file([EXTRA, _fenced(SLOW_ONCE)]))
    assert first.returncode == 0, first.stderr
    thread = json.loads(first.stdout)["thread_id"]
    child = Child(["clean", "--resume", thread, "yes", "--model", script_file([])], stdin=subprocess.DEVNULL)
    try:
        child.wait_for(lambda: child.saw("▸ execute_data_cleaner_code"))
        (workspace,) = _workspaces(tmp_path / "workspace")
        child.wait_for(lambda: any(workspace.rglob("slow_once.flag")))  # inside the cell
        workers = child.kill()
        interrupted_run("clean")
        assert_files_whole(workspace)
        assert "time.sleep(60)" in (workspace / "data_cleaner.py").read_text()  # saved whole before the run
        assert_no_orphan(workers)
    finally:
        child.stop()
    # The thread goes on from its last checkpoint (the code written, the execution to do).
    resumed = dsagent("clean", "--resume", thread, "yes", "--json", "--model", script_file([]))
    assert resumed.returncode == 0, resumed.stderr
    _finished(resumed.stdout, thread)


@pytest.mark.parametrize("phase", ["route choice", "model call", "sandbox execution"])
def test_assistant_killed_during_a_turn_resumes_the_thread(phase, script_file, sales_csv, tmp_path, hermetic):
    project = tmp_path / "project"
    (project / "data" / "raw").mkdir(parents=True)
    shutil.copy(sales_csv, project / "data" / "raw" / "sales.csv")
    common = ["--project", str(project)]
    one = dsagent("assistant", "-q", "which files do I have?", "--json", *common,
                  "--model", script_file([{"tool": "list_data_files"}, {"tool": "none"}, "You have sales.csv."]), cwd=project)
    assert one.returncode == 0, one.stderr
    thread = json.loads(one.stdout)["thread_id"]

    if phase == "route choice":  # the assistant's own call (which tool next) waits
        replies = [{"text": json.dumps({"tool": "answer_question"}), "delay_s": 60}]
    elif phase == "model call":  # robust's first model call waits; the route choice before it does not
        replies = [json.dumps({"tool": "answer_question"}), {"text": json.dumps(DATA_WORK), "delay_s": 60}]
    else:
        replies = [json.dumps(r) for r in ({"tool": "answer_question"}, DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED)] + [SLOW_CELL]
    script = tmp_path / "turn2.json"
    script.write_text(json.dumps(replies))
    # answer_question runs the workflow `ask` uses: robust here, whose scripted replies these are
    child = Child(["assistant", "-q", "How many units in total?", "--thread", thread, *common, "--model", f"scripted:{script}"],
                  {"DSAGENT_WORKFLOW": "robust"}, stdin=subprocess.DEVNULL, cwd=project)
    cells = project / "data" / "intermediate" / "workspace"
    try:
        if phase == "route choice":
            child.wait_for(lambda: child.saw(f"thread {thread} (resumed)"))
            time.sleep(2)  # the reply waits 60 s
            assert not child.saw("→ ")  # no tool had started
            child.kill(with_worker=False)
            runs = dsagent("runs", "--json")
            # each turn is one run of the assistant: the first finished, the one killed in its route choice interrupted
            assert runs.returncode == 0 and [(r["workflow"], r["status"]) for r in json.loads(runs.stdout)] == [("assistant", "interrupted"), ("assistant", "ok")]
            assert assert_files_whole(project / "data") >= 1
        else:
            child.wait_for(lambda: child.saw("→ answer_question"))
        if phase == "model call":
            child.workers()
            time.sleep(1.5)  # the reply waits 60 s
        elif phase == "sandbox execution":
            child.wait_for(lambda: any(cells.rglob("cell_1.py")))
        if phase != "route choice":
            workers = child.kill()
            interrupted_run("robust")  # the question's run, started by the assistant's answer_question
            assert any(cells.rglob("cell_1.py")) == (phase == "sandbox execution")
            assert assert_files_whole(project / "data") >= 1
            assert_no_orphan(workers)
    finally:
        child.stop()

    three = dsagent("assistant", "--thread", thread, *common, "--model", script_file([{"tool": "none"}, "Hello again."]),
                    stdin="hello again\nexit\n", cwd=project)
    assert three.returncode == 0, three.stderr
    assert f"thread {thread} (resumed)" in three.stderr and "Hello again." in three.stdout

    from dsagent.store.checkpoint import sqlite_checkpointer
    from dsagent.workflows.assistant import build_graph

    with sqlite_checkpointer(hermetic) as saver:
        state = build_graph(saver).get_state({"configurable": {"thread_id": thread}}).values
    humans = [m.content for m in state["messages"] if m.type == "human"]
    assert humans == ["which files do I have?", "How many units in total?", "hello again"]
    assert state["messages"][-1].content == "Hello again."
