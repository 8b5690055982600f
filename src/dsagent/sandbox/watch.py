"""Watch one running cell against its limits, from the parent: wall time, the code's directory
size, resident memory where no cgroup caps it, and the code's ``sql()`` requests, which the broker
answers while the cell waits. Split from :mod:`dsagent.sandbox.manager`, which starts, restarts and
reports; this is the loop between sending a cell and its reply."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from dsagent.sandbox import fsafe, memory, sql_bridge
from dsagent.sandbox.base import Limits
from dsagent.sandbox.process import WorkerProcess
from dsagent.sandbox.protocol import ProtocolError

POLL_S = 0.1  # trap 7: an OOM kill is only seen when polled
SIZE_EVERY_S = 0.5  # how often the parent measures the code's directory during a cell


def watch_cell(worker: WorkerProcess, limits: Limits, started: float, sandbox_dir: Path, broker: Any,
               rss_cap_mb: float | None) -> tuple[dict[str, Any] | None, str | None, str | None, int]:
    """Poll until the worker replies or a limit is passed: ``(reply, killed_for, violation,
    peak_kb)``. ``killed_for`` names the limit (``wall_time``, ``workspace``, ``memory``,
    ``protocol``), with ``violation`` saying how the protocol was broken; ``rss_cap_mb`` is the
    resident-memory cap the parent enforces itself (None under a cgroup, which enforces its own)."""
    reply, killed_for, violation, peak_kb = None, None, None, 0
    deadline, next_size = started + limits.wall_s, started + SIZE_EVERY_S
    workspace_bytes = limits.workspace_mb * memory.MB
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return reply, "wall_time", violation, peak_kb
        try:
            got, reply = worker.poll_reply(min(POLL_S, remaining))
        except ProtocolError as exc:
            return reply, "protocol", str(exc), peak_kb
        if got and reply is not None and reply.get("type") == "sql":  # the code's sql(): the broker answers
            if not sql_bridge.serve(worker.command_w, sql_bridge.answer(broker, reply), deadline):
                return None, "wall_time", violation, peak_kb
            got, reply = False, None
        vm = memory.read_status(worker.pid)
        peak_kb = max(peak_kb, vm.get("VmHWM", 0), vm.get("VmRSS", 0))
        if got or time.monotonic() >= next_size:
            next_size = time.monotonic() + SIZE_EVERY_S
            if fsafe.tree_bytes(sandbox_dir, workspace_bytes) > workspace_bytes:
                return None, "workspace", violation, peak_kb
        if got:
            return reply, killed_for, violation, peak_kb
        if rss_cap_mb is not None and vm.get("VmRSS", 0) / 1024 > rss_cap_mb:
            return reply, "memory", violation, peak_kb
