"""kill -9 during a model call and during a sandbox execution, for each workflow (issue 24, part 3).

`dsagent ask` runs in a child process with the scripted model; a reply that waits
(DSAGENT_SCRIPTED_DELAY) or a cell that sleeps gives the window. After the kill: the next start
marks the run `interrupted`, every file in the workspace is whole, and no sandbox worker is left.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import psutil
import pytest
from robust_script import ALIGNED, DATA_WORK, PROFILE_OK, REQ_UNITS

from dsagent.atomic import append_line, atomic_path, write_atomic

PLAN = {"reasoning": "sum", "needs_code": True, "needs_evaluation": False, "needs_explanation": True}
ACT = {"rationale": "sum", "next_action": "act", "instruction": "sum the units", "question": None, "assumption": None}
SLOW_CELL = "import matplotlib.pyplot as plt\nplt.pause(60)\nresult = int(df['units'].sum())"  # sleeps in the sandbox
BEFORE_CODE = {"quick": [PLAN], "react": [ACT], "robust": [DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED]}
FIRST_NODE = {"quick": "plan", "react": "reason", "robust": "node_0_understand"}
SRC = str(Path(__file__).parents[1] / "src")


class Child:
    """`dsagent …` in a child process; its stderr is read as it comes."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "dsagent.cli.main", *args], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONPATH": SRC, **env})
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, predicate, timeout: float = 90) -> None:  # type: ignore[no-untyped-def]
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate():
                return
            if self.proc.poll() is not None:
                raise AssertionError(f"dsagent ended early ({self.proc.returncode}): {self.lines}")
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting; stderr so far: {self.lines}")

    def workspace(self) -> Path:
        line = next(line for line in self.lines if "workspace: " in line)
        return Path(line.split("workspace: ", 1)[1].strip())


def _whole(path: Path) -> bool:
    if path.suffix == ".py":
        compile(path.read_text(), str(path), "exec")
    elif path.suffix == ".json":
        json.loads(path.read_text())
    elif path.suffix in (".md", ".html"):
        text = path.read_text()
        return bool(text) and (path.suffix == ".md" or text.rstrip().endswith("</html>"))
    return True


@pytest.mark.parametrize("phase", ["model call", "sandbox execution"])
@pytest.mark.parametrize("workflow", ["quick", "react", "robust"])
def test_kill_9_leaves_an_interrupted_run_whole_files_and_no_worker(workflow, phase, script_file, sales_csv):
    model_call = phase == "model call"
    spec = script_file(BEFORE_CODE[workflow] + [SLOW_CELL] + ["unused"] * 3)
    env = {"DSAGENT_SCRIPTED_DELAY": "60" if model_call else "0"}
    child = Child(["ask", str(sales_csv), "How many units in total?", "--model", spec, "--workflow", workflow], env)
    survivors: list[psutil.Process] = []
    try:
        if model_call:
            child.wait_for(lambda: any(f"▸ {FIRST_NODE[workflow]}" in line for line in child.lines))
        else:
            child.wait_for(lambda: any("workspace: " in line for line in child.lines))
            child.wait_for(lambda: (child.workspace() / "cells" / "cell_1.py").exists())
        parent = psutil.Process(child.proc.pid)
        child.wait_for(lambda: parent.children(recursive=True))  # the warm sandbox worker is up
        time.sleep(0.5)  # inside the call / the cell
        workers = parent.children(recursive=True)
        os.kill(child.proc.pid, signal.SIGKILL)
        child.proc.wait(timeout=10)
        assert child.proc.returncode == -signal.SIGKILL

        # The next start marks the run interrupted.
        runs = subprocess.run([sys.executable, "-m", "dsagent.cli.main", "runs", "--json"], capture_output=True, text=True,
                              env={**os.environ, "PYTHONPATH": SRC}, timeout=60)
        run = json.loads(runs.stdout)[0]
        assert run["status"] == "interrupted" and run["workflow"] == workflow, run
        assert "killed or crashed" in run["error"]

        # Whole files only (no half-written cell, figure or report); a leftover temporary file is hidden.
        workspace = child.workspace()
        for path in workspace.rglob("*"):
            if path.is_file() and not path.name.startswith("."):
                assert _whole(path), path
        if not model_call:
            assert "plt.pause(60)" in (workspace / "cells" / "cell_1.py").read_text()

        # No orphan: the worker ends with its parent.
        deadline = time.monotonic() + 5
        survivors = [p for p in workers if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        while survivors and time.monotonic() < deadline:
            time.sleep(0.2)
            survivors = [p for p in survivors if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        assert not survivors, f"the sandbox worker outlived its killed parent: {[p.pid for p in survivors]}"
    finally:
        if child.proc.poll() is None:
            child.proc.kill()
        for p in survivors:
            try:
                p.kill()
            except psutil.NoSuchProcess:
                pass


def _killed_while_writing(tmp_path: Path, code: str) -> None:
    child = subprocess.Popen([sys.executable, "-c", code], env={**os.environ, "PYTHONPATH": SRC}, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "writing"
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)


def test_a_writer_killed_half_way_leaves_the_old_file_or_none(tmp_path):
    target = tmp_path / "report.md"
    target.write_text("# the old report\n")
    code = (
        "import sys, time\nfrom dsagent.atomic import atomic_path\n"
        f"with atomic_path({str(target)!r}) as temp:\n"
        "    fh = open(temp, 'w'); fh.write('# half a new rep'); fh.flush()\n"
        "    print('writing', flush=True); time.sleep(60)\n"
    )
    _killed_while_writing(tmp_path, code)
    assert target.read_text() == "# the old report\n"  # not half of the new one
    fresh = tmp_path / "new.md"
    _killed_while_writing(tmp_path, code.replace(str(target), str(fresh)))
    assert not fresh.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # the temporary file is hidden


def test_atomic_helpers_write_whole_files_and_lines(tmp_path):
    path = write_atomic(tmp_path / "a.txt", "ü" * 10)
    assert path.read_text() == "ü" * 10 and not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
    with pytest.raises(RuntimeError), atomic_path(tmp_path / "b.png") as temp:
        assert temp.suffix == ".png"  # savefig picks the format from it
        temp.write_bytes(b"half")
        raise RuntimeError("the writer failed")
    assert not (tmp_path / "b.png").exists() and not list(tmp_path.glob(".b*"))
    log = tmp_path / "results.jsonl"
    append_line(log, '{"id": 1}')
    append_line(log, '{"id": 2}\n')
    assert log.read_text() == '{"id": 1}\n{"id": 2}\n'
