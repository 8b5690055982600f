"""The one report every workflow produces, rendered to Markdown, HTML and a Jupyter notebook.

Seed 001's ``ReportOutput`` (title, sections of text / image / table, suggestions) widened for every
workflow: sections may also hold code and interactive Plotly figures, and the report carries caveats.
``content`` follows seed 001: text → Markdown, image → a file path, table → JSON records, code → the
Python source, plotly → a path to a Plotly JSON figure.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

SectionType = Literal["text", "image", "table", "code", "plotly"]


class Section(BaseModel):
    section_type: SectionType
    content: str
    description: str | None = None


class Report(BaseModel):
    title: str
    sections: list[Section] = Field(default_factory=list)
    suggestions: list[str] = Field(default_factory=list)
    caveats: list[str] = Field(default_factory=list)
    question: str = ""
    meta: dict[str, Any] = Field(default_factory=dict)
    """run_id, workflow, model, created, isolation, datasets (name → source path) — for re-rendering."""
