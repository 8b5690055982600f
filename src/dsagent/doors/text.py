"""What every door says the same way: an answer as plain text, and the line about what it cost."""

from __future__ import annotations

from typing import Any

HOSTED = ("openai", "anthropic", "openai-compatible")


def provider_of(model_spec: str) -> str:
    return (model_spec or "").strip().partition(":")[0].lower()


def is_hosted(model_spec: str) -> bool:
    """A provider that runs elsewhere (its replies and prompts leave this machine)."""
    return provider_of(model_spec) in HOSTED


def cost_usd(prompt_tokens: int, completion_tokens: int, settings: Any) -> float | None:
    """Cost from the price settings, for hosted providers with a price set; else None."""
    if not is_hosted(settings.model) or not (settings.price_input_per_mtok or settings.price_output_per_mtok):
        return None
    return (prompt_tokens * settings.price_input_per_mtok + completion_tokens * settings.price_output_per_mtok) / 1e6


def usage_line(llm_calls: int, prompt_tokens: int, completion_tokens: int, seconds: float, settings: Any) -> str:
    """``3 model calls · 1,204 + 85 tokens · 12.3 s`` (and ``· $0.0021`` for a priced hosted model)."""
    line = f"{llm_calls} model call{'s' if llm_calls != 1 else ''} · {prompt_tokens:,} + {completion_tokens:,} tokens · {seconds:.1f} s"
    cost = cost_usd(prompt_tokens, completion_tokens, settings)
    if cost is not None:
        line += f" · ${cost:.4f}"
    return line


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
