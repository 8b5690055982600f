"""What every door says the same way: an answer as plain text, and the line about what it cost."""

from __future__ import annotations

from typing import Any

from dsagent.reports.build import verification_line
from dsagent.reports.usage import is_hosted, provider_of, usage_line

__all__ = ["answer_text", "is_hosted", "provider_of", "sharing_notice", "usage_line"]


def sharing_notice(settings: Any) -> str | None:
    """Said once per session when the model is hosted: who receives what (setting data_sharing)."""
    if not is_hosted(settings.model):
        return None
    provider = provider_of(settings.model)
    shown = {
        "full": "the column profile with statistics and example values, and what the generated code prints (it may include rows)",
        "sample": "the column profile with statistics and example values, and at most 5 lines of each printed result",
        "schema": "column names, types, missing and unique counts only; cell values are masked in every prompt",
    }[settings.data_sharing]
    return (f"{provider} receives your questions and, of your data, {shown} (data_sharing = {settings.data_sharing}); "
            "the files themselves never leave this machine.")


def answer_text(result: Any, settings: Any) -> str:
    """An :class:`~dsagent.session.AnalysisResult` as text a person reads (MCP, notebooks' plain repr)."""
    parts = [result.explanation.strip() or "(no explanation)"]
    if result.error and result.output_type == "error":
        parts.append(f"Error: {result.error}")
    if result.result_str and result.output_type != "ask":
        parts.append("Result:\n" + result.result_str.rstrip())
    line = verification_line(result)  # empty for "not checked"
    if line:
        parts.append(line)
    if result.alignment_caveats:
        parts.append("Caveats:\n" + "\n".join(f"- {c}" for c in result.alignment_caveats))
    if result.code:
        parts.append("Code:\n```python\n" + result.code.rstrip() + "\n```")
    if result.figures:
        parts.append("Figures:\n" + "\n".join(result.figures))
    if result.report_path:
        parts.append(f"Report: {result.report_path}")
    parts.append(f"Run {result.run_id} · {result.workflow} · {result.model} · "
                 + usage_line(result.llm_calls, result.prompt_tokens, result.completion_tokens, result.duration_s, settings))
    return "\n\n".join(parts)
