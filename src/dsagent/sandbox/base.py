"""The sandbox contract: ``Sandbox.run(code, limits) -> CodeRun``.

Generated code never runs in the agent's process. Code sees ``datasets[id]`` (and ``df`` when
there is exactly one dataset) with pd, np, plt, px, go, make_subplots, sns, sm, smf, scipy,
stats and sklearn pre-imported. It sets ``result`` and/or ``fig`` (seed 000's contract).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field


@dataclass(frozen=True)
class Limits:
    """Hard limits of one execution; a breach kills and restarts the worker."""

    wall_s: float = 180.0
    memory_mb: int = 1024
    output_kb: int = 256
    file_mb: int = 256
    workspace_mb: int = 1024
    """Total size of the files the code may keep in its directory (the parent measures it)."""

    @classmethod
    def from_settings(cls, settings: Any) -> "Limits":
        return cls(
            wall_s=settings.sandbox_wall_s,
            memory_mb=settings.sandbox_memory_mb,
            output_kb=settings.sandbox_output_kb,
            file_mb=settings.sandbox_file_mb,
            workspace_mb=settings.sandbox_workspace_mb,
        )


class CodeRun(BaseModel):
    """What one execution produced. Figures and tables are dsagent's own copies in the workspace's
    ``figures/`` and ``tables/`` (checked and copied from the code's directory, see outputs.py)."""

    success: bool
    code: str = ""
    stdout: str = ""
    error: str | None = None
    result: str | None = Field(None, description="str() of the code's `result` variable, capped")
    result_type: str | None = Field(None, description="type name of `result`, e.g. 'float', 'DataFrame'")
    figures: list[str] = Field(default_factory=list)
    tables: list[str] = Field(default_factory=list)
    figure_data: str | None = Field(None, description="the numbers the Plotly figure shows, as text (for explanations)")
    duration_s: float = 0.0
    peak_mb: float = 0.0
    limit_breached: str | None = Field(None, description="'wall_time', 'memory', 'output', 'workspace', 'protocol' or None")

    @property
    def output_type(self) -> str | None:
        if self.figures:
            return "visualization"
        if self.result is not None or self.stdout:
            return "analysis"
        return None


_EXCEPTION_LINE = re.compile(r"^[\w.]*(?:Error|Exception|Warning|Interrupt|Exit)\b.*")


def error_line(error: str | None) -> str:
    """The exception line of an ``CodeRun.error`` (the sandbox appends hints after it),
    else its last line."""
    lines = [line.strip() for line in (error or "").strip().splitlines() if line.strip()]
    found = [line for line in lines if _EXCEPTION_LINE.match(line)]
    return (found or lines or ["unknown error"])[-1]


@dataclass
class Isolation:
    """What confinement the OS allowed for this worker; recorded in the run log."""

    level: str = "none"  # "full", "partial" or "none"
    features: dict[str, bool] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def describe(self) -> str:
        on = [k for k, v in self.features.items() if v]
        off = [k for k, v in self.features.items() if not v]
        text = f"isolation={self.level}; on: {', '.join(on) or '-'}"
        if off:
            text += f"; unavailable: {', '.join(off)}"
        return text
