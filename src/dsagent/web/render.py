"""Draw one chat message: the answer's report sections, its code, follow-ups, caveats and downloads.

Seed 001's ``render_report`` widened to the shared :class:`~dsagent.reports.model.Report`: text →
Markdown, plotly → an interactive chart, image → the PNG, table → a sortable ``st.dataframe``, code →
a collapsed expander; suggestions become buttons that ask them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import streamlit as st

from dsagent.reports.model import Report, Section
from dsagent.web.downloads import figure_files, report_files, resolve

Ask = Callable[[str], None]


def report_of(result: Any) -> Report:
    """The run's report; a result without one (older core) is shown from its plain fields."""
    if getattr(result, "report", None) is not None:
        return result.report
    sections = [Section(section_type="text", content=result.explanation or "(no explanation)")]
    if result.result_str:
        sections.append(Section(section_type="text", content=f"```text\n{result.result_str.rstrip()}\n```"))
    for path in result.figures:
        kind = "plotly" if str(path).endswith(".json") else "image"
        sections.append(Section(section_type=kind, content=str(path)))
    if result.code:
        sections.append(Section(section_type="code", content=result.code))
    return Report(title=result.explanation[:80], sections=sections, caveats=list(result.alignment_caveats),
                  meta={"workspace": result.workspace, "run_id": result.run_id})


def table_frame(section: Section) -> Any:
    import pandas as pd

    if hasattr(section, "table"):  # the report model's reader accepts every JSON orient
        columns, rows = section.table()
        return pd.DataFrame(rows, columns=columns)
    return pd.DataFrame(json.loads(section.content))


def demote_headings(markdown: str, levels: int = 2) -> str:
    """``## Answer`` → ``#### Answer``: a report's headings sized for a chat bubble (code fences kept)."""
    out, fence = [], ""
    for line in markdown.splitlines():
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            marker = stripped[:3]
            fence = "" if fence == marker else fence or marker
        elif not fence and re.match(r"#{1,6} ", stripped):
            line = "#" * min(6, stripped.index(" ") + levels) + stripped[stripped.index(" "):]
        out.append(line)
    return "\n".join(out)


def render_section(section: Section, report: Report, key: str) -> None:
    kind = section.section_type
    if kind == "text":
        st.markdown(demote_headings(section.content))
    elif kind == "code":
        label = f"Code — {section.description}" if section.description else "Code"
        with st.expander(label, expanded=False, icon=":material/code:"):
            st.code(section.content, language="python")
    elif kind == "table":
        if section.description:
            st.caption(section.description)
        try:
            st.dataframe(table_frame(section), hide_index=True, key=key)
        except ValueError as exc:
            st.warning(f"This table could not be read: {exc}")
    elif kind in ("plotly", "image"):
        path = resolve(report, section.content)
        if not path.is_file():
            st.warning(f"Figure file not found: {path.name}")
        elif kind == "image":
            st.image(str(path), caption=section.description)
        else:
            import plotly.io as pio

            figure = pio.read_json(str(path))
            st.plotly_chart(figure, key=key)
            if section.description and section.description != _title(figure):
                st.caption(section.description)


def render_answer(message: dict[str, Any], key: str, ask: Ask, *, interactive: bool = True) -> None:
    """An assistant message. ``interactive`` is False while a later question runs (no buttons)."""
    if message.get("error"):
        st.error(message["error"], icon=":material/error:")
        return
    result = message["result"]
    if result.output_type == "ask":
        texts = [s.content for s in (result.report.sections if result.report else []) if s.section_type == "text"]
        st.info(result.explanation or "\n\n".join(texts) or "(the agent asks for more detail)", icon=":material/help:")
        st.caption("The agent needs your answer: reply in the chat box below.")
        return
    report = report_of(result)
    if result.output_type == "error":
        st.error(_first_line(result.error or result.explanation) or "The analysis failed.", icon=":material/error:")
    for n, section in enumerate(report.sections):
        render_section(section, report, f"{key}-s{n}")
    if report.caveats:
        st.warning("**Caveats**\n\n" + "\n".join(f"- {c}" for c in report.caveats), icon=":material/warning:")
    if report.suggestions and interactive:
        st.markdown("**Follow-up ideas**")
        for n, suggestion in enumerate(report.suggestions):
            st.button(suggestion, key=f"{key}-ask{n}", on_click=ask, args=(suggestion,), icon=":material/arrow_forward:")
    st.caption(f"{result.workflow} · {result.model} · {usage_of(result)} · run {result.run_id}")
    if interactive:
        render_downloads(result, report, key)


def render_downloads(result: Any, report: Report, key: str) -> None:
    files = report_files(result, report) + figure_files(report)
    if not files:
        return
    with st.container(horizontal=True, gap="small"):
        for n, (label, data, name, mime) in enumerate(files):
            st.download_button(label, data=data, file_name=name, mime=mime, key=f"{key}-dl{n}",
                               on_click="ignore", icon=":material/download:")


def usage_of(result: Any) -> str:
    """Model calls, tokens, seconds (and cost for a priced hosted model: the spec chosen in the sidebar)."""
    from dsagent.config import load_settings
    from dsagent.doors.text import usage_line

    spec = str(st.session_state.get("model_spec") or "").strip() or None
    return usage_line(result.llm_calls, result.prompt_tokens, result.completion_tokens, result.duration_s, load_settings(model=spec))


def _title(figure: Any) -> str | None:
    title = getattr(getattr(figure, "layout", None), "title", None)
    return getattr(title, "text", None)


def _first_line(text: str | None) -> str:
    lines = (text or "").strip().splitlines()
    return lines[0] if lines else ""
