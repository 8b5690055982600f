"""What the kill -9 tests share: dsagent in a child process, and the checks made after the kill."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import psutil

SRC = str(Path(__file__).parents[1] / "src")
ENV = {"PYTHONPATH": SRC}


class Child:
    """`dsagent …` in a child process; its stderr is read as it comes."""

    def __init__(self, args: list[str], env: dict[str, str] | None = None, **popen: Any) -> None:
        popen.setdefault("stdout", subprocess.DEVNULL)
        self.proc = subprocess.Popen([sys.executable, "-m", "dsagent.cli.main", *args], stderr=subprocess.PIPE, text=True,
                                     env={**os.environ, **ENV, **(env or {})}, **popen)
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

    def saw(self, text: str) -> bool:
        return any(text in line for line in self.lines)

    def workspace(self) -> Path:
        line = next(line for line in self.lines if "workspace: " in line)
        return Path(line.split("workspace: ", 1)[1].strip())

    def workers(self) -> list[psutil.Process]:
        """The sandbox worker(s) under this dsagent, once up."""
        parent = psutil.Process(self.proc.pid)
        self.wait_for(lambda: parent.children(recursive=True))
        return parent.children(recursive=True)

    def kill(self, with_worker: bool = True) -> list[psutil.Process]:
        """SIGKILL, after a moment inside the call or the cell; returns the workers it had."""
        workers = self.workers() if with_worker else psutil.Process(self.proc.pid).children(recursive=True)
        time.sleep(0.5)
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        assert self.proc.returncode == -signal.SIGKILL
        return workers

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)


def dsagent(*args: str, stdin: str | None = None, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`dsagent …` run to its end in a new process."""
    return subprocess.run([sys.executable, "-m", "dsagent.cli.main", *args], capture_output=True, text=True, input=stdin,
                          stdin=None if stdin is not None else subprocess.DEVNULL, cwd=cwd,
                          env={**os.environ, **ENV, **(env or {})}, timeout=300)


def whole(path: Path) -> bool:
    """Does the file parse whole (code compiles, JSON loads, a report has its end)?"""
    if path.suffix == ".py":
        compile(path.read_text(), str(path), "exec")
    elif path.suffix == ".json":
        json.loads(path.read_text())
    elif path.suffix == ".jsonl":
        for line in path.read_text().splitlines():
            json.loads(line)
    elif path.suffix in (".md", ".html"):
        text = path.read_text()
        return bool(text) and (path.suffix == ".md" or text.rstrip().endswith("</html>"))
    elif path.suffix == ".parquet":
        import pyarrow.parquet as pq

        pq.read_metadata(path)
    return True


def assert_files_whole(folder: Path) -> int:
    """Every visible file under ``folder`` is whole; returns how many were checked."""
    checked = 0
    for path in folder.rglob("*"):
        if path.is_file() and not path.name.startswith(".") and not any(p.startswith(".") for p in path.relative_to(folder).parts[:-1]):
            assert whole(path), path
            checked += 1
    return checked


def interrupted_run(workflow: str) -> dict[str, Any]:
    """The latest run as the next start of dsagent sees it: marked interrupted."""
    runs = dsagent("runs", "--json")
    assert runs.returncode == 0, runs.stderr
    run = json.loads(runs.stdout)[0]
    assert run["status"] == "interrupted" and run["workflow"] == workflow, run
    assert "killed or crashed" in run["error"]
    return run


def assert_no_orphan(workers: list[psutil.Process], timeout: float = 5) -> None:
    """The sandbox workers end with their killed parent (a survivor is killed, then the test fails)."""
    deadline = time.monotonic() + timeout
    alive = lambda: [p for p in workers if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]  # noqa: E731
    survivors = alive()
    while survivors and time.monotonic() < deadline:
        time.sleep(0.2)
        survivors = alive()
    for p in survivors:
        try:
            p.kill()
        except psutil.NoSuchProcess:
            pass
    assert workers and not survivors, f"the sandbox worker outlived its killed parent: {[p.pid for p in survivors]}"
