"""What an answer offers for download: its report (md / html / ipynb) and its figure files.

The report formats come from :mod:`dsagent.reports` (the renderers ``dsagent report`` uses); each is
made only when its button is clicked, since an HTML report embeds plotly.js. A format whose renderer
is not installed is not offered.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dsagent.reports.model import Report

Download = tuple[str, "bytes | Callable[[], bytes | str]", str, str]
"""(button label, data or a function that makes it, file name, MIME type)."""

FIGURE_MIME = {".png": "image/png", ".json": "application/json", ".svg": "image/svg+xml", ".html": "text/html"}
# (label, module, function, file suffix, MIME type, extra module the renderer needs)
FORMATS = (
    ("Report (.html)", "dsagent.reports.html", "render_html", ".html", "text/html", None),
    ("Notebook (.ipynb)", "dsagent.reports.notebook", "render_notebook", ".ipynb", "application/x-ipynb+json", "nbformat"),
)


def _available(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _renderer(module: str, function: str, report: Report) -> Callable[[], str]:
    def render() -> str:
        return getattr(importlib.import_module(module), function)(report)

    return render


def _markdown(result: Any, report: Report) -> Callable[[], bytes | str] | None:
    path = Path(result.report_path) if getattr(result, "report_path", None) else None
    if path is not None and path.is_file():
        return path.read_bytes
    if _available("dsagent.reports.markdown"):
        module = importlib.import_module("dsagent.reports.markdown")
        if hasattr(module, "render_markdown"):
            base = Path(report.meta.get("workspace") or ".")
            return lambda: module.render_markdown(report, base)
    return None


def report_files(result: Any, report: Report) -> list[Download]:
    """The report in every format this install can render."""
    stem = Path(result.report_path).stem if getattr(result, "report_path", None) else f"report_{result.run_id}"
    out: list[Download] = []
    markdown = _markdown(result, report)
    if markdown is not None:
        out.append(("Report (.md)", markdown, f"{stem}.md", "text/markdown"))
    saved = Path(result.report_path).parent if getattr(result, "report_path", None) else None
    for label, module, function, suffix, mime, needs in FORMATS:
        written = saved / f"{stem}{suffix}" if saved is not None else None
        if written is not None and written.is_file():  # the session already wrote it beside report.md
            out.append((label, written.read_bytes, written.name, mime))
        elif _available(module) and (needs is None or _available(needs)):
            if hasattr(importlib.import_module(module), function):
                out.append((label, _renderer(module, function, report), f"{stem}{suffix}", mime))
    return out


def resolve(report: Report, content: str) -> Path:
    """A section's file: absolute as stored, or relative to the run's workspace."""
    path = Path(content).expanduser()
    if not path.is_absolute() and report.meta.get("workspace"):
        path = Path(report.meta["workspace"]) / path
    return path


def figure_files(report: Report) -> list[Download]:
    """Each figure file of the report's image and plotly sections, as saved in the workspace."""
    out: list[Download] = []
    for section in report.sections:
        if section.section_type not in ("image", "plotly"):
            continue
        path = resolve(report, section.content)
        if path.is_file():
            kind = "chart JSON" if section.section_type == "plotly" else "image"
            out.append((f"{path.name} ({kind})", path.read_bytes, path.name, FIGURE_MIME.get(path.suffix.lower(), "application/octet-stream")))
    return out
