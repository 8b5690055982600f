"""The before/after report of a cleaning run, in the project's report formats (report.md + .html).

Everything in it is computed by code from the raw table, the cleaned table and the trace of the
steps: rows, columns, types and missing values per column, values changed per column, what each
step changed (with counts), the checks of the findings, and the code that ran (in full, as saved).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Any

from dsagent.reports.build import dataset_meta
from dsagent.reports.html import write_html
from dsagent.reports.markdown import write_markdown
from dsagent.reports.model import Report, Section
from dsagent.workflows.clean import cleaner_file

if TYPE_CHECKING:
    from dsagent.runtime import RunContext


def build(state: dict[str, Any], names: dict[str, str], meta: dict[str, Any]) -> Report:
    sections: list[Section] = []
    caveats: list[str] = []
    cleaned = state.get("data_cleaned") or {}
    error = state.get("data_cleaner_error")
    if error:
        caveats.append(f"The cleaner did not pass after {state.get('retry_count', 0)} fix attempt(s); the last problem: {error}")
    for ds_id, steps in (state.get("plan") or {}).items():
        name = names.get(ds_id, ds_id)
        out = cleaned.get(ds_id)
        if not out:
            sections.append(Section(section_type="text", content=f"## {name}\n\nNo cleaned table: the cleaner failed on it."))
            continue
        cmp_ = out["comparison"]
        dropped = cmp_["rows_raw"] - cmp_["rows_cleaned"]
        text = (f"## {name}\n\nRows: {cmp_['rows_raw']} → {cmp_['rows_cleaned']} ({dropped} dropped). "
                f"Columns: {len(cmp_['columns_raw'])} → {len(cmp_['columns_cleaned'])}"
                + (f" (dropped: {', '.join(cmp_['columns_dropped'])})" if cmp_["columns_dropped"] else "") + ".\n\n"
                f"Cleaned files: `{out['csv']}`, `{out['parquet']}`."
                + loader_reads(((meta.get("datasets") or {}).get(ds_id) or {}).get("read_options") or {}))
        big = out.get("big")
        if big:  # a file above big_file_mb: say how it was cleaned and the whole-table figures the steps used
            text += (f"\n\nA file above big_file_mb: never loaded whole; the findings come from a random sample of {big['sample_rows']:,} of its "
                     f"{big['rows_raw']:,} rows (spaces and placeholders counted in the whole file), the cleaner ran in {big['passes']} pass(es) "
                     f"over chunks of {big['chunk_rows']:,} rows, with these figures of the whole table written in: "
                     + (json.dumps(big["constants"], default=str) if big["constants"] else "none") + ". The checks ran as SQL over every row "
                     "of the cleaned Parquet; values changed per column are not counted (see cells changed per step).")
        sections.append(Section(section_type="text", content=text))
        columns = [{"column": c, "type before": t[0], "type after": t[1],
                    "missing before": (cmp_["missing"].get(c) or [None, None])[0], "missing after": (cmp_["missing"].get(c) or [None, None])[1],
                    "values changed": cmp_["changed"].get(c, "n/a")} for c, t in cmp_["types"].items()]
        sections.append(Section(section_type="table", content=json.dumps(columns, default=str), description="Per column, before → after"))
        trace = {t["step"]: t for t in out.get("trace") or []}
        rows = [{"step": s["n"], "what": s["what"], "cells changed": trace.get(s["n"], {}).get("cells_changed", "n/a"),
                 "rows dropped": trace.get(s["n"], {}).get("rows_dropped", "n/a"),
                 "evidence": _evidence(s), "sample (before → after)": "; ".join(trace.get(s["n"], {}).get("sample") or [])} for s in steps]
        sections.append(Section(section_type="table", content=json.dumps(rows, default=str), description="What each step changed"))
        flagged = flagged_text(name, (state.get("findings") or {}).get(ds_id) or [])
        if flagged:
            sections.append(Section(section_type="text", content=flagged.strip()))
        checks = (state.get("verification") or {}).get(ds_id) or []
        if checks:
            sections.append(Section(section_type="text", content="Checks of the findings on the cleaned table (by code):\n\n" + "\n".join(f"- {c}" for c in checks)))
    sections.append(Section(section_type="text", content="## Recommended steps (as reviewed)\n\n" + (state.get("recommended_steps") or "(bypassed)")))
    approved = state.get("approved_functions") or {}
    flags = state.get("flags") or {}
    how = "reviewed" if flags.get("human_in_the_loop", True) and not flags.get("bypass_recommended_steps") else "accepted without review (--yes)"
    for ds_id, source in approved.items():  # in full: the code that ran is the code saved (issue 38, finding 7)
        file = cleaner_file.file_name(ds_id, len(approved))
        origin = "rewritten by the model's fix" if (state.get("function_origin") or {}).get(ds_id) == "model" else "built from the steps"
        sections.append(Section(section_type="code", content=source,
                                description=f"{file}: the code that ran in the sandbox ({origin}, {how}), saved as it is; "
                                            f"re-run it in the sandbox with dsagent clean --rerun {file} NEW.csv"))
    caveats += [g for g in state.get("guard_findings") or [] if g not in (error or "")]
    title = "Data cleaning: " + ", ".join(names.values())
    return Report(title=title[:120], sections=sections, caveats=caveats, question=state.get("user_instructions") or "", meta=meta)


def loader_reads(options: dict[str, Any]) -> str:
    """What the loader read differently from the file's text before any step ran (numbers written
    "4,749" or "57.3 %", ".." read as missing), so the before/after counts are not taken for the
    cleaner's work; empty when it read the text as written."""
    parts = [f"{name!r} written like {shown!r} read as numbers" for name, shown in (options.get("numbers_from_text") or {}).items()]
    parts += [f"{mark!r} read as missing in {name!r}" for name, mark in (options.get("missing_marks") or {}).items()]
    return ("\n\nRead by the loader before the steps (the file itself is unchanged): " + "; ".join(parts) + ".") if parts else ""


def _evidence(step: dict[str, Any]) -> str:
    """What a step's repairs rest on, in a few words (empty for the default policy's steps)."""
    ev = (step.get("params") or {}).get("evidence")
    if ev and ev.get("kind") == "dependency":
        return (f"dependency {ev['key']} → {step.get('column')} ({ev['agreement']:.0%} of {ev['groups']} groups' cells agree): "
                f"{ev['replaced']} replaced, {ev['filled']} filled")
    if ev and ev.get("kind") == "rule":
        return f"rule {ev['rule']} (holds in {ev['confidence']:.1%} of those rows): {ev['replaced']} replaced"
    if step.get("kind") == "spelling":
        return "the column's own vocabulary (a far more frequent value one or two edits away)"
    if step.get("kind") == "format":
        return "the column's own format (the one run of words that has it)"
    if step.get("kind") == "impute":
        return "a statistic of the column: invented values"
    return ""


def flagged_text(name: str, findings: list[dict[str, Any]]) -> str:
    """The cells left as they were for want of evidence (count, then a sample), for the review and the report."""
    found = next((f for f in findings if f["kind"] == "flagged"), None)
    if not found:
        return ""
    cells = found["params"].get("cells") or []
    lines = [f"- row {c['row']}, {c['column']!r} = {str(c['value'])[:40]!r}: {c['why']}" for c in cells[:20]]
    more = found["count"] - len(lines)
    return (f"\n\n{name}: {found['count']} cells flagged (left as they were, the evidence to change them is not enough):\n"
            + "\n".join(lines) + (f"\n- … and {more} more" if more > 0 else ""))


def write_report(ctx: "RunContext", state: dict[str, Any]) -> str:
    names = {ds_id: ds.name for ds_id, ds in ctx.datasets.items()}
    meta = {"run_id": ctx.run_id, "workflow": "clean", "model": ctx.model_label, "created": datetime.now().isoformat(timespec="seconds"),
            "workspace": str(ctx.workspace), "datasets": dataset_meta(ctx.datasets)}
    report = build(dict(state), names, meta)
    path = write_markdown(report, ctx.workspace / "report.md")
    html = write_html(report, path.with_suffix(".html"))
    ctx.run_log.add_artifact(ctx.run_id, "report", str(path))
    ctx.run_log.add_artifact(ctx.run_id, "report_html", str(html))
    return str(path)
