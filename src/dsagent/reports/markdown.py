"""``report.md``: question, answer, result, code, figures, evaluation — readable on its own."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any


def _rel(path: str, base: Path) -> str:
    try:
        return os.path.relpath(path, base)
    except ValueError:
        return path


def render_report(question: str, final_output: dict[str, Any], meta: dict[str, Any], base: Path) -> str:
    out = [f"# {question.strip().splitlines()[0][:120]}", ""]
    out += [f"*Run `{meta.get('run_id')}` · workflow `{meta.get('workflow')}` · model `{meta.get('model')}` · {meta.get('created')}*", ""]
    out += ["## Question", "", question.strip(), "", "## Answer", "", (final_output.get("explanation") or "").strip(), ""]
    if final_output.get("result_str"):
        out += ["## Result", "", "```text", final_output["result_str"].rstrip(), "```", ""]
    for fig in final_output.get("figures") or []:
        rel = _rel(fig, base)
        out += [f"![figure]({rel})" if rel.endswith(".png") else f"Figure (Plotly JSON): [{rel}]({rel})", ""]
    caveats = final_output.get("alignment_caveats") or []
    if caveats:
        out += ["## Caveats", "", *[f"- {c}" for c in caveats], ""]
    evaluation = final_output.get("evaluation")
    if isinstance(evaluation, dict):
        issues = evaluation.get("issues_found") or []
        evaluation = "\n".join([
            f"Valid: {evaluation.get('is_valid')} · confidence {evaluation.get('confidence')} · {evaluation.get('recommendation')}",
            *[f"- {i}" for i in issues], "", str(evaluation.get("reasoning") or ""),
        ])
    if evaluation:
        out += ["## Evaluation", "", str(evaluation).strip(), ""]
    if final_output.get("code"):
        out += ["## Code", "", "```python", final_output["code"].rstrip(), "```", ""]
    failed = final_output.get("failed_attempts") or []
    if failed:
        out += [f"## Failed attempts ({len(failed)})", ""]
        for item in failed:
            error = (item.get("error") or "").strip().splitlines()
            out += [f"- attempt {item.get('attempt')}: `{error[-1] if error else 'error'}`"]
        out += [""]
    if meta.get("isolation"):
        out += ["---", f"Sandbox: {meta['isolation']}", ""]
    return "\n".join(out)


def write_report(path: Path, question: str, final_output: dict[str, Any], meta: dict[str, Any]) -> Path:
    path.write_text(render_report(question, final_output, meta, path.parent), encoding="utf-8")
    return path
