"""Live progress: the Session's node start/end events shown in an ``st.status`` box as the graph runs."""

from __future__ import annotations

import time
from typing import Any

FAILED = {"failed", "error", "exception"}


def node_line(event: Any) -> str | None:
    """One Markdown line per finished node: ``✓ **plan** 0.4s`` (the CLI prints the same)."""
    if event.kind != "node_end":
        return None
    mark = "✓" if event.outcome == "ok" else "✗" if event.outcome in FAILED else "•"
    detail = f" — {event.message}" if event.message else ""
    return f"{mark} **{event.node}** {event.seconds:.1f}s{detail}"


class StatusProgress:
    """A ``progress`` callback for :class:`~dsagent.session.Session` that updates one status box."""

    def __init__(self, workflow: str) -> None:
        import streamlit as st
        from streamlit.runtime.scriptrunner import get_script_run_ctx

        self.workflow = workflow
        self.started = time.perf_counter()
        self.status = st.status(f"Running the {workflow} workflow …", expanded=True)
        self._ctx = get_script_run_ctx()
        self.failed = False

    def __call__(self, event: Any) -> None:
        self._attach()
        if event.kind == "node_start":
            # expanded=None would let the box fold up: keep the node lines in view while it runs.
            self.status.update(label=f"{self.workflow}: {event.node} …", expanded=True)
            return
        line = node_line(event)
        if line:
            self.failed = self.failed or event.outcome in FAILED
            self.status.markdown(line)
        elif event.kind == "info" and event.message:
            self.status.caption(event.message)

    def _attach(self) -> None:
        # A graph may run a node on a worker thread; Streamlit only draws from a thread that
        # carries the script's run context.
        import threading

        from streamlit.runtime.scriptrunner import add_script_run_ctx, get_script_run_ctx

        if self._ctx is not None and get_script_run_ctx(suppress_warning=True) is None:
            add_script_run_ctx(threading.current_thread(), self._ctx)

    def done(self, error: str | None = None, ask: bool = False) -> None:
        seconds = time.perf_counter() - self.started
        if error:
            self.status.update(label=f"Failed after {seconds:.1f}s", state="error", expanded=False)
        else:
            label = "The agent has a question" if ask else f"Done in {seconds:.1f}s"
            self.status.update(label=label, state="complete", expanded=False)
