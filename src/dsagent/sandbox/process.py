"""Parent side of one worker process: environment, launch, messages, and how it ended.

Nothing here imports pandas: the parent only hands the worker paths and code.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from dsagent.sandbox import protocol
from dsagent.sandbox.base import Isolation

# Confinement the "full" level needs; landlock_scope (ABI 6) and the rest are extras.
_REQUIRED_FOR_FULL = ("netns", "landlock_fs", "landlock_net", "seccomp", "memory_cgroup", "own_uid")
_warned: set[str] = set()


_SANDBOX_UIDS = range(61_000, 61_100)


def sandbox_uid() -> int | None:
    """The uid the worker switches to when dsagent is root: the first of a private range that no
    account uses (so it owns none of the machine's files). None when dsagent is not root."""
    if sys.platform != "linux" or os.geteuid() != 0:
        return None
    import pwd

    for uid in _SANDBOX_UIDS:
        try:
            pwd.getpwuid(uid)
        except KeyError:
            return uid
    return None


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
        # Arrow (pandas 3 text columns, Parquet) on malloc: its mimalloc reserves address space a GiB at a
        # time, and the worker's address space is capped (RLIMIT_AS): a first Parquet write took 1.2 GB of it.
        "ARROW_DEFAULT_MEMORY_POOL": "system",
        "PYTHONPATH": str(package_root),  # the same dsagent as the parent, also from a checkout
    }


_STDERR_KEPT = 64 * 1024
"""The worker's stderr is drained through a pipe and only its last bytes are kept (for crash
reports): code that floods fd 2 fills no disk outside the workspace."""
_spawner: ThreadPoolExecutor | None = None
_spawner_lock = threading.Lock()


def _spawn_thread() -> ThreadPoolExecutor:
    """One thread that lives as long as dsagent: workers are started from it, because the kernel
    sends PR_SET_PDEATHSIG when the thread that forked the worker exits, not the process."""
    global _spawner
    with _spawner_lock:
        if _spawner is None:
            _spawner = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dsagent-sandbox-spawn")
        return _spawner


class EndedSilently(Exception):
    """The worker ended before it was ready and wrote nothing: a signal from outside (the OOM killer
    of a loaded machine, say), not an error of its own. Worth another start."""


def how_it_ended(code: int) -> str:
    """The exit of a worker that wrote nothing, in words (``code`` as ``Popen.wait`` returns it)."""
    if code < 0:
        try:
            return f"it was ended by {signal.Signals(-code).name} before it was ready, with no message"
        except ValueError:
            pass
    return f"it exited with code {code} before it was ready, with no message"


class WorkerProcess:
    """One launched worker: its pipes, its pid, and the tail of its stderr kept for crash reports.

    The configuration travels as the first message on the command pipe (the worker's stdin), not
    in a file the code could read later."""

    def __init__(self, config: dict[str, Any], env: dict[str, str], cwd: Path) -> None:
        command_r, self.command_w = os.pipe()
        self.reply_r, reply_w = os.pipe()
        config = {**config, "reply_fd": reply_w, "parent_pid": os.getpid()}
        try:
            self.proc = _spawn_thread().submit(self._launch, command_r, reply_w, env, cwd).result()
        finally:
            os.close(command_r)
            os.close(reply_w)
        self.pid = self.proc.pid
        self.ready = False
        self.reader = protocol.Reader(self.reply_r)
        self._stderr = bytearray()
        self._drain = threading.Thread(target=self._drain_stderr, name="dsagent-sandbox-stderr", daemon=True)
        self._drain.start()
        self.send(config)

    @staticmethod
    def _launch(command_r: int, reply_w: int, env: dict[str, str], cwd: Path) -> subprocess.Popen[bytes]:
        return subprocess.Popen(  # noqa: S603 - our own interpreter and module
            [sys.executable, "-P", "-s", "-m", "dsagent.sandbox.worker"],
            pass_fds=(reply_w,), env=env, cwd=cwd,
            stdin=command_r, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )

    def _drain_stderr(self) -> None:
        stream = self.proc.stderr
        assert stream is not None
        while chunk := stream.read1(1 << 16):
            self._stderr += chunk
            if len(self._stderr) > _STDERR_KEPT:
                del self._stderr[: len(self._stderr) - _STDERR_KEPT]
        stream.close()

    def send(self, message: dict[str, Any]) -> bool:
        try:
            protocol.send(self.command_w, message)
            return True
        except OSError:  # the worker is gone; the caller finds out how from wait()
            return False

    def poll_reply(self, timeout: float) -> tuple[bool, dict[str, Any] | None]:
        """(True, message) when a whole reply came, (True, None) at EOF, (False, None) on timeout.
        Raises protocol.ProtocolError for a malformed one."""
        return self.reader.poll(timeout)

    def request(self, message: dict[str, Any], timeout: float) -> dict[str, Any] | None:
        if not self.send(message):
            return None
        got, reply = self.poll_reply(timeout)
        return reply if got else None

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
        self._drain.join(2)
        for fd in (self.command_w, self.reply_r):
            try:
                os.close(fd)
            except OSError:
                pass
        self.command_w = self.reply_r = -1
        return code

    def log_tail(self, chars: int = 2000) -> str:
        return bytes(self._stderr).decode(errors="replace")[-chars:].strip()


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
