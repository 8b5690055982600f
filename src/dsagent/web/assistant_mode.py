"""The assistant as a mode of the web app, beside the workflows.

The browser session's uploads are copied into ``<workspace>/project/data/raw/`` (the uploads
themselves stay as they are), which is the assistant's project folder; the conversation is one
checkpointed thread (``assistant_thread``), so the agent remembers earlier messages. Each tool
call and its result are shown in the status box as they happen, and kept in the message.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from dsagent.web.state import State, ensure_workspace, log, one_line, page_model
from dsagent.workflows import REGISTRY, WORKFLOWS

MODE = "assistant"
MODES: dict[str, str] = {**WORKFLOWS, MODE: REGISTRY[MODE].description}


def project_dir(state: State) -> Path:
    """``<workspace>/project``, its data/raw/ holding copies of this session's uploads."""
    root = ensure_workspace(state) / "project"
    raw = root / "data" / "raw"
    raw.mkdir(parents=True, exist_ok=True)
    uploads = ensure_workspace(state) / "uploads"
    names = {p.name for p in uploads.iterdir()} if uploads.is_dir() else set()
    for old in raw.iterdir():  # a file removed from the uploader leaves the project too
        if old.name not in names:
            old.unlink()
    for path in sorted(uploads.iterdir()) if uploads.is_dir() else []:
        target = raw / path.name
        if not target.exists() or target.stat().st_size != path.stat().st_size or target.stat().st_mtime < path.stat().st_mtime:
            shutil.copy2(path, target)
    return root


def ask(state: State, question: str, model_spec: str, on_event: Any = None) -> dict[str, Any]:
    """One message to the assistant; the answer (or the error as one line) is appended to ``messages``."""
    from dsagent.reports.build import verification_line
    from dsagent.workflows.assistant import Configuration, run_turn
    from dsagent.workflows.assistant.configuration import AgentLLM

    state["messages"].append({"role": "user", "content": question})
    try:
        conf = Configuration.defaults()
        if model_spec:
            model_spec = page_model(model_spec)
            conf = conf.model_copy(update={"agent_llm": AgentLLM(**{**conf.agent_llm.model_dump(), "model": model_spec})})
        out = run_turn(question, project_dir=project_dir(state), thread_id=state.get("assistant_thread"), configuration=conf, on_event=on_event)
    except Exception as exc:
        from dsagent.errors import DsagentError

        if not isinstance(exc, DsagentError):
            log.exception("assistant message failed")
        message = {"role": "assistant", "content": "", "result": None, "error": one_line(exc), "mode": MODE}
    else:
        state["assistant_thread"] = out.thread_id
        steps = [{"name": c["name"], "args": c["args"], "result": r} for c, r in zip(out.tool_calls, out.tool_results + [""] * len(out.tool_calls))]
        message = {"role": "assistant", "content": out.answer, "result": None, "error": None, "mode": MODE, "steps": steps,
                   "verification": verification_line(out)}
    state["messages"].append(message)
    return message


def render(message: dict[str, Any]) -> None:
    """An assistant-mode answer: the text, then each tool call with its result, collapsed."""
    import streamlit as st

    if message.get("error"):
        st.error(message["error"], icon=":material/error:")
        return
    st.markdown(message["content"] or "(no answer)")
    if message.get("verification"):  # answer_question's mark (common.verify), as every door shows it
        st.markdown(message["verification"])
    for step in message.get("steps") or []:
        with st.expander(f"{step['name']} {step['args'] or ''}".strip(), icon=":material/build:"):
            st.text(step["result"])


class ToolStatus:
    """``on_event`` for :func:`ask`: tool calls and results in an ``st.status`` box as they happen."""

    def __init__(self) -> None:
        import streamlit as st

        self.status = st.status("The assistant is working …", expanded=True)

    def __call__(self, kind: str, value: Any) -> None:
        if kind == "tool_call":
            self.status.update(label=f"assistant: {value['name']} …", expanded=True)
            self.status.markdown(f"→ **{value['name']}** `{value['args'] or ''}`")
        elif kind == "tool_result":
            first = (value["content"].splitlines() or [""])[0]
            self.status.caption(first[:200])

    def done(self, error: bool) -> None:
        self.status.update(label="Failed" if error else "Done", state="error" if error else "complete", expanded=False)
