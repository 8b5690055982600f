"""What a worker leaves behind, and what its breach is called.

A dsagent killed with ``kill -9`` cannot clean up: its private data (``/tmp/dsagent-sandbox-<pid>-*``,
a pickled copy of the user's data) and its memory cgroup (``dsagent-<pid>-*``) stay. Every start
removes those whose dsagent process no longer exists.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Any

from dsagent.sandbox import memory
from dsagent.sandbox.base import Limits

DATA_PREFIX = "dsagent-sandbox-"


def breach_message(
    breached: str | None, limits: Limits, reply: dict[str, Any] | None, violation: str | None, exit_code: int, log: str,
) -> tuple[str | None, str]:
    """The limit (``cpu`` is reported as ``wall_time``) and the error that names it and its value."""
    if breached == "wall_time":
        error = f"Wall-time limit exceeded: the code was still running after {limits.wall_s:g} s and was stopped."
    elif breached == "memory":
        detail = f" ({reply['error']})" if reply and reply.get("error") else ""
        error = (f"Memory limit exceeded: the code needed more than {limits.memory_mb} MB{detail}. "
                 "Use fewer rows or columns, smaller dtypes, or aggregate before expanding.")
    elif breached == "output":
        error = (f"Output limit exceeded: the code printed more than {limits.output_kb} KB. "
                 "Print less: a summary, df.head() or the `result` variable instead of whole tables.")
    elif breached == "workspace":
        error = (f"Workspace size limit exceeded: the code's files passed {limits.workspace_mb} MB in total, so the "
                 "cell was stopped and the files it had written were deleted. Write fewer or smaller files.")
    elif breached == "protocol":
        error = (f"The sandbox worker sent a malformed or forged reply ({violation}), so the cell was stopped. "
                 "Code must not write to the sandbox's own pipes.")
    elif breached == "cpu":
        breached = "wall_time"
        error = f"CPU-time limit exceeded (the backstop of the {limits.wall_s:g} s wall-time limit)."
    else:
        error = f"The worker process died unexpectedly (exit code {exit_code})." + (f"\n{log}" if log else "")
    return breached, error


def remove_leftovers() -> None:
    """The private data (``/tmp/dsagent-sandbox-<pid>-*``) and memory cgroups
    of dsagent processes that died without cleaning up (kill -9)."""
    for path in Path(tempfile.gettempdir()).glob(f"{DATA_PREFIX}*"):
        pid = memory.owner_pid(path.name, DATA_PREFIX)
        if pid is None or pid == os.getpid() or memory.pid_alive(pid):
            continue
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid():
            shutil.rmtree(path, ignore_errors=True)
    memory.remove_stale_cgroups()


def cleanup(state: dict[str, Any]) -> None:
    worker = state.get("worker")
    if worker is not None:
        worker.kill()  # waits: the cgroup can only go once its process has exited (trap 10)
        state["worker"] = None
    if state.get("cgroup") is not None:
        state["cgroup"].remove()
        state["cgroup"] = None
    if state.get("data_dir") is not None:
        shutil.rmtree(state["data_dir"], ignore_errors=True)
        state["data_dir"] = None
