"""What one browser session keeps in ``st.session_state``, and the steps that change it.

Seed 001 keeps the conversation in Streamlit's session state: ``messages``, the data and
``workspace_dir`` (``<workspace_root>/<yyyymmddhhmmss>/``, which holds the uploaded files). Here:

- ``workspace_dir``: the browser session's folder; uploads are saved in its ``uploads/`` and read
  from there, and each dsagent :class:`~dsagent.session.Session` makes its run folders in ``runs/``;
- ``session``: the dsagent Session over the uploaded files: its warm sandbox and the conversation
  history the workflows read (a follow-up or a reply to the agent's question goes to the same one);
- ``datasets``: that Session's catalogue (id → Dataset);
- ``messages``: what the page shows: ``{"role", "content", "result", "error"}`` dicts.

The functions take the state mapping, so the tests drive them without a browser.
"""

from __future__ import annotations

import hmac
import logging
import re
import threading
from collections.abc import Callable, MutableMapping, Sequence
from pathlib import Path
from typing import Any

from dsagent.errors import DsagentError, UserError

log = logging.getLogger("dsagent.web")

State = MutableMapping[str, Any]
UPLOAD_TYPES = ("csv", "tsv", "tab", "txt", "xlsx", "xlsm", "parquet", "pq", "json", "jsonl", "ndjson")


def init_state(state: State) -> None:
    """The keys every rerun relies on; the model and workflow start from the settings (env DSAGENT_*)."""
    if "model_spec" in state and "messages" in state:
        return
    from dsagent.config import load_settings

    settings = load_settings()
    defaults = dict(
        messages=[], session=None, datasets={}, workspace_dir=None, upload_signature=(),
        upload_errors=[], model_spec=settings.model, workflow=settings.workflow, pending_question=None,
    )
    for key, value in defaults.items():  # keys already there (a test's, a rerun's) are kept
        if key not in state:
            state[key] = value


def authorized(state: State, expected: str | None, offered: str | None) -> bool:
    """True when no access token is set (``web_token``), or this browser session gave it (kept for
    the session's reruns; compared in constant time)."""
    if not expected or state.get("authorized"):
        return True
    if offered and hmac.compare_digest(offered.encode("utf-8"), expected.encode("utf-8")):
        state["authorized"] = True
        return True
    return False


def ensure_workspace(state: State) -> Path:
    """The session's ``<workspace_root>/<yyyymmddhhmmss>/``, made on first use (seed 001)."""
    if state.get("workspace_dir") is None:
        from dsagent.config import load_settings
        from dsagent.session import new_workspace

        state["workspace_dir"] = str(new_workspace(Path(load_settings().workspace_root)))
    return Path(state["workspace_dir"])


def safe_name(name: str) -> str:
    """A browser-supplied file name reduced to one harmless path component."""
    base = Path(str(name).replace("\\", "/")).name.strip()
    base = re.sub(r"[\x00-\x1f/]", "_", base).lstrip(".")
    return base or "upload"


def save_uploads(workspace_dir: Path, uploads: Sequence[tuple[str, bytes]]) -> list[Path]:
    """Write each ``(name, bytes)`` into ``workspace_dir/uploads/`` (and nowhere else)."""
    from dsagent.atomic import write_atomic

    folder = workspace_dir / "uploads"
    folder.mkdir(parents=True, exist_ok=True)
    paths: list[Path] = []
    for name, data in uploads:
        path = folder / safe_name(name)
        write_atomic(path, data)
        paths.append(path)
    return paths


def page_model(model_spec: str | None) -> str:
    """The model the page names, held to the operator's list (``model`` or ``allowed_models``): a
    browser is a client, not the operator, so it cannot send the server's key or data elsewhere."""
    from dsagent.access import client_model
    from dsagent.config import load_settings

    return client_model(model_spec, load_settings())


def _new_session(state: State, paths: Sequence[Path], model_spec: str) -> Any:
    from dsagent.session import Session

    runs = ensure_workspace(state) / "runs"
    return Session(list(paths), model=page_model(model_spec), workspace_root=str(runs))


def _close(state: State) -> None:
    """Drop the current Session; its sandbox is closed on a thread, so the page does not wait for it."""
    old = state.get("session")
    state["session"], state["datasets"] = None, {}
    if old is not None:
        threading.Thread(target=_close_quietly, args=(old,), name="dsagent-web-close", daemon=True).start()


def _close_quietly(session: Any) -> None:
    try:
        session.close()
    except Exception:  # a worker that already died must not disturb the page
        log.exception("closing a previous session failed")


def _problem(path: Path, exc: Exception) -> str:
    text = str(exc)
    return text if path.name in text else f"{path.name}: {text}"


def load_uploads(state: State, uploads: Sequence[tuple[str, bytes]]) -> list[str]:
    """Save the uploads, open a Session over those that load; return one message per bad file."""
    _close(state)
    paths = save_uploads(ensure_workspace(state), uploads)
    errors: list[str] = []
    good = list(paths)
    if good:
        try:
            session = _new_session(state, good, state.get("model_spec", ""))
        except UserError:
            # Find every file that fails, not only the first, and keep the rest.
            from dsagent.data import load_datasets

            good = []
            for path in paths:
                try:
                    load_datasets([path])
                except UserError as exc:
                    errors.append(_problem(path, exc))
                else:
                    good.append(path)
            session = _new_session(state, good, state.get("model_spec", "")) if good else None
        if session is not None:
            state["session"], state["datasets"] = session, session.datasets
    state["upload_errors"] = errors
    return errors


def sync_uploads(state: State, signature: tuple[Any, ...], read: Callable[[], Sequence[tuple[str, bytes]]]) -> None:
    """Reload only when the set of uploaded files changed (Streamlit reruns the script on every click)."""
    if signature == state.get("upload_signature"):
        return
    state["upload_signature"] = signature
    if signature:
        load_uploads(state, read())
    else:
        _close(state)
        state["upload_errors"] = []


def session_for(state: State, model_spec: str) -> Any:
    """The Session to ask; a changed model spec re-opens it over the same files, history kept."""
    session = state.get("session")
    if session is None:
        raise UserError("upload a data file first (CSV, Excel, Parquet or JSON) in the sidebar")
    if model_spec and model_spec != session.settings.model:
        paths = [ds.source_path for ds in session.datasets.values() if ds.source_path]
        history = list(session.history)
        _close(state)
        fresh = _new_session(state, list(dict.fromkeys(paths)), model_spec)
        fresh.history = history
        state["session"], state["datasets"] = fresh, fresh.datasets
        session = fresh
    return session


def one_line(exc: BaseException) -> str:
    """The message a person reads: the user's or provider's error as is, anything else named."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if isinstance(exc, DsagentError) else f"internal error ({type(exc).__name__}): {text}"


def ask(state: State, question: str, workflow: str, model_spec: str, progress: Callable[[Any], None] | None = None) -> dict[str, Any]:
    """Run one question; the answer (or the error, as one line) is appended to ``messages``.

    Never raises: the page shows every failure as a readable message in the chat.
    """
    state["messages"].append({"role": "user", "content": question})
    try:
        session = session_for(state, model_spec)
        session.progress = progress or (lambda _event: None)
        result = session.ask(question, workflow=workflow)
    except BaseException as exc:
        if not isinstance(exc, Exception):  # Streamlit's stop/rerun: the user stopped the run
            state["messages"].append({"role": "assistant", "content": "", "result": None, "error": "The run was stopped before it finished."})
            raise
        if not isinstance(exc, DsagentError):
            log.exception("question failed")
        message = {"role": "assistant", "content": "", "result": None, "error": one_line(exc)}
    else:
        message = {"role": "assistant", "content": result.explanation, "result": result, "error": None}
    state["messages"].append(message)
    return message


def awaiting_reply(state: State) -> bool:
    """True when the last answer is the agent's question to the user (react's ``ask`` turn)."""
    messages = state.get("messages") or []
    last = messages[-1] if messages else None
    result = last.get("result") if last else None
    return result is not None and result.output_type == "ask"


def reset_conversation(state: State) -> None:
    """Start over with the same files: new Session (fresh history), no messages."""
    session = state.get("session")
    paths = [ds.source_path for ds in session.datasets.values() if ds.source_path] if session else []
    _close(state)
    state["messages"] = []
    state["assistant_thread"] = None  # the assistant mode starts a new thread too
    if paths:
        fresh = _new_session(state, list(dict.fromkeys(paths)), state.get("model_spec", ""))
        state["session"], state["datasets"] = fresh, fresh.datasets
