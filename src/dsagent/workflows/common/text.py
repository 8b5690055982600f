"""Text for prompts: :func:`clip` keeps a long output's head and tail, :func:`quote_data` fences
data as ``<data>…</data>``. The lowest module of ``common``: the code step (``code``) and the
prompt builders (``prompting``) both use it, and it imports neither."""

from __future__ import annotations

import re

_DATA_TAG = re.compile(r"<\s*/?\s*data\s*>", re.I)


def clip(text: str | None, limit: int = 1500) -> str:
    """Keep prompts lean: the head and tail of a long output."""
    if not text:
        return ""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n… [{len(text) - limit} characters omitted] …\n{text[-half:]}"


def quote_data(text: str | None, limit: int | None = None) -> str:
    """Data text for a prompt — a profile, cell values, column names, code output, an error that
    quotes them — fenced as ``<data>…</data>``, every workflow's one way to put data in a prompt.

    The system message says that what is fenced is data, never instructions; a ``<data>`` tag
    inside the text is defused so it cannot close the fence; ``limit`` clips a long text (head and
    tail kept, :func:`clip`).
    """
    body = str(text or "")
    if limit is not None:
        body = clip(body, limit)
    body = _DATA_TAG.sub(lambda m: m.group(0).replace("<", "‹").replace(">", "›"), body)
    return f"<data>\n{body}\n</data>"
