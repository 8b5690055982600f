"""Notebooks: ``df.dsagent.ask("…")``, ``dsagent.ask(question, df1, df2, …)`` and ``%%dsagent``.

An answer displays in Jupyter as the answer and its result, the interactive Plotly figure (mime
``application/vnd.plotly.v1+json``, which JupyterLab, Notebook 7 and VS Code draw), the code
collapsed in ``<details>``, the caveats and the run's usage line. Each call is one
:class:`~dsagent.session.Session` run: the same sandbox, run log and reports as the CLI.
"""

from __future__ import annotations

import html
import json
import shlex
from pathlib import Path
from typing import Any

PLOTLY_MIME = "application/vnd.plotly.v1+json"


class NotebookAnswer:
    """An :class:`~dsagent.session.AnalysisResult` that knows how to show itself in Jupyter."""

    def __init__(self, result: Any, settings: Any) -> None:
        self.result = result
        self.settings = settings

    def __getattr__(self, name: str) -> Any:  # explanation, code, figures, run_id, …
        if name in {"result", "settings"}:
            raise AttributeError(name)
        return getattr(self.result, name)

    def __repr__(self) -> str:
        from dsagent.doors.text import answer_text

        return answer_text(self.result, self.settings)

    # --- pieces ------------------------------------------------------------------------------
    def _plotly_figures(self) -> list[dict[str, Any]]:
        out = []
        for path in self.result.figures:
            p = Path(path)
            if p.suffix == ".json" and p.is_file():
                try:
                    out.append(json.loads(p.read_text(encoding="utf-8")))
                except ValueError:
                    continue
        return out

    def _images(self) -> list[Path]:
        return [Path(p) for p in self.result.figures if Path(p).suffix.lower() == ".png" and Path(p).is_file()]

    def _answer_html(self) -> str:
        r = self.result
        parts = [f'<div class="dsagent-answer"><p>{html.escape(r.explanation.strip() or "(no explanation)").replace(chr(10), "<br>")}</p>']
        if r.error and r.output_type == "error":
            parts.append(f'<p style="color:#b00"><b>Error:</b> {html.escape(r.error)}</p>')
        from dsagent.reports.build import verification_line

        line = verification_line(r)
        if line:
            parts.append(f'<p style="color:{"#080" if r.verified else "#a60"}">{html.escape(line)}</p>')
        if r.result_str and r.output_type != "ask":
            parts.append(f"<details open><summary>Result</summary><pre>{html.escape(r.result_str.rstrip())}</pre></details>")
        return "".join(parts) + "</div>"

    def _details_html(self) -> str:
        from dsagent.doors.text import usage_line

        r = self.result
        parts = ['<div class="dsagent-details">']
        caveats = list(r.alignment_caveats) + (list(r.report.caveats) if r.report is not None else [])
        if caveats:
            parts.append("<p><b>Caveats</b></p><ul>" + "".join(f"<li>{html.escape(c)}</li>" for c in dict.fromkeys(caveats)) + "</ul>")
        if r.code:
            parts.append(f"<details><summary>Code</summary><pre><code>{html.escape(r.code.rstrip())}</code></pre></details>")
        usage = usage_line(r.llm_calls, r.prompt_tokens, r.completion_tokens, r.duration_s, self.settings)
        report = f" · report <code>{html.escape(r.report_path)}</code>" if r.report_path else ""
        parts.append(f'<p style="color:#666;font-size:smaller">run {html.escape(r.run_id)} · {html.escape(r.workflow)} · '
                     f"{html.escape(r.model)} · {html.escape(usage)}{report}</p></div>")
        return "".join(parts)

    # --- Jupyter's display protocol ------------------------------------------------------------
    def _repr_html_(self) -> str:
        """One HTML block (answer, static note of figures, code, caveats): for renderers that take HTML only."""
        figures = "".join(f"<p><i>Figure: <code>{html.escape(p)}</code></i></p>" for p in self.result.figures)
        return self._answer_html() + figures + self._details_html()

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        bundle: dict[str, Any] = {"text/plain": repr(self), "text/html": self._repr_html_()}
        figures = self._plotly_figures()
        if figures:
            bundle[PLOTLY_MIME] = figures[0]
        return bundle

    def _ipython_display_(self) -> None:
        """In IPython: the answer, each figure as its own interactive output, then code and caveats."""
        from IPython.display import display

        display({"text/html": self._answer_html(), "text/plain": self.result.explanation.strip()}, raw=True)
        for fig in self._plotly_figures():
            title = ((fig.get("layout") or {}).get("title") or {}).get("text") or "figure"
            display({PLOTLY_MIME: fig, "text/plain": f"<Plotly figure: {title}>"}, raw=True)
        for image in self._images():
            from IPython.display import Image

            display(Image(filename=str(image)))
        display({"text/html": self._details_html(), "text/plain": ""}, raw=True)


def ask(question: str, *frames: Any, workflow: str | None = None, model: str | None = None, **named: Any) -> NotebookAnswer:
    """Answer ``question`` about DataFrames or files: ``ask("…", df)``, ``ask("…", sales=df1, costs=df2)``."""
    from dsagent.errors import UserError
    from dsagent.session import Session

    if not isinstance(question, str):
        raise UserError("dsagent.ask(question, df, ...): the question comes first, as a string")
    inputs: Any = dict(named) if named and not frames else [*frames, *named.values()]
    if not inputs:
        raise UserError("dsagent.ask(question, df, ...): pass at least one DataFrame or data file after the question")
    from dsagent.config import load_settings
    from dsagent.doors.models import shared_model

    settings = load_settings(model=model)
    with shared_model(settings) as chat_model, Session(inputs, settings=settings, chat_model=chat_model) as session:
        result = session.ask(question, workflow=workflow)
        return NotebookAnswer(result, session.settings)


class DsagentAccessor:
    """``df.dsagent.ask("…")``: a question about this DataFrame."""

    def __init__(self, frame: Any) -> None:
        self._frame = frame

    def ask(self, question: str, *, workflow: str | None = None, model: str | None = None) -> NotebookAnswer:
        return ask(question, self._frame, workflow=workflow, model=model)


def register_accessor() -> None:
    import warnings

    import pandas as pd

    if "dsagent" in getattr(pd.DataFrame, "_accessors", set()):
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # re-registering after a reload is fine
        pd.api.extensions.register_dataframe_accessor("dsagent")(DsagentAccessor)


def dsagent_magic(line: str, cell: str, namespace: dict[str, Any]) -> NotebookAnswer:
    """``%%dsagent df [other ...] [--workflow W] [--model M]`` then the question as the cell."""
    from dsagent.errors import UserError

    words = shlex.split(line)
    workflow = model = None
    names: list[str] = []
    while words:
        word = words.pop(0)
        if word in {"--workflow", "--model"}:
            if not words:
                raise UserError(f"%%dsagent: {word} needs a value")
            value = words.pop(0)
            workflow, model = (value, model) if word == "--workflow" else (workflow, value)
        else:
            names.append(word)
    if not names:
        raise UserError("%%dsagent needs data: `%%dsagent df` (a DataFrame variable or a file path), then the question in the cell")
    inputs = {}
    for name in names:
        value = namespace.get(name, name)  # a variable, else a file path
        inputs[name if name.isidentifier() else Path(name).stem] = value
    return ask(cell.strip(), workflow=workflow, model=model, **inputs)


def load_ipython_extension(ipython: Any) -> None:
    """``%load_ext dsagent``: the ``%%dsagent`` cell magic (and the DataFrame accessor)."""
    from dsagent.errors import DsagentError

    register_accessor()

    def magic(line: str, cell: str) -> Any:
        try:
            return dsagent_magic(line, cell, ipython.user_ns)
        except DsagentError as exc:  # one clean line, like the CLI
            print(f"dsagent: error: {exc}")
            return None

    ipython.register_magic_function(magic, magic_kind="cell", magic_name="dsagent")
