"""``report.ipynb``: a Jupyter notebook whose cells re-run the analysis on the same files.

The setup cells rebuild the sandbox's namespace: the libraries the code uses under the sandbox's
names (``pd``, ``np``, ``px`` …), ``datasets`` keyed by the same ids and ``df`` when there is one
dataset. The files are re-read with :func:`dsagent.data.load_datasets`, the loader the sandbox's
frames came from, so encoding and delimiter sniffing, Excel sheets and JSON unwrapping give the same
frames as in the run; a comment beside each file shows the plain-pandas call for use without
dsagent. Text sections become Markdown cells and code sections code cells, in report order; tables
and figures are not copied in, since running the code makes them again.
"""

from __future__ import annotations

import re
from typing import Any

from dsagent.reports.model import Report, meta_line
from dsagent.sandbox.aliases import BOUND, EAGER, import_line

# The worker's pre-bound names: alias → import statement.
_IMPORT_LINES = {alias: import_line(alias) for alias in BOUND}
_TRIM = ".rename(columns=str.strip)"
_STRIP = r"[,%\s]"
_SPACED = r"^\s*{}\s*$"
"""A missing mark with the spaces the loader strips around it."""


def imports_for(code: str) -> list[str]:
    """The import lines for the sandbox names ``code`` uses (pandas and numpy always)."""
    return [line for alias, line in _IMPORT_LINES.items() if alias in EAGER or re.search(rf"\b{alias}\b", code)]


def _plain_pandas(path: str, sheet: str | None, options: dict[str, Any]) -> str:
    trim = _TRIM if options.get("trimmed_names") else ""
    numbers = list(options.get("numbers_from_text") or ())
    marks = options.get("missing_marks") or {}
    if marks:  # the loader read ".." as missing
        pairs = ", ".join(f"{name!r}: {_SPACED.format(re.escape(mark))!r}" for name, mark in marks.items())
        trim += f".replace({{{pairs}}}, float('nan'), regex=True)"  # the loader strips spaces around the mark
    if numbers:  # the loader read "4,749" and "57.3 %" as numbers: strip the separators and signs
        strip = ", ".join(f"{name!r}: {_STRIP!r}" for name in numbers)
        trim += f".replace({{{strip}}}, '', regex=True)"
    floats = numbers + [name for name in marks if name not in numbers]
    if floats:
        trim += f".astype({{{', '.join(f'{n!r}: float' for n in floats)}}})"
    return _plain_reader(path, sheet, options) + trim


def _plain_reader(path: str, sheet: str | None, options: dict[str, Any]) -> str:
    suffix = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if suffix in ("xlsx", "xlsm"):
        return f"pd.read_excel({path!r}, sheet_name={sheet!r})"
    if suffix in ("parquet", "pq"):
        return f"pd.read_parquet({path!r})"
    if suffix in ("jsonl", "ndjson") or options.get("format") == "jsonl":
        return f"pd.read_json({path!r}, lines=True)"
    if suffix == "json":
        return f"pd.read_json({path!r})"
    sep, encoding = options.get("delimiter", ","), options.get("encoding", "utf-8")
    skip = f", skiprows={options['skiprows']}" if options.get("skiprows") else ""
    return f"pd.read_csv({path!r}, sep={sep!r}, encoding={encoding!r}{skip})"


def data_cell(datasets: dict[str, dict[str, Any]]) -> str:
    """Code that binds ``datasets`` (and ``df``) to the same frames the sandbox held."""
    files = {ds_id: d for ds_id, d in datasets.items() if d.get("path")}
    unbound = [ds_id for ds_id in datasets if ds_id not in files]
    lines = ["# dsagent's own loader: the same sniffing and sheet handling as in the run, so the same frames."]
    if files:
        lines += ["from dsagent.data import load_datasets", "", "FILES = {"]
        for ds_id, d in files.items():
            lines.append(f"    {ds_id!r}: ({d['path']!r}, {d.get('sheet')!r}),  # or {_plain_pandas(d['path'], d.get('sheet'), d.get('read_options') or {})}")
        lines += [
            "}",
            "_loaded = {}",
            "datasets = {}",
            "for ds_id, (path, sheet) in FILES.items():",
            "    if path not in _loaded:",
            "        _loaded[path] = list(load_datasets([path]).values())",
            "    datasets[ds_id] = next(d.frame for d in _loaded[path] if d.sheet == sheet)",
        ]
    else:
        lines.append("datasets = {}")
    for ds_id in unbound:
        lines.append(f"# datasets[{ds_id!r}] = ...  # no file was recorded for {datasets[ds_id].get('name')!r}: bind the DataFrame here")
    if len(datasets) == 1:
        only = next(iter(datasets))
        lines.append(f"df = datasets[{only!r}]" if only in files else f"# df = datasets[{only!r}]  # once it is bound above")
    return "\n".join(lines)


def _intro(report: Report) -> str:
    out = [f"# {report.title}"]
    byline = meta_line(report)
    if byline:
        out.append(f"*{byline}*")
    if report.question:
        out.append(f"**Question:** {report.question.strip()}")
    out.append("This notebook was written by dsagent from the run above: run all cells to repeat the analysis on the same files.")
    return "\n\n".join(out)


def _data_note(report: Report) -> str | None:
    datasets = report.meta.get("datasets") or {}
    notes = []
    unbound = [ds_id for ds_id, d in datasets.items() if not d.get("path")]
    if unbound:
        names = ", ".join(f"`{ds_id}`" for ds_id in unbound)
        notes.append(f"No file path was recorded for {names} (a DataFrame passed in memory, or a run logged before "
                     "reports kept paths): bind each one in the next cell before running the analysis.")
    if report.meta.get("follow_up"):
        notes.append("This question was a follow-up in a session: its code may use variables that earlier questions' "
                     f"code defined (every executed cell is in `{report.meta.get('workspace', 'the workspace')}/cells/`).")
    return "\n\n".join(notes) or None


def _is_heading_only(text: str) -> bool:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return len(lines) == 1 and lines[0].lstrip().startswith("#")


def build_notebook(report: Report) -> Any:
    """The report as an ``nbformat`` v4 notebook (validated)."""
    import nbformat
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

    code = report.code()
    cells = [new_markdown_cell(_intro(report))]
    note = _data_note(report)
    if note:
        cells.append(new_markdown_cell(note))
    cells.append(new_code_cell("# The names the sandbox pre-binds for generated code.\n" + "\n".join(imports_for("\n".join(code)))))
    cells.append(new_code_cell(data_cell(report.meta.get("datasets") or {})))
    remaining = len(code)
    for section in report.sections:
        if section.section_type == "text" and not _is_heading_only(section.content):
            cells.append(new_markdown_cell(section.content))
        elif section.section_type == "code":
            if section.description:
                cells.append(new_markdown_cell(f"*{section.description}*"))
            cells.append(new_code_cell(section.content.rstrip()))
            remaining -= 1
            if remaining == 0:  # show what the sandbox captured: `result`, then `fig`
                joined = "\n".join(code)
                cells += [new_code_cell(name) for name in ("result", "fig") if re.search(rf"^\s*{name}\s*=", joined, re.M)]
    tail = []
    if report.caveats:
        tail += ["## Caveats", "", *[f"- {c}" for c in report.caveats], ""]
    if report.suggestions:
        tail += ["## Suggestions", "", *[f"- {s}" for s in report.suggestions]]
    if tail:
        cells.append(new_markdown_cell("\n".join(tail).strip()))
    meta = report.meta
    notebook = new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
        "dsagent": {k: meta.get(k) for k in ("run_id", "workflow", "model", "created") if meta.get(k)},
    })
    nbformat.validate(notebook)
    return notebook


def render_notebook(report: Report) -> str:
    import nbformat

    return nbformat.writes(build_notebook(report))
