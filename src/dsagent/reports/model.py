"""The one report every workflow produces, rendered to Markdown, HTML and a Jupyter notebook.

Seed 001's ``ReportOutput`` (title, sections of text / image / table, suggestions) widened for every
workflow: sections may also hold code and interactive Plotly figures, and the report carries caveats.
``content`` follows seed 001: text → Markdown, image → a file path, table → JSON records, code → the
Python source, plotly → a path to a Plotly JSON figure (an image section whose file is Plotly JSON
is read as plotly). A relative path is read from the run's workspace (``meta["workspace"]``).
``description`` is a caption: shown under an image or figure and above a table or code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field, model_validator

SectionType = Literal["text", "image", "table", "code", "plotly"]


class Section(BaseModel):
    section_type: SectionType
    content: str
    description: str | None = None

    @model_validator(mode="after")
    def _plotly_json_is_plotly(self) -> "Section":
        # Seed 001 has no plotly type, so a workflow may file a Plotly JSON figure as an image.
        if self.section_type == "image" and self.content.strip().lower().endswith(".json"):
            self.section_type = "plotly"
        return self

    def table(self) -> tuple[list[str], list[list[Any]]]:
        """(columns, rows) of a table section; raises ValueError when the content is not a table.

        Accepts JSON records (``[{col: v}]``, seed 001), pandas' ``columns`` orient
        (``{col: {row: v}}`` or ``{col: [v]}``) and ``split`` orient (``{columns, data}``).
        """
        try:
            data = json.loads(self.content)
        except json.JSONDecodeError as exc:
            raise ValueError(f"table content is not JSON: {exc}") from None
        if isinstance(data, list) and all(isinstance(r, dict) for r in data):
            columns = list(dict.fromkeys(k for r in data for k in r))
            return columns, [[r.get(c) for c in columns] for r in data]
        if isinstance(data, dict) and isinstance(data.get("columns"), list) and isinstance(data.get("data"), list):
            return [str(c) for c in data["columns"]], [list(r) for r in data["data"]]
        if isinstance(data, dict) and data and all(isinstance(v, (dict, list)) for v in data.values()):
            columns = [str(c) for c in data]
            cols = [list(v.values()) if isinstance(v, dict) else v for v in data.values()]
            length = max(len(c) for c in cols)
            return columns, [[c[i] if i < len(c) else None for c in cols] for i in range(length)]
        raise ValueError("table content must be JSON records, columns or split orient")


class Report(BaseModel):
    title: str
    sections: list[Section] = Field(default_factory=list)
    suggestions: list[str] = Field(default_factory=list)
    caveats: list[str] = Field(default_factory=list)
    question: str = ""
    meta: dict[str, Any] = Field(default_factory=dict)
    """run_id, workflow, model, created, isolation, workspace, follow_up, and datasets:
    ``{id: {name, path, sheet, read_options}}`` (path None for an in-memory DataFrame) — for
    re-rendering and for the notebook, which re-loads the same files."""

    def resolve(self, path: str) -> Path:
        """A section's file path: absolute as stored, or relative to the run's workspace."""
        candidate = Path(path).expanduser()
        if not candidate.is_absolute() and self.meta.get("workspace"):
            candidate = Path(self.meta["workspace"]) / candidate
        return candidate

    def read_file(self, path: str, max_bytes: int = 64 * 1024 * 1024) -> bytes:
        """A section's file, for embedding. With a workspace in ``meta`` (every run's report) it
        must be a regular file inside that workspace, reached without following a link: sandboxed
        code may have planted links there, and nothing outside may end up in a report."""
        from dsagent.sandbox import fsafe

        if self.meta.get("workspace"):
            return fsafe.read_inside(Path(self.meta["workspace"]), self.resolve(path), max_bytes)
        return self.resolve(path).read_bytes()

    def code(self) -> list[str]:
        """The code sections' sources, in order: what the notebook re-runs."""
        return [s.content for s in self.sections if s.section_type == "code"]


def meta_line(report: Report) -> str:
    """``Run abc · workflow quick · model x · 2025-01-01T10:00:00``: the byline every format shows."""
    meta = report.meta
    parts = [f"{label} {meta[key]}" for key, label in (("run_id", "Run"), ("workflow", "workflow"), ("model", "model")) if meta.get(key)]
    if meta.get("created"):
        parts.append(str(meta["created"]))
    return " · ".join(parts)
