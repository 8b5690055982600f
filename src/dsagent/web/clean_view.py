"""The web app's clean mode: recommended steps with approve / change controls, then the results.

One clean thread per page session (``state["clean_outcome"]``): "Recommend steps" starts it
(:func:`dsagent.workflows.clean.api.clean`, which stops at the review), "Approve" and "Ask for this
change" answer the review (:func:`~dsagent.workflows.clean.api.resume`), and the finished run
shows the cleaned table and its downloads. Threads are checkpointed, so the same review can also be
answered from the command line: ``dsagent clean --resume THREAD yes``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import streamlit as st

from dsagent.web import state as web_state

MIME = {".csv": "text/csv", ".parquet": "application/octet-stream", ".py": "text/x-python", ".md": "text/markdown", ".html": "text/html"}


def _paths(state: Any) -> list[str]:
    seen: list[str] = []
    for ds in state["datasets"].values():
        if ds.source_path and str(ds.source_path) not in seen:
            seen.append(str(ds.source_path))
    return seen


def _run(state: Any, start: bool, answer: str = "") -> None:
    from dsagent.workflows.clean.api import clean, resume

    with st.status("Cleaning …" if not start else "Finding problems and recommending steps …", expanded=False) as status:
        def progress(event: Any) -> None:
            if event.kind == "node_end":
                status.write(f"{event.node} · {event.seconds:.1f}s" + (f" — {event.message}" if event.message else ""))
        try:
            model = web_state.page_model(state["model_spec"])
            if start:
                state["clean_outcome"] = clean(_paths(state), state.get("clean_instructions", ""), model=model, on_progress=progress)
            else:
                state["clean_outcome"] = resume(state["clean_outcome"].thread_id, answer, model=model, on_progress=progress)
            state["clean_error"] = None
            status.update(label="Done", state="complete")
        except Exception as exc:  # shown in the page; the app stays up
            web_state.log.exception("clean failed")
            state["clean_error"] = web_state.one_line(exc)
            status.update(label="Failed", state="error")


def clean_mode(state: Any) -> None:
    state.setdefault("clean_outcome", None)
    state.setdefault("clean_error", None)
    outcome = state["clean_outcome"]
    st.subheader("Clean the data")
    st.caption("dsagent finds the problems by code, recommends numbered steps (the default policy changed by your "
               "instructions) and waits for your review. Your files are never written.")
    if outcome is None:
        st.text_area("Instructions (optional)", key="clean_instructions",
                     placeholder="e.g. keep record_id and every genuine record; do not impute")
        if st.button("Recommend steps", type="primary", icon=":material/checklist:", disabled=not state["datasets"]):
            _run(state, start=True)
            st.rerun()
    if state["clean_error"]:
        st.error(state["clean_error"], icon=":material/error:")
    if outcome is None:
        return
    if outcome.status == "needs_review":
        st.markdown("#### Recommended steps")
        st.caption(f"Thread `{outcome.thread_id}` waits for your review (also from the terminal: "
                   f"`dsagent clean --resume {outcome.thread_id} yes`).")
        st.markdown(outcome.recommended_steps.replace("\n", "  \n"))
        for name, source in (outcome.code or {}).items():  # the code a yes runs in the sandbox and saves, in full
            st.caption(f"`{name}`: runs in the sandbox when you approve, then is saved (re-run it with "
                       f"`dsagent clean --rerun {name} NEW.csv`)")
            st.code(source, language="python")
        left, right = st.columns([1, 3])
        if left.button("Approve", type="primary", icon=":material/check:", key="clean_approve"):
            _run(state, start=False, answer="yes")
            st.rerun()
        change = right.text_input("Or say what to change", key="clean_change", placeholder="e.g. do not impute; keep the outliers")
        if right.button("Ask for this change", icon=":material/edit:", key="clean_edit", disabled=not change.strip()):
            _run(state, start=False, answer=change.strip())
            st.rerun()
        return
    results(outcome)


def results(outcome: Any) -> None:
    if outcome.status == "error":
        st.error(f"The cleaner did not pass: {outcome.error}", icon=":material/error:")
    else:
        st.success(f"Cleaned: {len(outcome.cleaned_files) // 2} table(s).", icon=":material/check_circle:")
    files = [*outcome.cleaned_files, outcome.function_path, outcome.report_path]
    if outcome.report_path:
        files.append(str(Path(outcome.report_path).with_suffix(".html")))
    cols = st.columns(max(1, len([f for f in files if f])))
    for col, path in zip(cols, [f for f in files if f and Path(f).exists()]):
        p = Path(path)
        col.download_button(p.name, p.read_bytes(), file_name=p.name, mime=MIME.get(p.suffix, "application/octet-stream"), key=f"dl-{p.name}")
    if outcome.cleaned_files:
        import pandas as pd

        st.dataframe(pd.read_parquet(outcome.cleaned_files[1]).head(50), key="clean-preview")
    with st.expander("Steps that were run", icon=":material/checklist:"):
        st.markdown(outcome.recommended_steps.replace("\n", "  \n"))
    if outcome.function_path and Path(outcome.function_path).exists():
        with st.expander("data_cleaner.py", icon=":material/code:"):
            st.code(Path(outcome.function_path).read_text(), language="python")
    if st.button("Clean again", icon=":material/restart_alt:"):
        st.session_state["clean_outcome"] = None
        st.rerun()
