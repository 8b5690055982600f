"""The ``report`` node's assembly: the model's ``ReportOutput`` checked against what actually ran,
charts and the result table attached, then converted into the shared :class:`Report` and the
``final_output`` package every workflow returns.

The model writes the words (title, conclusion and evidence, suggestions); paths and tables come
from the execution results, so a report never shows a chart that does not exist.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dsagent.reports.model import Report, Section
from dsagent.workflows.common.code import clip
from dsagent.workflows.react import prompts
from dsagent.workflows.react.state import ReactState, ExecutionResult, ReportOutput, ReportSection

TABLE_ROWS = 50
TITLE_CHARS = 120


def _title(question: str) -> str:
    lines = question.strip().splitlines()
    return (lines[0][:TITLE_CHARS] if lines else "") or "dsagent report"


def _fence(body: str) -> str:
    ticks = "```"
    while ticks in body:
        ticks += "`"
    return f"{ticks}text\n{body.rstrip()}\n{ticks}"


def fallback_report(state: ReactState) -> ReportOutput:
    """The report without the model: each successful step's instruction and result."""
    lang = prompts.language(state.question)
    successes = [r for r in state.execution_results if r.success]
    if not successes:
        return ReportOutput(title=_title(state.question), sections=[ReportSection(section_type="text", content=prompts.NO_ANALYSIS[lang])])
    lines = [prompts.FALLBACK_HEADING[lang]]
    for n, run in enumerate(successes, start=1):
        lines += ["", f"**{n}. {run.instruction}**"]
        shown = run.result if run.result is not None else (run.stdout or "").strip()
        if shown:
            lines += ["", _fence(clip(shown, 1500))]
    return ReportOutput(title=_title(state.question), sections=[ReportSection(section_type="text", content="\n".join(lines))])


def _figures(results: list[ExecutionResult]) -> dict[str, str]:
    """{absolute path: description} of every chart of the successful runs, in order."""
    found: dict[str, str] = {}
    for run in results:
        described = {Path(o.file_name).name: o.description for o in run.outputs if o.output_type == "figure"}
        for path in run.figures:
            found.setdefault(path, described.get(Path(path).name) or run.instruction)
    return found


def _table_section(run: ExecutionResult, workspace: str | None) -> Section | None:
    """The run's result table (the CSV the sandbox saved) as JSON records, the first rows only."""
    tables = [o.file_name for o in run.outputs if o.output_type == "table" and o.file_name.endswith(".csv")]
    if not tables:
        return None
    import pandas as pd

    path = Path(workspace or ".") / tables[-1]
    try:
        frame = pd.read_csv(path, nrows=TABLE_ROWS)
    except (OSError, ValueError):
        return None
    first = frame.columns[0] if len(frame.columns) else None
    if first is not None and str(first).startswith("Unnamed: 0"):
        # the sandbox writes the index: a plain 0..n-1 says nothing, labels are kept
        frame = frame.drop(columns=first) if frame[first].tolist() == list(range(len(frame))) else frame.rename(columns={first: ""})
    content = frame.to_json(orient="records", date_format="iso", force_ascii=False)
    return Section(section_type="table", content=content, description=run.instruction or None)


def _checked_sections(output: ReportOutput, figures: dict[str, str]) -> list[ReportSection]:
    """The model's sections that hold: text with content, images of charts that exist (matched by
    path or file name), tables whose content is JSON."""
    by_name = {Path(path).name: path for path in figures}
    kept: list[ReportSection] = []
    for section in output.sections:
        content = section.content.strip()
        if not content:
            continue
        if section.section_type == "image":
            path = content if content in figures else by_name.get(Path(content).name)
            if path is not None:
                kept.append(ReportSection(section_type="image", content=path, description=section.description or figures[path]))
        elif section.section_type == "table":
            try:
                json.loads(content)
            except ValueError:
                continue
            kept.append(section.model_copy(update={"content": content}))
        else:
            kept.append(section.model_copy(update={"content": content}))
    return kept


def build_final_output(state: ReactState, output: ReportOutput, limit: bool, max_loops: int) -> tuple[ReportOutput, dict[str, Any]]:
    """(the checked ``ReportOutput`` for ``final_report``, the ``final_output`` package)."""
    lang = prompts.language(state.question)
    successes = [r for r in state.execution_results if r.success]
    figures = _figures(successes)
    sections = _checked_sections(output, figures)
    if limit:
        note = prompts.LIMIT_NOTE[lang].format(max_loops=max_loops)
        sections.insert(0, ReportSection(section_type="text", content=f"> {note}"))
    if not any(s.section_type == "text" for s in sections):
        sections += fallback_report(state).sections
    shown = {s.content for s in sections if s.section_type == "image"}
    sections += [ReportSection(section_type="image", content=path, description=description)
                 for path, description in figures.items() if path not in shown]
    final_report = ReportOutput(title=(output.title or "").strip() or _title(state.question), sections=sections,
                                suggestions=[s for s in output.suggestions or [] if s and s.strip()] or None)
    shared = [Section(**s.model_dump()) for s in sections]
    table = _table_section(successes[-1], state.workspace_dir) if successes else None
    if table is not None and not any(s.section_type == "table" for s in sections):
        shared.append(table)
    shared += [Section(section_type="code", content=run.code.rstrip() + "\n", description=run.instruction or None) for run in successes]
    report = Report(title=final_report.title, sections=shared, suggestions=final_report.suggestions or [],
                    caveats=list(state.assumptions), question=state.question.strip())
    explanation = "\n\n".join(s.content for s in sections if s.section_type == "text")
    package = package_of(state, explanation, "limit" if limit else "report")
    package["report"] = report.model_dump()
    return final_report, package


def package_of(state: ReactState, explanation: str, output_type: str) -> dict[str, Any]:
    """Seed 000's keys, which the CLI and AnalysisResult read: for a report, and for a turn that
    ends with a question (``output_type`` "ask", the question as the explanation)."""
    results = state.execution_results
    successes = [r for r in results if r.success]
    last = successes[-1] if successes else None
    failed = [{"attempt": n, "code": r.code, "error": r.error} for n, r in enumerate(results, start=1) if not r.success]
    package: dict[str, Any] = {
        "explanation": explanation, "evaluation": None, "plan": None,
        "code": last.code if last else None,
        "figures": list(_figures(successes)),
        "result_str": (last.result if last.result is not None else last.stdout) if last else None,
        "output_type": output_type, "failed_attempts": failed,
    }
    if results and not successes:
        package["error"] = results[-1].error
    return package


def check_state(state: ReactState) -> dict[str, Any]:
    """What an independent check of the request reads (``common.verify``): the request, the data and
    its profile, and the conversation before this request (none of this request's steps)."""
    from langchain_core.messages import HumanMessage

    turns = list(state.messages)
    last_human = max((i for i, m in enumerate(turns) if isinstance(m, HumanMessage)), default=len(turns))
    return {"question": state.question, "datasets": state.datasets, "data_summary": state.data_summary,
            "messages": turns[:last_human]}


def verification(ctx: Any, state: ReactState) -> dict[str, Any]:
    """The report's mark: an independent computation of the request agrees with what one of its
    steps computed (``common.verify``; a report already written is not replaced: a disagreement is
    marked "not sure"; "not checked" when the setting verify is off)."""
    from dsagent.workflows.common.verify import verify

    ran = [r for r in state.execution_results if r.success and r.result is not None]
    return verify(ctx, check_state(state), [r.result for r in ran], adopt=False, codes=[r.code for r in ran]).record()
