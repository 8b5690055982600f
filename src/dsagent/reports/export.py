"""Render a :class:`Report` to a file in one of the three formats; re-render a logged run.

Every run writes ``report.md`` and ``report.html`` into its workspace (the session does it); the
notebook is made on demand (``dsagent report RUN --format ipynb``), since it is only needed to re-run
the analysis and importing nbformat costs more than the run's other reports together.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dsagent.errors import UserError
from dsagent.reports.model import Report
from dsagent.atomic import write_atomic

FORMATS: tuple[str, ...] = ("md", "html", "ipynb")


def render(report: Report, fmt: str, base: Path) -> str:
    """The report as text in ``fmt``; Markdown links are relative to ``base``."""
    if fmt == "md":
        from dsagent.reports.markdown import render_markdown

        return render_markdown(report, base)
    if fmt == "html":
        from dsagent.reports.html import render_html

        return render_html(report)
    if fmt == "ipynb":
        from dsagent.reports.notebook import render_notebook

        return render_notebook(report)
    raise UserError(f"unknown report format {fmt!r}: use one of {', '.join(FORMATS)}")


def write(report: Report, path: Path, fmt: str | None = None) -> Path:
    """Write the report to ``path`` (format from the suffix unless given)."""
    fmt = fmt or path.suffix.lstrip(".").lower()
    text = render(report, fmt, path.parent)
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_atomic(path, text)


def default_path(run: dict[str, Any], artifacts: list[dict[str, Any]], fmt: str) -> Path:
    """Beside the run's report.md in its workspace; the current folder if the workspace is gone."""
    reports = [a["path"] for a in artifacts if a.get("kind") == "report"]
    if reports and Path(reports[-1]).parent.is_dir():
        return Path(reports[-1]).with_suffix(f".{fmt}")
    workspace = Path(run["workspace"]) if run.get("workspace") else None
    folder = workspace if workspace is not None and workspace.is_dir() else Path.cwd()
    return folder / f"report_{run['id']}.{fmt}"


def export_run(run_log: Any, run_id: str, fmt: str = "html", out: Path | None = None, within: Path | None = None) -> Path:
    """Re-render a logged run's report as ``fmt``; returns the file written.

    Runs logged before reports existed are rebuilt from their stored final output and question.
    ``out`` may be a file or an existing folder. ``within`` (a server door: the run's own
    workspace) is the one folder the file may be written in, links resolved; the run id must then
    be given in full. Anything else is refused before the report is built.
    """
    from dsagent.reports.build import report_for_run

    if fmt not in FORMATS:
        raise UserError(f"unknown report format {fmt!r}: use one of {', '.join(FORMATS)}")
    run = run_log.get_run(run_id, exact=True) if within is not None else run_log.get_run(run_id)
    if out is None:
        path = default_path(run, run_log.artifacts(run["id"]), fmt)
    else:
        path = Path(out).expanduser()
        if path.is_dir():
            path = path / f"report_{run['id']}.{fmt}"
    if within is not None:
        path = inside(path, Path(within))
    return write(report_for_run(run), path, fmt)


def inside(path: Path, folder: Path) -> Path:
    """``path`` with its folder resolved, when that folder is ``folder`` or lies under it (links
    resolved on both sides); else a UserError. A server writes a report only into its own
    workspace, never beside another run's files or into the current folder."""
    base = folder.resolve()
    parent = path.parent.resolve()
    if not parent.is_dir() or not (parent == base or parent.is_relative_to(base)):
        raise UserError(f"the report would be written outside the run's workspace ({base}); "
                        "`dsagent report RUN --format FMT --out FILE` writes it elsewhere")
    return parent / path.name
