"""Parent side of one worker process: environment, launch, messages, and how it ended.

Nothing here imports pandas: the parent only hands the worker paths and code.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import time
import warnings
from pathlib import Path
from typing import Any

from dsagent.sandbox import protocol
from dsagent.sandbox.base import Isolation

# Confinement the "full" level needs; landlock_scope (ABI 6) and the rest are extras.
_REQUIRED_FOR_FULL = ("netns", "landlock_fs", "landlock_net", "seccomp", "memory_cgroup")
_warned: set[str] = set()


class SandboxWarning(UserWarning):
    """A confinement feature that this machine does not offer."""


def worker_env(workspace: Path, mpl_dir: Path) -> dict[str, str]:
    """Built from nothing, so no API key (or anything else of the agent's) reaches the worker."""
    package_root = Path(__file__).resolve().parents[2]
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin",  # sbin: find_library runs ldconfig
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "HOME": str(workspace),
        "TMPDIR": str(workspace / ".tmp"),
        "MPLCONFIGDIR": str(mpl_dir),
        "MPLBACKEND": "Agg",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "JOBLIB_MULTIPROCESSING": "0",  # no processes anyway; spares a warning about /dev/shm
        "PYTHONPATH": str(package_root),  # the same dsagent as the parent, also from a checkout
    }


class WorkerProcess:
    """One launched worker: its pipes, its pid, and the stderr log kept for crash reports."""

    def __init__(self, config: dict[str, Any], config_path: Path, log_path: Path, env: dict[str, str], cwd: Path) -> None:
        command_r, self.command_w = os.pipe()
        self.reply_r, reply_w = os.pipe()
        config = {**config, "command_fd": command_r, "reply_fd": reply_w}
        config_path.write_text(json.dumps(config))
        self.log_path = log_path
        with open(log_path, "ab") as log:
            self.proc = subprocess.Popen(  # noqa: S603 - our own interpreter and module
                [sys.executable, "-P", "-s", "-m", "dsagent.sandbox.worker", str(config_path)],
                pass_fds=(command_r, reply_w), env=env, cwd=cwd,
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log,
            )
        os.close(command_r)
        os.close(reply_w)
        self.pid = self.proc.pid
        self.ready = False

    def send(self, message: dict[str, Any]) -> bool:
        try:
            protocol.send(self.command_w, message)
            return True
        except OSError:  # the worker is gone; the caller finds out how from wait()
            return False

    def poll_reply(self, timeout: float) -> tuple[bool, dict[str, Any] | None]:
        """(True, message) when a reply came, (True, None) at EOF, (False, None) on timeout."""
        readable, _, _ = select.select([self.reply_r], [], [], max(timeout, 0))
        if not readable:
            return False, None
        return True, protocol.recv(self.reply_r)

    def request(self, message: dict[str, Any], timeout: float) -> dict[str, Any] | None:
        if not self.send(message):
            return None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got, reply = self.poll_reply(deadline - time.monotonic())
            if got:
                return reply
        return None

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> int:
        """SIGKILL, not an interrupt: a C-level loop ignores interrupts (trap 6)."""
        if self.proc.poll() is None:
            try:
                self.proc.send_signal(signal.SIGKILL)
            except ProcessLookupError:
                pass
        code = self.proc.wait()
        for fd in (self.command_w, self.reply_r):
            try:
                os.close(fd)
            except OSError:
                pass
        self.command_w = self.reply_r = -1
        return code

    def log_tail(self, chars: int = 2000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:].strip()
        except OSError:
            return ""


def build_isolation(worker_features: dict[str, bool], notes: list[str], parent_features: dict[str, bool]) -> Isolation:
    features = {"env_scrubbed": True, **worker_features, **parent_features}
    if sys.platform != "linux":
        level = "none"
    elif all(features.get(name) for name in _REQUIRED_FOR_FULL):
        level = "full"
    else:
        level = "partial"
    isolation = Isolation(level=level, features=features, notes=list(notes))
    for name, on in features.items():
        if not on and name not in _warned:
            _warned.add(name)
            detail = next((n for n in notes if name.split("_")[0] in n.lower()), "")
            warnings.warn(
                f"dsagent sandbox: {name} is unavailable on this machine; generated code runs less "
                f"confined. {detail}".strip(),
                SandboxWarning,
                stacklevel=3,
            )
    return isolation
