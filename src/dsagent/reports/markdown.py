"""``report.md``: a :class:`Report` as Markdown, readable on its own (figures are relative links)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from dsagent.reports.model import Report, Section, meta_line
from dsagent.atomic import write_atomic

TABLE_ROWS = 50
"""Rows of a table written into Markdown; report.html shows all the report keeps."""


def _rel(path: Path, base: Path) -> str:
    try:
        return Path(os.path.relpath(path, base)).as_posix()
    except ValueError:  # another drive on Windows
        return path.as_posix()


def _cell(value: Any) -> str:
    text = "" if value is None else str(value)
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def _table(section: Section) -> list[str]:
    try:
        columns, rows = section.table()
    except ValueError:
        return ["```json", section.content.rstrip(), "```"]
    if not columns:
        return ["*(empty table)*"]
    out = ["| " + " | ".join(_cell(c) for c in columns) + " |", "|" + "---|" * len(columns)]
    out += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in rows[:TABLE_ROWS]]
    if len(rows) > TABLE_ROWS:
        out += ["", f"*… {len(rows) - TABLE_ROWS} more rows in report.html*"]
    return out


def _link(path: Path, base: Path) -> str:
    rel = _rel(path, base)
    return f"<{rel}>" if any(c in rel for c in " ()<>") else rel


def _alt(text: str) -> str:
    return text.replace("[", "\\[").replace("]", "\\]")


def _fence(body: str, lang: str) -> list[str]:
    ticks = "```"
    while ticks in body:
        ticks += "`"
    return [f"{ticks}{lang}", body.rstrip(), ticks]


def render_markdown(report: Report, base: Path) -> str:
    """The report as Markdown; file links are relative to ``base`` (the folder it is written to)."""
    out = [f"# {report.title}", ""]
    byline = meta_line(report)
    if byline:
        out += [f"*{byline}*", ""]
    if report.question and report.question.strip() != report.title.strip():
        out += ["## Question", "", report.question.strip(), ""]
    elif report.question:
        out += [f"**Question:** {report.question.strip()}", ""]
    for section in report.sections:
        caption = f"*{section.description}*" if section.description else None
        kind = section.section_type
        if kind == "text":
            out += [section.content.strip()]
        elif kind == "code":
            out += ([caption, ""] if caption else []) + _fence(section.content, "python")
        elif kind == "table":
            out += ([caption, ""] if caption else []) + _table(section)
        elif kind == "image":
            out += [f"![{_alt(section.description or 'figure')}]({_link(report.resolve(section.content), base)})"]
        elif kind == "plotly":
            path = report.resolve(section.content)
            label = section.description or "figure"
            out += [f"Interactive figure — *{label}*: [{_rel(path, base)}]({_link(path, base)}) (Plotly JSON; open report.html to see it)"]
        out += [""]
    if report.caveats:
        out += ["## Caveats", "", *[f"- {c}" for c in report.caveats], ""]
    if report.suggestions:
        out += ["## Suggestions", "", *[f"- {s}" for s in report.suggestions], ""]
    for name, notes in (report.meta.get("column_notes") or {}).items():
        out += [f"## Column notes — {name}", "", *[line if line.startswith("- ") else f"- {line}" for line in notes.splitlines()], ""]
    if report.meta.get("isolation") or report.meta.get("usage"):
        out += ["---"]
    if report.meta.get("usage"):
        out += [f"Model: {report.meta['usage']}", ""]
    if report.meta.get("isolation"):
        out += [f"Sandbox: {report.meta['isolation']}", ""]
    return "\n".join(out)


def write_markdown(report: Report, path: Path) -> Path:
    return write_atomic(path, render_markdown(report, path.parent))
