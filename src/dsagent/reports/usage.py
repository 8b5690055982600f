"""The line about what a run cost, as every report and door prints it: model calls, tokens, seconds, price.

It stands below the session (which writes it in each report's footer) and the doors (which print
it after an answer), so both say it the same way.
"""

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
