"""What a server door made, and so may hand back to its client: runs, their reports, clean threads.

The run log and the clean workflow's checkpoints are shared by every door and the CLI of the same
dsagent home. A server's client is not the user at a shell: given a run id or a thread id it must
not reach a run the user made at the CLI on files outside the server's roots, nor write into that
run's workspace. So a door records what it made (``RunLog.claim_run``, ``RunLog.record_thread``:
kept in the run log, so they hold after a restart) and, on every later request, checks:

- the id is given in full and was recorded as made by this door;
- the data files recorded for it still lie under the server's ``allowed_roots`` (or are among its
  ``allowed_sources``): roots narrowed since, the run is no longer served;
- its workspace lies under the server's ``workspace_root`` (links resolved);
- for a clean thread, the files of the call are the thread's files, and the thread's saved state
  names those same files and a workspace under ``workspace_root``.

A refusal says the same whether the id exists or not, so ids cannot be probed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from dsagent.access import masked_url, under_roots
from dsagent.errors import UserError

MCP = "mcp"
"""The MCP server door's name in the run log (column ``runs.door``, table ``door_threads``)."""


def _is_url(item: str) -> bool:
    return "://" in item or item.startswith("env:")


def recorded(files: Iterable[str]) -> list[str]:
    """The files as the run log keeps them: paths as given (resolved), a database URL with its
    password masked (a password is never written to the log)."""
    return [masked_url(f) if _is_url(f) else f for f in files]


def _files_allowed(files: Iterable[str], settings: Any) -> bool:
    """Every recorded file under the roots now (it need not exist: a deleted file does not widen
    anything), every URL among the allowed sources (compared with passwords masked)."""
    sources = {masked_url(s) for s in getattr(settings, "allowed_sources", None) or ()}
    return all(masked_url(f) in sources if _is_url(f) else under_roots(f, settings.allowed_roots) for f in files)


def run_refused(run_id: str) -> UserError:
    return UserError(f"no run {run_id!r} made by this server: get_report serves only runs that this server's `ask` made "
                     "on files under its allowed folders; give the full run id that `ask` returned")


def owned_run(log: Any, run_id: str, door: str, settings: Any) -> dict[str, Any]:
    """The run ``run_id`` when this door may serve it (module docstring), else :func:`run_refused`."""
    if not isinstance(run_id, str) or not run_id.strip():
        raise run_refused(str(run_id))
    try:
        run = log.get_run(run_id, exact=True)
    except UserError:
        raise run_refused(run_id) from None
    files = json.loads(run.get("door_files") or "null")
    workspace = run.get("workspace") or ""
    if (run.get("door") != door or not isinstance(files, list) or not files or not _files_allowed(files, settings)
            or not workspace or not under_roots(workspace, [settings.workspace_root])):
        raise run_refused(run_id)
    return run


def thread_refused(thread_id: str) -> UserError:
    return UserError(f"no clean thread {thread_id!r} of this server for these files: pass the thread_id that clean_data "
                     "returned for the same paths, or call clean_data without thread_id to start a new one")


def check_thread(log: Any, thread_id: str, door: str, files: list[str], settings: Any,
                 saved_state: Callable[[str, Any], dict[str, Any]]) -> None:
    """Return when the clean thread ``thread_id`` is this door's, on exactly ``files`` (already
    held to the roots by the caller), and its saved state names those files and a workspace under
    ``workspace_root``; else :func:`thread_refused`. ``saved_state`` is the clean API's reader of a
    thread's last checkpoint."""
    if not isinstance(thread_id, str) or not thread_id.strip():
        raise thread_refused(str(thread_id))
    record = log.door_thread(thread_id)
    if record is None or record.get("door") != door or sorted(record.get("files") or []) != sorted(files):
        raise thread_refused(thread_id)
    try:
        state = saved_state(thread_id, settings)
    except UserError:
        raise thread_refused(thread_id) from None
    raw = [str(item.get("path") or "") for item in (state.get("data_raw") or {}).values()]
    workspace = state.get("workspace") or ""
    if (not raw or not all(raw) or not _files_allowed(raw, settings)
            or sorted(str(Path(p).resolve()) for p in raw) != sorted(files)
            or not workspace or not under_roots(workspace, [settings.workspace_root])):
        raise thread_refused(thread_id)
