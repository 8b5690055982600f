"""Findings 5 and 6: limits hold for the worker's whole life; the worker dies with dsagent;
leftovers are cleaned; the run row exists before work starts; stderr and the workspace are capped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from dsagent.sandbox import Limits, memory
from tests.security.conftest import ATTACK_LIMITS


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_thread_outliving_its_cell_stays_under_the_memory_limit(make_sandbox) -> None:
    box = make_sandbox()
    code = textwrap.dedent("""
        import threading, time
        def grow():
            time.sleep(0.5)
            hoard = []
            for _ in range(15):            # 1.5 GB, touched page by page, after the cell returned
                chunk = bytearray(100 * 1024 * 1024)
                chunk[::4096] = b'x' * len(chunk[::4096])
                hoard.append(chunk)
            time.sleep(30)
        threading.Thread(target=grow, daemon=True).start()
        result = 'returned'
    """)
    res = box.run(code)
    assert res.success and res.result == "returned", res.error
    pid = box._state["worker"].pid
    cap = box._baseline_mb + ATTACK_LIMITS.memory_mb + 700  # every library loaded, plus the limit
    # Watched until the worker dies or passes the cap: on a busy machine touching 1.5 GB is slow.
    peak_mb, deadline = 0.0, time.monotonic() + 40
    while time.monotonic() < deadline and _alive(pid) and peak_mb < cap:
        peak_mb = max(peak_mb, memory.read_status(pid).get("VmRSS", 0) / 1024)
        time.sleep(0.05)
    assert peak_mb < cap, f"the idle worker grew to {peak_mb:.0f} MB (limit {ATTACK_LIMITS.memory_mb} MB)"
    after = box.run("result = 1 + 1")
    assert after.success and after.result == "2", after.error


_PARENT = """
import json, sys, threading, time
import pandas as pd
from dsagent.sandbox import Limits, Sandbox
box = Sandbox(sys.argv[1], {"t": pd.DataFrame({"a": [1]})}, Limits(wall_s=120), cache_dir=sys.argv[2])
starter = threading.Thread(target=box.start)   # as Session does: started from a short-lived thread
starter.start(); starter.join()
assert box.run("result = 1").success
group = box._state["cgroup"]
print(json.dumps({"pid": box._state["worker"].pid, "data_dir": str(box._state["data_dir"]),
                  "cgroup": str(group.path) if group is not None else None}), flush=True)
box.run("import time\\ntime.sleep(100)")
"""


def test_worker_dies_with_dsagent_and_leftovers_are_cleaned(tmp_path: Path, mpl_cache: Path, make_sandbox) -> None:
    parent = subprocess.Popen([sys.executable, "-c", _PARENT, str(tmp_path / "ws_parent"), str(mpl_cache)],
                              stdout=subprocess.PIPE, text=True)
    try:
        info = json.loads(parent.stdout.readline())
        time.sleep(0.5)  # the cell is sleeping in the worker now
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        deadline = time.monotonic() + 5
        while _alive(info["pid"]) and time.monotonic() < deadline:
            time.sleep(0.05)
        orphan = _alive(info["pid"])
        if orphan:
            os.kill(info["pid"], signal.SIGKILL)
        assert not orphan, "the worker ran on after dsagent was killed"
        assert Path(info["data_dir"]).exists()  # left behind by the kill …
        make_sandbox()  # … and removed by the next start
        assert not Path(info["data_dir"]).exists(), "the dead run's pickled data stayed in /tmp"
        if info["cgroup"]:
            assert not Path(info["cgroup"]).exists(), "the dead run's memory cgroup stayed"
    finally:
        if parent.poll() is None:
            parent.kill()


def test_run_row_exists_before_the_model_loads(sales_csv: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dsagent import llm
    from dsagent.config import load_settings
    from dsagent.session import Session
    from dsagent.store import RunLog

    seen: list[list[str]] = []

    def loading_model(*args, **kwargs):
        seen.append([r["status"] for r in RunLog(load_settings().db_url).recent_runs()])
        raise KeyboardInterrupt  # killed while the model loads

    monkeypatch.setattr(llm, "get_chat_model", loading_model)
    with Session([sales_csv], model="scripted:unused.json") as session:
        with pytest.raises(KeyboardInterrupt):
            session.ask("How many rows?")
    assert seen == [["running"]], f"runs in the log while the model loaded: {seen}"
    assert [r["status"] for r in RunLog(load_settings().db_url).recent_runs()] == ["failed"]


def test_worker_stderr_outside_the_workspace_is_capped(make_sandbox) -> None:
    box = make_sandbox()
    res = box.run("import os\nfor _ in range(12):\n    os.write(2, b'e' * (1 << 20))\nresult = 1")
    assert res.success, res.error
    data_dir = Path(box._state["data_dir"])
    size = sum(p.stat().st_size for p in data_dir.rglob("*") if p.is_file())
    assert size < 2 * 1024 * 1024, f"{size / 1e6:.0f} MB of worker stderr kept outside the workspace"


def test_workspace_total_size_is_limited(make_sandbox) -> None:
    limits = Limits(wall_s=20, memory_mb=300, output_kb=16, file_mb=16, **({"workspace_mb": 40} if "workspace_mb" in Limits.__dataclass_fields__ else {}))
    box = make_sandbox(limits)
    res = box.run("for i in range(6):\n    open(f'big_{i}.bin', 'wb').write(b'z' * (15 << 20))\nresult = 'wrote'")
    used = sum(p.stat().st_size for p in box.workspace.rglob("*") if p.is_file() and not p.is_symlink())
    assert not res.success and res.limit_breached == "workspace", (res.result, res.error)
    assert "workspace" in (res.error or "").lower()
    assert used <= 60 * 1024 * 1024, f"{used / 1e6:.0f} MB left in the workspace"
    after = box.run("result = 1 + 1")
    assert after.success and after.result == "2", after.error


def test_leftover_dirs_of_live_processes_are_kept(make_sandbox) -> None:
    """The clean-up only removes what a dead process left: a live dsagent's data stays."""
    live = Path(tempfile.mkdtemp(prefix=f"dsagent-sandbox-{os.getpid()}-"))
    try:
        make_sandbox()
        assert live.exists()
    finally:
        os.rmdir(live)
