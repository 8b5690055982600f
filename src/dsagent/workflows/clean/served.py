"""The clean graph's context when it is served to clients (LangGraph server): from the operator, per thread.

A client of a served graph is not the user at a shell (issue 38, finding 3). What it sends in the
state — ``data_raw`` paths, or a ``workspace`` written in the input, the run's configuration or
through the API's ``update_state`` — never decides where anything is written:

- the data paths are held to the setting ``allowed_roots`` (symlinks resolved first,
  :func:`dsagent.access.allowed_paths`);
- the workspace (cells, the sandbox's writable folder, cleaned files, ``data_cleaner.py``, the
  report) is ``<workspace_root>/served-clean/<digest of the thread id>/``, made by dsagent, the
  same folder for every run of a thread (the review is answered in a later run), never one a client
  names;
- each thread has its own session (datasets, sandbox), so one client's thread never cleans another's files.

The operator's settings come from the serving process (``load_settings()``: environment and
``dsagent.toml``), never from the client.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from pathlib import Path
from collections.abc import Callable
from typing import Any

from dsagent.errors import UserError

KEEP_SESSIONS = 8
"""Threads whose session (and sandbox worker) stays open; the oldest is closed beyond this."""


def thread_workspace(root: Path | str, thread_id: str) -> Path:
    """The folder of a served thread under ``root``: named by a digest, so no id can walk out of it."""
    base = Path(root).expanduser().resolve()
    path = base / "served-clean" / hashlib.sha256(thread_id.encode()).hexdigest()[:20]
    path.mkdir(parents=True, exist_ok=True)
    if path.resolve() != path or not path.is_relative_to(base):  # a link planted in the way
        raise UserError(f"the workspace of thread {thread_id!r} is not a plain folder under {base}; remove what is at {path}")
    return path


class ServedContexts:
    """The nodes over one RunContext per (thread, files), built from the operator's settings on a
    thread's first node. ``make``: the nodes of a context (``nodes.make_nodes``)."""

    def __init__(self, make: Callable[[Any], dict[str, Any]]) -> None:
        self._make = make
        self._lock = threading.Lock()
        self._open: OrderedDict[tuple[str, tuple[str, ...]], tuple[Any, dict[str, Any]]] = OrderedDict()

    def nodes(self, state: dict[str, Any], config: dict[str, Any] | None) -> dict[str, Any]:
        from dsagent.config import load_settings
        from dsagent.access import allowed_paths

        raw = [r.get("path") for r in (state.get("data_raw") or {}).values() if isinstance(r, dict) and r.get("path")]
        if not raw:
            raise UserError('the clean graph needs data_raw: {"name": {"path": "file.csv"}} of the files to clean')
        settings = load_settings()
        paths = allowed_paths(raw, settings.allowed_roots)  # refused before anything is made
        thread = str(((config or {}).get("configurable") or {}).get("thread_id") or "")
        key = (thread, tuple(paths))
        with self._lock:
            if key in self._open:
                self._open.move_to_end(key)
                return self._open[key][1]
            session, ctx = _context(paths, thread, settings, state.get("user_instructions") or "")
            self._open[key] = (session, self._make(ctx))
            while len(self._open) > KEEP_SESSIONS:
                old, _ = self._open.popitem(last=False)
                try:
                    old.close()
                except Exception:  # noqa: BLE001 - a worker already gone
                    pass
            return self._open[key][1]


def _context(paths: list[str], thread: str, settings: Any, instructions: str) -> tuple[Any, Any]:
    """A thread's session and its run (opened by the session, left open for the thread's later nodes)."""
    from dsagent.session import Session

    workspace = thread_workspace(settings.workspace_root, thread) if thread else None  # no thread: a new one
    session = Session(paths, settings=settings, workspace=workspace)
    return session, session.start_run("clean", instructions, cut_results=False)
