"""Turn a workflow's ``final_output`` package into a :class:`Report`.

The quick and robust workflows hand over seed 000's package (explanation, result, figures, code,
evaluation, failed attempts); a workflow that writes its own report (react) puts the Report's dict
in ``final_output["report"]`` and only meta is added here. Runs logged before reports existed are
rebuilt from their stored package the same way (:func:`report_for_run`).
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from dsagent.reports.model import Report, Section
from dsagent.sandbox import fsafe
from dsagent.sandbox.base import error_line

TABLE_ROWS = 100
"""Rows of a result table kept in the report; the full table stays in the workspace's tables/."""
TITLE_CHARS = 120


def dataset_meta(datasets: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """``{id: {name, path, sheet, read_options}}`` of a session's :class:`~dsagent.data.Dataset` s."""
    return {
        ds_id: {
            "name": ds.name,
            "path": str(Path(ds.source_path).resolve()) if ds.source_path else None,
            "sheet": ds.sheet,
            "read_options": dict(ds.read_options or {}),
        }
        for ds_id, ds in datasets.items()
    }


def title_of(question: str) -> str:
    lines = question.strip().splitlines()
    return (lines[0][:TITLE_CHARS] if lines else "") or "dsagent report"


def grounding_caveat(record: Any) -> str | None:
    """The caveat for a run whose explanation stated values no computed output holds (the grounding
    check's record in ``final_output["grounding"]``), else None."""
    if not isinstance(record, Mapping):
        return None
    if not record.get("ungrounded_caught"):
        actions = record.get("actions") or []
        return f"Grounding check: the first explanation held code, not findings ({'; '.join(actions)})." if actions else None
    caught = ", ".join(map(str, record["ungrounded_caught"]))
    done = "; ".join(record.get("actions") or []) or "kept"
    left = record.get("ungrounded_left") or []
    tail = f" Still not found in the computed output: {', '.join(map(str, left))}." if left else ""
    return f"Grounding check: the first explanation stated {caught}, which no computed output holds ({done}).{tail}"


def verification_line(output: Any) -> str:
    """The answer's mark as one line every door shows the same way (``common.verify``):
    ``✓ Verified: …`` or ``? Not verified: …``; empty when the workflow made no such claim or did
    not check (``not checked: …``, which ``--json`` still carries)."""
    get = output.get if isinstance(output, Mapping) else (lambda key, default=None: getattr(output, key, default))
    text = str(get("verification") or "").strip()
    if not text:
        return ""
    head, _, rest = text.partition(": ")
    if head == "not checked":  # a chart, a failed run, the setting off: no claim either way (--json still says why)
        return ""
    label = "Verified" if get("verified") else "Not verified"
    why = rest if rest and head in {"verified", "not verified", "not sure"} else text
    if head == "not sure":
        why = f"not sure — {why}"
    return f"{'✓' if get('verified') else '?'} {label}: {why}"


def build_report(question: str, final_output: Mapping[str, Any], meta: Mapping[str, Any], tables: Sequence[str] | None = None) -> Report:
    """The report of one run. ``tables`` are result-table CSVs of the final execution (the first
    becomes a table section; without one the result is shown as text)."""
    own = final_output.get("report")
    if own:
        try:
            report = own if isinstance(own, Report) else Report.model_validate(own)
        except ValidationError as exc:
            caveat = f"The workflow's own report was invalid ({exc.error_count()} errors); this one is rebuilt from its output."
            report = _from_package(question, final_output, tables, meta.get("workspace"))
            report.caveats.append(caveat)
        else:
            report = report.model_copy(deep=True)
            report.question = report.question or question
    else:
        report = _from_package(question, final_output, tables, meta.get("workspace"))
    report.meta = {**report.meta, **{k: v for k, v in meta.items() if v is not None}}
    line = verification_line(final_output)
    if line:  # right after the answer, in every rendering (markdown, html, notebook, the web app)
        report.meta["verified"] = bool(final_output.get("verified"))
        report.meta["verification"] = str(final_output.get("verification"))
        if not any(s.content == line for s in report.sections):
            report.sections.insert(min(1, len(report.sections)), Section(section_type="text", content=line))
    caveat = grounding_caveat(final_output.get("grounding"))
    if caveat and caveat not in report.caveats:
        report.caveats.append(caveat)
    return report


def _workspace_file(path: str, workspace: str | None, max_bytes: int = 64 * 1024 * 1024) -> bytes:
    """A figure or table of the run: inside its workspace, a regular file reached without links
    (the sandboxed code may have planted links in the workspace; nothing outside is read)."""
    if workspace:
        return fsafe.read_inside(Path(workspace), path, max_bytes)
    return Path(path).read_bytes()


def _from_package(question: str, out: Mapping[str, Any], tables: Sequence[str] | None, workspace: str | None = None) -> Report:
    sections: list[Section] = []

    def text(markdown: str) -> None:
        sections.append(Section(section_type="text", content=markdown.strip()))

    explanation = (out.get("explanation") or "").strip()
    failed_run = out.get("output_type") == "error"
    text(f"## {'What went wrong' if failed_run else 'Answer'}\n\n{explanation or '(no explanation)'}")
    if failed_run and out.get("error"):
        text(f"## Error\n\n{_fence(out['error'], 'text')}")
    table = _result_table(tables[0], workspace) if tables else None
    if table is not None:
        text("## Result")
        sections.append(table)
    elif out.get("result_str"):
        text(f"## Result\n\n{_fence(out['result_str'], 'text')}")
    figures = [p for p in out.get("figures") or [] if not workspace or fsafe.relative_inside(Path(workspace), p) is not None]
    for n, path in enumerate(figures, start=1):
        kind = "plotly" if str(path).endswith(".json") else "image"
        sections.append(Section(section_type=kind, content=str(path), description=_figure_title(path, workspace) or f"Figure {n}"))
    evaluation = _evaluation_text(out.get("evaluation"))
    if evaluation:
        text(f"## Evaluation\n\n{evaluation}")
    if out.get("code"):
        attempts = len(out.get("failed_attempts") or []) + 1
        caption = "The code that failed last" if failed_run else "The code that produced the result"
        if attempts > 1 and not failed_run:
            caption += f" (attempt {attempts})"
        sections.append(Section(section_type="code", content=out["code"].rstrip() + "\n", description=caption))
    checks = _cross_checks(out.get("cross_check"))
    if checks:
        text("## Cross-check\n\nIndependent code for the question alone, compared with the result above by code.\n\n" + checks)
    failed = out.get("failed_attempts") or []
    if failed:
        lines = []
        for item in failed:
            lines.append(f"- attempt {item.get('attempt')}: {_inline_code(error_line(item.get('error')))}")
        text(f"## Failed attempts ({len(failed)})\n\n" + "\n".join(lines))
    return Report(title=title_of(question), sections=sections, caveats=[str(c) for c in out.get("alignment_caveats") or []], question=question.strip())


def _cross_checks(check: Any) -> str:
    """Robust node 5's independent computations as text (not code sections: the notebook must not re-run them)."""
    if not isinstance(check, Mapping):
        return ""
    parts = []
    for n, item in enumerate((check, check.get("second") or {}, check.get("third") or {}), start=1):
        if not item.get("code"):
            continue
        shown = str(item.get("result_str"))
        shown = shown if len(shown) <= 600 else shown[:600] + " …"
        outcome = f"result:\n\n{_fence(shown, 'text')}" if item.get("result_str") is not None else \
            f"failed: {_inline_code(error_line(item.get('error')))}"
        parts.append(f"**Computation {n}** {outcome}\n\n{_fence(item['code'], 'python')}")
    return "\n\n".join(parts)


def _fence(body: str, lang: str = "") -> str:
    body = str(body).rstrip()
    ticks = "```"
    while ticks in body:
        ticks += "`"
    return f"{ticks}{lang}\n{body}\n{ticks}"


def _inline_code(value: str) -> str:
    ticks = "`"
    while ticks in value:
        ticks += "`"
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    return f"{ticks}{pad}{value}{pad}{ticks}"


def _evaluation_text(evaluation: Any) -> str:
    if isinstance(evaluation, dict):  # robust node 5's ResultEvaluation
        issues = evaluation.get("issues_found") or []
        lines = [f"Valid: {evaluation.get('is_valid')} · confidence {evaluation.get('confidence')} · {evaluation.get('recommendation')}"]
        lines += [f"- {i}" for i in issues]
        if evaluation.get("reasoning"):
            lines += ["", str(evaluation["reasoning"])]
        return "\n".join(lines).strip()
    return str(evaluation or "").strip()


def _figure_title(path: str, workspace: str | None = None) -> str | None:
    """A Plotly figure's own title, as its caption."""
    if not str(path).endswith(".json"):
        return None
    try:
        title = json.loads(_workspace_file(path, workspace).decode("utf-8")).get("layout", {}).get("title")
    except (OSError, ValueError, AttributeError):
        return None
    title = title.get("text") if isinstance(title, dict) else title
    # Plotly titles may hold its HTML subset (<b>, <br>); a caption is plain text.
    return " ".join(re.sub(r"<[^>]*>", " ", str(title)).split()) or None if title else None


def _result_table(path: str, workspace: str | None = None) -> Section | None:
    """The first rows of a result CSV (written by the sandbox with its index) as JSON records."""
    import pandas as pd

    try:
        data = _workspace_file(path, workspace)
        frame = pd.read_csv(io.BytesIO(data), nrows=TABLE_ROWS + 1)
        total = max(len(data.splitlines()) - 1, 0)  # rows of a plain CSV; a quoted newline overcounts
    except (OSError, ValueError):
        return None
    first = frame.columns[0] if len(frame.columns) else None
    if first is not None and str(first).startswith("Unnamed: 0"):
        # An unnamed index: a plain 0..n-1 range says nothing, anything else (labels) is kept.
        if frame[first].tolist() == list(range(len(frame))):
            frame = frame.drop(columns=first)
        else:
            frame = frame.rename(columns={first: ""})
    shown = frame.head(TABLE_ROWS)
    caption = f"{Path(path).name}: {total:,} rows" + (f", the first {len(shown)} shown" if total > len(shown) else "")
    content = shown.to_json(orient="records", date_format="iso", force_ascii=False)
    return Section(section_type="table", content=content, description=caption)


def report_for_run(run: Mapping[str, Any]) -> Report:
    """The report of a logged run: the stored one, or rebuilt from its final output (older runs)."""
    final = json.loads(run["final_output"]) if run.get("final_output") else {}
    if not final:  # the run crashed before its graph finished
        final = {"explanation": f"The run did not finish ({run.get('status')}).", "output_type": "error", "error": run.get("error")}
    names = json.loads(run["datasets"]) if run.get("datasets") else []
    meta = {
        "run_id": run["id"], "workflow": run.get("workflow"), "model": run.get("model"),
        "created": str(run.get("created_at") or "")[:19], "isolation": run.get("isolation"),
        "workspace": run.get("workspace"),
    }
    if final.get("report"):
        try:  # the stored report's own meta (local time, dataset paths) wins over the run row's
            report = Report.model_validate(final["report"])
        except ValidationError:
            pass
        else:
            report.meta = {**{k: v for k, v in meta.items() if v is not None}, **report.meta}
            return report
    # Older runs logged dataset names only: ids as the loader would make them, no paths (the
    # notebook says where to bind each one).
    meta["datasets"] = {_guess_id(name): {"name": name, "path": None, "sheet": None, "read_options": {}} for name in names}
    return build_report(run.get("question") or "", final, meta)


def _guess_id(name: str) -> str:
    from dsagent.data.catalog import slugify

    stem, _, sheet = name.partition("[")
    stem = Path(stem).stem
    return slugify(f"{stem}_{sheet.rstrip(']')}" if sheet else stem)
