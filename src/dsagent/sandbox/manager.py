"""``Sandbox``: a warm, confined worker process that runs generated code under hard limits.

A breach of any limit kills the worker and starts a fresh one at once, so the next ``run``
finds it (nearly) ready; the breaching run reports the limit, its value and the lost state.
Not thread-safe: one caller runs one cell at a time.
"""

from __future__ import annotations

import json
import os
import pickle
import resource
import shutil
import signal
import tempfile
import time
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dsagent.atomic import write_atomic
from dsagent.errors import DsagentError
from dsagent.sandbox import memory
from dsagent.sandbox.base import ExecutionResult, Isolation, Limits
from dsagent.sandbox.process import WorkerProcess, build_isolation, worker_env

START_TIMEOUT_S = 120.0  # the very first start builds matplotlib's font cache
_POLL_S = 0.1  # trap 7: an OOM kill is only seen when polled
# A cell pauses the background imports, but one may be halfway: allow what the largest adds.
_IMPORT_RSS_MB = 100.0
_IMPORT_VM_MB = 256.0
_AS_SLACK_MB = 512.0  # RLIMIT_AS only turns huge allocations into MemoryError (trap 1)
_CPU_MARGIN_S = 5
_STATE_LOST = "The worker was restarted, so its state was reset: variables from earlier cells are gone (the datasets are loaded again)."


class SandboxStartError(DsagentError):
    """The worker process could not start; the message carries its last words."""


class Sandbox:
    """Runs code in a warm worker that holds ``datasets`` (and ``df`` for a single dataset)."""

    def __init__(
        self,
        workspace: Path,
        datasets: Mapping[str, Any],
        limits: Limits = Limits(),
        source_files: Sequence[Path] = (),
        *,
        file_names: Mapping[str, tuple[str, str | None]] | None = None,
        cache_dir: Path | None = None,
        preload: bool = True,
    ) -> None:
        self.workspace = Path(workspace).resolve()
        self.limits = limits
        self.source_files = [Path(p).resolve() for p in source_files]
        self.restarts = 0
        self._datasets = dict(datasets)
        # dataset id -> (the file name it was loaded from, its sheet): pandas readers given that
        # name return the loaded frame (see loaded_files.py)
        self._file_names = dict(file_names or {})
        self._preload = preload
        if cache_dir is None:
            from dsagent.config import default_home

            cache_dir = default_home() / "cache"
        self._mpl_dir = Path(cache_dir).resolve() / "matplotlib"
        self._cell = 0
        self._spawned = 0
        self._baseline_mb = 0.0
        self._isolation: Isolation | None = None
        self._state: dict[str, Any] = {"worker": None, "cgroup": None, "data_dir": None}
        self._finalizer = weakref.finalize(self, _cleanup, self._state)
        self._cgroup_note = ""

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> None:
        """Start the worker and wait until it is ready; idempotent."""
        if self._state["data_dir"] is None:
            self._prepare()
        worker = self._state["worker"]
        if worker is None or not worker.alive():
            if worker is not None:
                worker.kill()
            self._spawn()
        self._wait_ready()

    def close(self) -> None:
        """Kill the worker, then remove its cgroup and the private copy of the data."""
        self._finalizer()

    def __enter__(self) -> "Sandbox":
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def isolation(self) -> Isolation:
        if self._isolation is None:
            self.start()
        assert self._isolation is not None
        return self._isolation

    def _prepare(self) -> None:
        for sub in ("cells", "figures", "tables", ".tmp"):
            (self.workspace / sub).mkdir(parents=True, exist_ok=True)
        self._mpl_dir.mkdir(parents=True, exist_ok=True)
        if not self._finalizer.alive:  # started again after close()
            self._finalizer = weakref.finalize(self, _cleanup, self._state)
        data_dir = Path(tempfile.mkdtemp(prefix="dsagent-sandbox-"))
        self._state["data_dir"] = data_dir
        manifest = []
        for i, (dataset_id, frame) in enumerate(self._datasets.items()):
            with open(data_dir / f"dataset_{i}.pkl", "wb") as fh:
                pickle.dump(frame, fh, protocol=pickle.HIGHEST_PROTOCOL)
            name, sheet = self._file_names.get(dataset_id, (None, None))
            manifest.append({"id": str(dataset_id), "file": f"dataset_{i}.pkl", "name": name, "sheet": sheet})
        (data_dir / "datasets.json").write_text(json.dumps(manifest))
        group, self._cgroup_note = memory.MemoryCgroup.create()
        self._state["cgroup"] = group

    def _spawn(self) -> None:
        data_dir: Path = self._state["data_dir"]
        self._spawned += 1
        config = {
            "workspace": str(self.workspace), "data_dir": str(data_dir), "mpl_dir": str(self._mpl_dir),
            "read_files": [str(p) for p in self.source_files], "confine": True, "preload": self._preload,
        }
        worker = WorkerProcess(
            config, data_dir / f"worker_{self._spawned}.json", data_dir / "worker.log",
            worker_env(self.workspace, self._mpl_dir), self.workspace,
        )
        self._state["worker"] = worker
        group = self._state["cgroup"]
        if group is not None:
            try:
                group.add(worker.pid)
            except OSError as exc:
                self._cgroup_note = f"could not join the memory cgroup: {exc.strerror}"
                self._state["cgroup"] = None

    def _wait_ready(self) -> None:
        worker: WorkerProcess = self._state["worker"]
        if worker.ready:
            return
        got, message = worker.poll_reply(START_TIMEOUT_S)
        if not got or message is None or message.get("type") != "ready":
            reason = (message or {}).get("error") or worker.log_tail() or "no reply"
            worker.kill()
            self._state["worker"] = None
            raise SandboxStartError(f"The sandbox worker failed to start: {reason}")
        worker.ready = True
        self._baseline_mb = memory.read_status(worker.pid).get("VmRSS", 0) / 1024
        notes = list(message["notes"])
        if self._state["cgroup"] is None:
            notes.append(f"memory limit by RSS polling only ({self._cgroup_note})")
        parent = {"memory_cgroup": self._state["cgroup"] is not None, "rlimits": hasattr(resource, "prlimit")}
        self._isolation = build_isolation(message["features"], notes, parent)

    def _restart(self) -> None:
        """Kill now, launch the successor now, let the next run wait for its readiness."""
        worker = self._state["worker"]
        if worker is not None:
            worker.kill()
        self.restarts += 1
        self._spawn()

    # -- running ---------------------------------------------------------------------------
    def run(self, code: str, limits: Limits | None = None, *, allowed_imports: Sequence[str] | None = None) -> ExecutionResult:
        """Run one cell. ``allowed_imports`` (top-level module names), when given, is an allow-list
        for this cell only: its other imports fail with an ImportError that names the allowed ones,
        and the pre-imported names of other modules (px, sm, stats, …) are hidden from it."""
        limits = limits or self.limits
        self.start()
        self._cell += 1
        n = self._cell
        write_atomic(self.workspace / "cells" / f"cell_{n}.py", code)
        worker: WorkerProcess = self._state["worker"]
        status = worker.request({"op": "status"}, timeout=30.0) or {"library_mb": 0.0, "warm": False}
        cap_mb = self._apply_limits(worker.pid, limits, status)
        memory.reset_peak(worker.pid)
        oom_before = self._oom_kills()
        started = time.monotonic()
        sent = worker.send({"op": "run", "cell": n, "code": code, "output_bytes": limits.output_kb * 1024,
                            "allowed_imports": None if allowed_imports is None else list(allowed_imports)})
        reply, killed_for, peak_kb = None, None, 0
        deadline = started + limits.wall_s
        while sent:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                killed_for = "wall_time"
                break
            got, reply = worker.poll_reply(min(_POLL_S, remaining))
            vm = memory.read_status(worker.pid)
            peak_kb = max(peak_kb, vm.get("VmHWM", 0), vm.get("VmRSS", 0))
            if got:
                break
            if self._state["cgroup"] is None and vm.get("VmRSS", 0) / 1024 > cap_mb:
                killed_for = "memory"
                break
        duration = time.monotonic() - started
        peak_mb = peak_kb / 1024
        if reply is not None and reply.get("breached") is None:
            self._release_limits(worker.pid)
            return ExecutionResult(
                success=reply["error"] is None, code=code, stdout=reply["stdout"], error=reply["error"],
                result=reply["result"], result_type=reply["result_type"], figures=reply["figures"], figure_data=reply.get("figure_data"),
                tables=reply["tables"], duration_s=round(reply.get("duration_s", duration), 4),
                peak_mb=round(peak_mb, 1),
            )
        return self._breach(code, limits, reply, killed_for, oom_before, duration, peak_mb)

    def _apply_limits(self, pid: int, limits: Limits, status: dict[str, Any]) -> float:
        """Memory cap (cgroup or polling), RLIMIT_AS, RLIMIT_CPU and RLIMIT_FSIZE for one run."""
        allowance = _IMPORT_RSS_MB if status.get("importing") else 0.0
        cap_mb = self._baseline_mb + status["library_mb"] + allowance + limits.memory_mb
        group = self._state["cgroup"]
        if group is not None:
            group.set_limit(int(cap_mb * memory.MB))
        if not hasattr(resource, "prlimit"):
            return cap_mb
        vm_mb = memory.read_status(pid).get("VmSize", 0) / 1024
        vm_allowance = _IMPORT_VM_MB if status.get("importing") else 0.0
        address_space = int((vm_mb + limits.memory_mb + vm_allowance + _AS_SLACK_MB) * memory.MB)
        cpu = int(memory.cpu_seconds(pid) + limits.wall_s * (os.cpu_count() or 1)) + _CPU_MARGIN_S
        file_size = limits.file_mb * memory.MB
        _prlimit(pid, resource.RLIMIT_AS, address_space)
        _prlimit(pid, resource.RLIMIT_FSIZE, file_size)
        _prlimit(pid, resource.RLIMIT_CPU, cpu)
        return cap_mb

    def _release_limits(self, pid: int) -> None:
        """Between runs the background imports may grow the worker past the last run's cap."""
        group = self._state["cgroup"]
        if group is not None:
            group.set_limit(-1)
        if hasattr(resource, "prlimit"):
            _prlimit(pid, resource.RLIMIT_AS, resource.RLIM_INFINITY)

    def _oom_kills(self) -> int:
        group = self._state["cgroup"]
        return group.oom_kills() if group is not None else 0

    def _breach(
        self, code: str, limits: Limits, reply: dict[str, Any] | None, killed_for: str | None,
        oom_before: int, duration: float, peak_mb: float,
    ) -> ExecutionResult:
        worker: WorkerProcess = self._state["worker"]
        breached = killed_for or (reply or {}).get("breached")
        exit_code = worker.kill()
        log = worker.log_tail(800)
        if breached is None and self._oom_kills() > oom_before:
            breached = "memory"
        if breached is None and exit_code in (-signal.SIGXCPU, -signal.SIGKILL) and duration < limits.wall_s:
            breached = "cpu" if exit_code == -signal.SIGXCPU else None
        self._restart()
        stdout = (reply or {}).get("stdout", "")
        if breached == "wall_time":
            error = f"Wall-time limit exceeded: the code was still running after {limits.wall_s:g} s and was stopped."
        elif breached == "memory":
            detail = f" ({reply['error']})" if reply and reply.get("error") else ""
            error = (f"Memory limit exceeded: the code needed more than {limits.memory_mb} MB{detail}. "
                     "Use fewer rows or columns, smaller dtypes, or aggregate before expanding.")
        elif breached == "output":
            error = (f"Output limit exceeded: the code printed more than {limits.output_kb} KB. "
                     "Print less: a summary, df.head() or the `result` variable instead of whole tables.")
        elif breached == "cpu":
            breached = "wall_time"
            error = f"CPU-time limit exceeded (the backstop of the {limits.wall_s:g} s wall-time limit)."
        else:
            error = f"The worker process died unexpectedly (exit code {exit_code})." + (f"\n{log}" if log else "")
        return ExecutionResult(
            success=False, code=code, stdout=stdout, error=f"{error} {_STATE_LOST}",
            duration_s=round(duration, 4), peak_mb=round(peak_mb, 1), limit_breached=breached,
        )


def _prlimit(pid: int, which: int, soft: int) -> None:
    """Soft limits only: lowering a hard limit could not be undone without CAP_SYS_RESOURCE.

    The worker cannot raise them back: seccomp denies it setrlimit and prlimit64 writes.
    """
    try:
        resource.prlimit(pid, which, (soft, resource.prlimit(pid, which)[1]))
    except (OSError, ValueError):
        pass  # the worker just exited; the run reports that instead


def _cleanup(state: dict[str, Any]) -> None:
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
