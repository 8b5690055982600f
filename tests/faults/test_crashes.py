"""kill -9 during a model call and during a sandbox execution, for each workflow (issue 24, part 3).

`dsagent ask` runs in a child process with the scripted model; a reply that waits
(DSAGENT_SCRIPTED_DELAY) or a cell that sleeps gives the window. After the kill: the next start
marks the run `interrupted`, every file in the workspace is whole, and no sandbox worker is left.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from crash_helpers import SRC, Child, assert_files_whole, assert_no_orphan, interrupted_run
from robust_script import ALIGNED, DATA_WORK, PROFILE_OK, REQ_UNITS

from dsagent.atomic import append_line, atomic_path, write_atomic

PLAN = {"reasoning": "sum", "needs_code": True, "needs_evaluation": False, "needs_explanation": True}
ACT = {"rationale": "sum", "next_action": "act", "instruction": "sum the units", "question": None, "assumption": None}
SLOW_CELL = "import matplotlib.pyplot as plt\nplt.pause(60)\nresult = int(df['units'].sum())"  # sleeps in the sandbox
BEFORE_CODE = {"quick": [PLAN], "react": [ACT], "robust": [DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED]}
FIRST_NODE = {"quick": "plan", "react": "reason", "robust": "node_0_understand"}


@pytest.mark.parametrize("phase", ["model call", "sandbox execution"])
@pytest.mark.parametrize("workflow", ["quick", "react", "robust"])
def test_kill_9_leaves_an_interrupted_run_whole_files_and_no_worker(workflow, phase, script_file, sales_csv):
    model_call = phase == "model call"
    spec = script_file(BEFORE_CODE[workflow] + [SLOW_CELL] + ["unused"] * 3)
    env = {"DSAGENT_SCRIPTED_DELAY": "60" if model_call else "0"}
    child = Child(["ask", str(sales_csv), "How many units in total?", "--model", spec, "--workflow", workflow], env)
    try:
        if model_call:
            child.wait_for(lambda: child.saw(f"▸ {FIRST_NODE[workflow]}"))
        else:
            child.wait_for(lambda: child.saw("workspace: "))
            child.wait_for(lambda: (child.workspace() / "cells" / "cell_1.py").exists())
        workers = child.kill()  # inside the call / the cell
        interrupted_run(workflow)  # the next start marks the run interrupted
        # Whole files only (no half-written cell, figure or report); a leftover temporary file is hidden.
        assert_files_whole(child.workspace())
        if not model_call:
            assert "plt.pause(60)" in (child.workspace() / "cells" / "cell_1.py").read_text()
        assert_no_orphan(workers)  # the worker ends with its parent
    finally:
        child.stop()


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
