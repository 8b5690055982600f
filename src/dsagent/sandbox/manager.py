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
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dsagent.errors import DsagentError
from dsagent.sandbox import duck, fsafe, memory, outputs
from dsagent.sandbox.leftovers import DATA_PREFIX, breach_message
from dsagent.sandbox.limits import cell_limits, idle_limits
from dsagent.sandbox.leftovers import cleanup as _cleanup
from dsagent.sandbox.leftovers import remove_leftovers as _remove_leftovers
from dsagent.sandbox.base import CodeRun, Isolation, Limits
from dsagent.sandbox.process import EndedSilently, WorkerProcess, build_isolation, how_it_ended, sandbox_uid, worker_env
from dsagent.sandbox.protocol import ProtocolError
from dsagent.sandbox.watch import watch_cell

START_TIMEOUT_S = 120.0  # the very first start builds matplotlib's font cache
_STARTS = 3  # a worker killed from outside before it is ready is started again, twice at most
SANDBOX_DIR = "sandbox"
"""The code's own directory inside the workspace (its cwd, HOME and TMPDIR): the only place it may
write. dsagent's own files (cells/, figures/, tables/, report.*) are beside it, out of its reach."""
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
        broker: Any = None,
        sql_options: Mapping[str, Any] | None = None,
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
        self._broker = broker  # answers the code's sql() for a database source (sql_bridge.py)
        self._sql_options = dict(sql_options or {})  # DuckDB's limits in the worker (duck.options_from_settings)
        if cache_dir is None:
            from dsagent.config import default_home

            cache_dir = default_home() / "cache"
        self._mpl_dir = Path(cache_dir).resolve() / "matplotlib"
        self._cell = 0
        self._start_lock = threading.RLock()  # start() and run(): one thread at a time
        self._spawned = 0
        self._baseline_mb = 0.0
        self._isolation: Isolation | None = None
        self._state: dict[str, Any] = {"worker": None, "cgroup": None, "data_dir": None}
        self._finalizer = weakref.finalize(self, _cleanup, self._state)
        self._cgroup_note = ""
        self.sandbox_dir = self.workspace / SANDBOX_DIR
        self._uid = sandbox_uid()
        self._idle = {"library_mb": 0.0, "warm": False}
        self._note = ""  # what happened to the worker between cells, told with the next result

    # -- lifecycle -------------------------------------------------------------------------
    @property
    def broker(self) -> Any:
        """The database source's broker behind the code's ``sql()`` (None without one)."""
        return self._broker

    def start(self) -> None:
        """Start the worker and wait until it is ready; idempotent, and safe from two threads (a
        Session warms the worker in the background while its owner may already run a cell: both
        must not prepare the folders or spawn a worker, one killing the other's)."""
        with self._start_lock:
            if self._state["data_dir"] is None:
                self._prepare()
            for attempt in range(1, _STARTS + 1):
                worker = self._state["worker"]
                if worker is None or not worker.alive():
                    if worker is not None:
                        worker.kill()
                    self._spawn()
                try:
                    self._wait_ready()
                    return
                except EndedSilently as exc:
                    if attempt == _STARTS:
                        raise SandboxStartError(f"The sandbox worker failed to start {_STARTS} times: {exc}") from None
                    time.sleep(0.5 * attempt)  # whatever killed it may be passing (a loaded machine)

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
        _remove_leftovers()
        for sub in ("cells", "figures", "tables"):
            (self.workspace / sub).mkdir(parents=True, exist_ok=True)
        self._make_sandbox_dir()
        self._mpl_dir.mkdir(parents=True, exist_ok=True)
        if self._uid is not None:  # matplotlib uses its cache dir only if it may write there (Landlock still says no)
            os.chown(self._mpl_dir, self._uid, self._uid)
        if not self._finalizer.alive:  # started again after close()
            self._finalizer = weakref.finalize(self, _cleanup, self._state)
        data_dir = Path(tempfile.mkdtemp(prefix=f"{DATA_PREFIX}{os.getpid()}-"))
        self._state["data_dir"] = data_dir
        manifest = []
        for i, (dataset_id, frame) in enumerate(self._datasets.items()):
            name, sheet = self._file_names.get(dataset_id, (None, None))
            if isinstance(frame, duck.FileScan):  # too big for pandas: the worker's DuckDB reads the file itself
                manifest.append({"id": str(dataset_id), "scan": frame.to_json(), "name": name, "sheet": sheet})
                continue
            with open(data_dir / f"dataset_{i}.pkl", "wb") as fh:
                pickle.dump(frame, fh, protocol=pickle.HIGHEST_PROTOCOL)
            manifest.append({"id": str(dataset_id), "file": f"dataset_{i}.pkl", "name": name, "sheet": sheet})
        (data_dir / "datasets.json").write_text(json.dumps(manifest))
        group, self._cgroup_note = memory.MemoryCgroup.create()
        self._state["cgroup"] = group

    def _make_sandbox_dir(self) -> None:
        """``sandbox/`` with figures/, tables/ and .tmp/, owned by the worker's uid. Made without
        following links; a folder the code left in a strange state is wiped and made again."""
        for attempt in range(2):
            try:
                for parts in ([], ["figures"], ["tables"], [".tmp"]):
                    with fsafe.open_dir(self.workspace, [SANDBOX_DIR, *parts], create=True) as fd:
                        if self._uid is not None:
                            os.fchown(fd, self._uid, self._uid)
                return
            except fsafe.UnsafePath:
                if attempt:
                    raise
                self._wipe_sandbox_dir()

    def _wipe_sandbox_dir(self) -> None:
        shutil.rmtree(self.sandbox_dir, ignore_errors=True)  # fd-based: never follows a link
        if os.path.lexists(self.sandbox_dir):
            os.unlink(self.sandbox_dir)

    def _spawn(self) -> None:
        data_dir: Path = self._state["data_dir"]
        self._spawned += 1
        config = {
            "workspace": str(self.sandbox_dir), "data_dir": str(data_dir), "mpl_dir": str(self._mpl_dir),
            "read_files": [str(p) for p in self.source_files], "confine": True, "preload": self._preload,
            "uid": self._uid, "sql_bridge": self._broker is not None,
            "sql_tables": getattr(self._broker, "table_names", {}), "hard_limits": {"file_mb": self.limits.file_mb, "memory_mb": self.limits.memory_mb},
            "sql": self._sql_options,
        }
        worker = WorkerProcess(config, worker_env(self.sandbox_dir, self._mpl_dir), self.sandbox_dir)
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
        try:
            got, message = worker.poll_reply(START_TIMEOUT_S)
        except ProtocolError as exc:
            got, message = True, {"error": str(exc)}
        if not got or message is None or message.get("type") != "ready":
            code = worker.kill()  # first: kill() joins the stderr drain, so the log's tail is whole
            self._state["worker"] = None
            reason = (message or {}).get("error") or worker.log_tail()
            if reason:
                raise SandboxStartError(f"The sandbox worker failed to start: {reason}")
            if not got:
                raise SandboxStartError(f"The sandbox worker failed to start: no reply in {START_TIMEOUT_S:.0f} s")
            raise EndedSilently(how_it_ended(code))
        worker.ready = True
        self._baseline_mb = memory.read_status(worker.pid).get("VmRSS", 0) / 1024
        notes = list(message["notes"])
        if self._state["cgroup"] is None:
            notes.append(f"memory limit by RSS polling only ({self._cgroup_note})")
        if hasattr(resource, "prlimit"):
            try:
                resource.prlimit(worker.pid, resource.RLIMIT_CPU)
            except OSError:
                notes.append("rlimits: file size and address space are the worker's own hard limits; no per-cell "
                             "CPU limit (dsagent lacks CAP_SYS_RESOURCE over the worker's uid; the wall limit holds)")
        parent = {"memory_cgroup": self._state["cgroup"] is not None, "rlimits": hasattr(resource, "prlimit")}
        self._isolation = build_isolation(message["features"], notes, parent)
        self._idle = {"library_mb": 0.0, "warm": False}
        self._idle_limits(worker.pid, self.limits)

    def _restart(self) -> None:
        """Kill now, launch the successor now, let the next run wait for its readiness."""
        worker = self._state["worker"]
        if worker is not None:
            worker.kill()
        self.restarts += 1
        self._spawn()

    # -- running ---------------------------------------------------------------------------
    def _check_between_cells(self, limits: Limits) -> None:
        """What the worker did while no cell ran: died (a thread past the memory cap), wrote to
        the reply pipe, or filled the disk. Any of these restarts it; the next result says so."""
        worker: WorkerProcess | None = self._state["worker"]
        if worker is None or not worker.ready:
            return
        why = ""
        if not worker.alive():
            why = "The worker stopped between cells (a thread of an earlier cell passed a limit)."
        elif worker.reader.pending():
            why = "Code of an earlier cell wrote to the sandbox's reply channel, so the worker was stopped."
        elif fsafe.tree_bytes(self.sandbox_dir, limits.workspace_mb * memory.MB) > limits.workspace_mb * memory.MB:
            self._wipe_after(worker)
            why = f"The code's files passed the workspace limit of {limits.workspace_mb} MB between cells and were deleted."
        if why:
            self._restart()
            self._note = f"{why} {_STATE_LOST}"

    def run(self, code: str, limits: Limits | None = None, *, allowed_imports: Sequence[str] | None = None,
            apart: bool = False, fresh_data: bool = False) -> CodeRun:
        """Run one cell. ``allowed_imports`` (top-level module names), when given, is an allow-list
        for this cell only: its other imports fail with an ImportError that names the allowed ones,
        and the pre-imported names of other modules (px, sm, stats, …) are hidden from it.
        ``apart``: the cell sees the session's names but what it binds or changes is not kept
        (an independent check must not change the data the analysis' own cells see).
        ``fresh_data``: ``df`` and ``datasets`` are the data as loaded again before the cell runs (a
        run's first cell: what earlier questions' cells bound to those names is not this one's data).
        Cells asked for from several threads run one after another (one worker, one cell)."""
        with self._start_lock:
            return self._run(code, limits, allowed_imports, apart, fresh_data)

    def _run(self, code: str, limits: Limits | None, allowed_imports: Sequence[str] | None, apart: bool = False,
             fresh_data: bool = False) -> CodeRun:
        limits = limits or self.limits
        self._check_between_cells(limits)
        self.start()
        self._cell += 1
        n = self._cell
        fsafe.write_bytes(self.workspace, f"cells/cell_{n}.py", code.encode("utf-8"))
        worker: WorkerProcess = self._state["worker"]
        reply, killed_for, violation, peak_kb = None, None, None, 0
        try:
            reply = worker.request({"op": "status"}, timeout=30.0)
            if reply is None:  # it was dying already (a thread of an earlier cell passed the memory cap)
                self._restart()
                self._note = f"The worker stopped between cells (a thread of an earlier cell passed a limit). {_STATE_LOST}"
                self.start()
                worker = self._state["worker"]
                reply = worker.request({"op": "status"}, timeout=30.0)
            status = outputs.check_status(reply)
            reply = None
        except (ProtocolError, outputs.ReplyError) as exc:
            status, killed_for, violation = None, "protocol", str(exc)
        oom_before = self._oom_kills()
        started = time.monotonic()
        if status is not None:
            self._idle = {"library_mb": status["library_mb"], "warm": status["warm"]}
            cap_mb = self._apply_limits(worker.pid, limits, status)
            memory.reset_peak(worker.pid)
            sent = worker.send({"op": "run", "cell": n, "code": code, "output_bytes": limits.output_kb * 1024,
                                "allowed_imports": None if allowed_imports is None else list(allowed_imports), "apart": apart,
                                "fresh_data": fresh_data})
            if sent:
                reply, killed_for, violation, peak_kb = watch_cell(
                    worker, limits, started, self.sandbox_dir, self._broker,
                    cap_mb if self._state["cgroup"] is None else None)
        duration = time.monotonic() - started
        peak_mb = peak_kb / 1024
        if reply is not None and killed_for is None:
            try:
                reply = outputs.check_done(reply, limits.output_kb * 1024)
                if reply["breached"] is None:
                    figures, tables = outputs.collect(self.sandbox_dir, self.workspace, n, reply["figures"], reply["tables"])
            except outputs.ReplyError as exc:
                killed_for, violation = "protocol", str(exc)
        if reply is not None and killed_for is None and reply["breached"] is None:
            self._idle_limits(worker.pid, limits)
            result = CodeRun(
                success=reply["error"] is None, code=code, stdout=reply["stdout"], error=reply["error"],
                result=reply["result"], result_type=reply["result_type"], figures=figures, figure_data=reply.get("figure_data"),
                tables=tables, duration_s=round(reply.get("duration_s") or duration, 4),
                peak_mb=round(peak_mb, 1),
            )
        else:
            result = self._breach(code, limits, reply if killed_for is None else None, killed_for, oom_before, duration, peak_mb, violation)
        return self._with_note(result)

    def _with_note(self, result: CodeRun) -> CodeRun:
        note, self._note = self._note, ""
        if not note:
            return result
        if result.success:
            return result.model_copy(update={"stdout": f"[dsagent: {note}]\n{result.stdout}"})
        return result.model_copy(update={"error": f"{result.error}\n[dsagent: {note}]"})

    def collect(self, name: str, folder: str = "outputs", max_bytes: int = outputs.FILE_MAX_BYTES) -> Path | None:
        """A file the code wrote (``name`` relative to its directory), copied to
        ``<workspace>/<folder>/<its file name>`` when it is a regular file reached without links
        and not too large; None otherwise. Use the copy, never the code's own file."""
        return outputs.collect_file(self.sandbox_dir, self.workspace, name, folder, max_bytes)

    def _wipe_after(self, worker: WorkerProcess) -> None:
        worker.kill()
        self._wipe_sandbox_dir()
        self._make_sandbox_dir()

    def _apply_limits(self, pid: int, limits: Limits, status: dict[str, Any]) -> float:
        return cell_limits(pid, limits, self._state["cgroup"], self._baseline_mb, status)

    def _idle_limits(self, pid: int, limits: Limits) -> None:
        idle_limits(pid, limits, self._state["cgroup"], self._baseline_mb, self._idle["library_mb"], self._idle["warm"])

    def _oom_kills(self) -> int:
        group = self._state["cgroup"]
        return group.oom_kills() if group is not None else 0

    def _breach(
        self, code: str, limits: Limits, reply: dict[str, Any] | None, killed_for: str | None,
        oom_before: int, duration: float, peak_mb: float, violation: str | None = None,
    ) -> CodeRun:
        worker: WorkerProcess = self._state["worker"]
        breached = killed_for or (reply or {}).get("breached")
        exit_code = worker.kill()
        if breached == "workspace":
            self._wipe_after(worker)
        log = worker.log_tail(800)
        if breached is None and self._oom_kills() > oom_before:
            breached = "memory"
        if breached is None and exit_code in (-signal.SIGXCPU, -signal.SIGKILL) and duration < limits.wall_s:
            breached = "cpu" if exit_code == -signal.SIGXCPU else None
        self._restart()
        stdout = (reply or {}).get("stdout", "")
        breached, error = breach_message(breached, limits, reply, violation, exit_code, log)
        return CodeRun(
            success=False, code=code, stdout=stdout, error=f"{error} {_STATE_LOST}",
            duration_s=round(duration, 4), peak_mb=round(peak_mb, 1), limit_breached=breached,
        )

