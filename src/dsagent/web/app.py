"""The Streamlit app behind ``dsagent web``: upload data, pick a workflow and a model, chat.

Streamlit runs this file top to bottom on every interaction; what must survive a rerun lives in
``st.session_state`` (see :mod:`dsagent.web.state`). Each question is one :meth:`Session.ask`,
shown live node by node, and its answer is drawn by :mod:`dsagent.web.render`.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from dsagent.web import assistant_mode
from dsagent.web import state as web_state
from dsagent.web.progress import StatusProgress
from dsagent.web.render import render_answer
from dsagent.workflows import WORKFLOWS

MODEL_HELP = (
    "A model spec: `local` (the embedded model, offline, no key), `local:<path.gguf>`, "
    "`openai:<model>`, `anthropic:<model>`, `ollama:<model>`, `openai-compatible:<model>@<url>`, "
    "`scripted:<replies.json>`. A browser may use the server's own model and those its operator lists in "
    "`allowed_models` (DSAGENT_ALLOWED_MODELS)."
)


def queue_question(question: str) -> None:
    """A follow-up button's callback: the next run asks it."""
    st.session_state["pending_question"] = question


def sidebar(state: Any) -> None:
    with st.sidebar:
        st.header("Data")
        files = st.file_uploader(
            "Upload data files", type=list(web_state.UPLOAD_TYPES), accept_multiple_files=True, key="uploads",
            help="CSV/TSV, Excel (each sheet a dataset), Parquet, JSON/JSONL. Saved only in this session's workspace.",
        )
        files = files or []
        signature = tuple((f.name, f.size, f.file_id) for f in files)
        try:
            web_state.sync_uploads(state, signature, lambda: [(f.name, f.getvalue()) for f in files])
        except Exception as exc:  # e.g. the run log or the workspace cannot be written
            web_state.log.exception("loading the uploads failed")
            state["upload_errors"] = [web_state.one_line(exc)]
        for error in state["upload_errors"]:
            st.error(error, icon=":material/error:")
        for ds in state["datasets"].values():
            rows, cols = ds.shape
            st.caption(f"`{ds.id}` · {ds.name} · {rows:,} rows × {cols} columns")

        st.header("Agent")
        st.radio("Mode", ["Ask", "Clean"], key="mode", horizontal=True,
                 help="**Ask**: questions about the data. **Clean**: recommended cleaning steps, your review, cleaned files.")
        st.selectbox("Workflow", list(assistant_mode.MODES), key="workflow", help="\n\n".join(f"**{k}**: {v}" for k, v in assistant_mode.MODES.items()))
        st.caption(assistant_mode.MODES.get(state["workflow"], ""))
        st.text_input("Model", key="model_spec", help=MODEL_HELP)
        st.button("New conversation", on_click=web_state.reset_conversation, args=(state,), icon=":material/restart_alt:",
                  disabled=not state["messages"])
        if state.get("workspace_dir"):
            st.caption(f"Workspace: `{state['workspace_dir']}`")


def sharing_notice(state: Any) -> str | None:
    """With a hosted model: which provider receives what (said once, above the conversation)."""
    from dsagent.config import load_settings
    from dsagent.doors.text import sharing_notice as notice

    try:
        return notice(load_settings(model=str(state.get("model_spec") or "").strip() or None))
    except Exception:  # a bad setting is reported when the question runs
        return None


def data_preview(state: Any) -> None:
    for ds in state["datasets"].values():
        with st.expander(f"Preview: {ds.name}", icon=":material/table:"):
            st.dataframe(ds.frame.head(20), key=f"preview-{ds.id}")


def conversation(state: Any) -> None:
    for n, message in enumerate(state["messages"]):
        with st.chat_message(message["role"]):
            if message["role"] == "user":
                st.markdown(message["content"])
            elif message.get("mode") == assistant_mode.MODE:
                assistant_mode.render(message)
            else:
                try:
                    render_answer(message, f"m{n}", queue_question)
                except Exception as exc:  # one bad section must not take the page down
                    web_state.log.exception("drawing an answer failed")
                    st.error(f"This answer could not be shown: {web_state.one_line(exc)}", icon=":material/error:")


def run_question(state: Any, question: str) -> None:
    with st.chat_message("user"):
        st.markdown(question)
    with st.chat_message("assistant"):
        if state["workflow"] == assistant_mode.MODE:
            status = assistant_mode.ToolStatus()
            message = assistant_mode.ask(state, question, state["model_spec"].strip(), status)
            status.done(error=bool(message["error"]))
            st.rerun()
        progress = StatusProgress(state["workflow"])
        message = web_state.ask(state, question, state["workflow"], state["model_spec"].strip(), progress)
        result = message["result"]
        failed = message["error"] or (result is not None and result.output_type == "error")
        progress.done(error=failed or None, ask=result is not None and result.output_type == "ask")
    st.rerun()  # draw the whole conversation again, the new answer with its buttons


def access_gate(state: Any) -> None:
    """With an access token set (``dsagent web --token``, required off loopback), nothing else is
    shown or loaded until this browser session gives it (the field, or ``?token=`` in the link)."""
    from dsagent.config import load_settings

    token = load_settings().web_token
    if web_state.authorized(state, token, st.query_params.get("token")):
        if token:
            _admit_uploads()
        return
    st.title("dsagent")
    typed = st.text_input("Access token", type="password", key="access_token",
                          help="This app is shared on the network: ask whoever started `dsagent web` for its token.")
    if typed and web_state.authorized(state, token, typed):
        st.rerun()
    if typed:
        st.error("That is not the access token.", icon=":material/lock:")
    st.stop()


def _admit_uploads() -> None:
    """This browser session gave the token: Streamlit's upload route takes its files (web/gate.py)."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    from dsagent.web.gate import admit

    ctx = get_script_run_ctx()
    if ctx is not None:
        admit(ctx.session_id)


def main() -> None:
    st.set_page_config(page_title="dsagent", page_icon=":material/query_stats:", layout="wide")
    state = st.session_state
    access_gate(state)
    web_state.init_state(state)
    if state["workflow"] not in assistant_mode.MODES:
        state["workflow"] = next(iter(WORKFLOWS))
    sidebar(state)

    st.title("dsagent")
    st.caption("An AI data scientist: ask about your data in plain language; it plans, writes and runs "
               "pandas/plotly code in a sandbox, checks it and explains the answer.")
    notice = sharing_notice(state)
    if notice:
        st.caption(f":material/cloud_upload: {notice}")
    if not state["datasets"]:
        st.info("Upload one or more data files (CSV, Excel, Parquet, JSON) in the sidebar, then ask a question.",
                icon=":material/upload_file:")
    elif not state["messages"] and state.get("mode") != "Clean":
        data_preview(state)
    if state.get("mode") == "Clean":
        from dsagent.web.clean_view import clean_mode

        clean_mode(state)
        return
    conversation(state)

    awaiting = web_state.awaiting_reply(state)
    placeholder = "Your answer to the agent's question …" if awaiting else "Ask a question about your data …"
    typed = st.chat_input(placeholder, key="chat", disabled=not state["datasets"], submit_mode="stop")
    question = typed or state.get("pending_question")
    state["pending_question"] = None
    if question and question.strip():
        run_question(state, question.strip())


main()
