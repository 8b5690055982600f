"""``report.html``: one self-contained file that works offline.

plotly.js is embedded once (from the installed plotly package) when the report has a Plotly
figure, and each figure is an interactive div; PNG images are inlined as base64; tables are
sortable (a few lines of inline JS); text sections are Markdown rendered with raw HTML escaped.
Nothing is fetched from the network when the file is opened.
"""

from __future__ import annotations

import base64
import html
import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from dsagent.reports.model import Report, Section, meta_line
from dsagent.atomic import write_atomic

_IMAGE_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".svg": "image/svg+xml", ".webp": "image/webp"}

_CSS = """
:root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--soft:#f6f8fa;--accent:#0969da;--warn:#fff8c5;--warnline:#d4a72c}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:980px;margin:0 auto;padding:2rem 1.25rem 4rem}
h1{font-size:1.7rem;line-height:1.25;margin:0 0 .3rem}
h2{font-size:1.25rem;margin:2rem 0 .6rem;padding-bottom:.25rem;border-bottom:1px solid var(--line)}
.byline,.caption,footer{color:var(--muted);font-size:.9rem}
.question{background:var(--soft);border-left:4px solid var(--accent);padding:.6rem 1rem;margin:1rem 0;white-space:pre-wrap}
pre{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:.8rem 1rem;overflow:auto;font-size:.85rem;line-height:1.45}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
:not(pre)>code{background:var(--soft);padding:.1rem .3rem;border-radius:4px;font-size:.88em}
figure{margin:1.2rem 0}
figure img{max-width:100%;height:auto;border:1px solid var(--line);border-radius:6px}
.plotly-figure{width:100%;min-height:420px}
.table-wrap{overflow:auto;max-height:36rem;border:1px solid var(--line);border-radius:6px;margin:.4rem 0 1rem}
table{border-collapse:collapse;font-size:.88rem;width:max-content;min-width:40%}
th,td{padding:.35rem .7rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{background:var(--soft);position:sticky;top:0}
table.sortable th{cursor:pointer;user-select:none}
th[aria-sort=ascending]::after{content:" \\25B2"}th[aria-sort=descending]::after{content:" \\25BC"}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.caveats{background:var(--warn);border:1px solid var(--warnline);border-radius:6px;padding:.4rem 1rem}
.missing{color:#b3261e}
"""

# Click a header to sort by that column; numbers compare as numbers. No library, no network.
_SORT_JS = """
document.querySelectorAll("table.sortable").forEach(function(t){
  t.querySelectorAll("th").forEach(function(th,i){
    th.addEventListener("click",function(){
      var asc=th.getAttribute("aria-sort")!=="ascending",body=t.tBodies[0];
      t.querySelectorAll("th").forEach(function(h){h.removeAttribute("aria-sort")});
      th.setAttribute("aria-sort",asc?"ascending":"descending");
      var rows=Array.prototype.slice.call(body.rows);
      rows.sort(function(a,b){
        var x=a.cells[i].textContent,y=b.cells[i].textContent,nx=parseFloat(x),ny=parseFloat(y);
        var c=(!isNaN(nx)&&!isNaN(ny)&&isFinite(x)&&isFinite(y))?nx-ny:x.localeCompare(y,undefined,{numeric:true});
        return asc?c:-c;
      });
      rows.forEach(function(r){body.appendChild(r)});
    });
  });
});
"""


@lru_cache(maxsize=1)
def plotly_js() -> str:
    """plotly.min.js from the installed plotly package (the version that wrote the figures)."""
    from importlib.resources import files

    try:
        return files("plotly").joinpath("package_data", "plotly.min.js").read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):  # an unusual plotly install: ask plotly itself
        from plotly.offline import get_plotlyjs

        return get_plotlyjs()


@lru_cache(maxsize=1)
def _markdown() -> Any:
    from markdown_it import MarkdownIt

    # html=False: raw HTML in model-written text is shown as text, never run.
    return MarkdownIt("commonmark", {"html": False}).enable("table").enable("strikethrough")


def _script_json(value: Any) -> str:
    """JSON that is safe inside <script>: no "</script>", "<!--" or "&" can end or bend it."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _esc(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _caption(section: Section) -> str:
    return f'<p class="caption">{_esc(section.description)}</p>' if section.description else ""


def _missing(what: str, path: Path) -> str:
    return f'<p class="missing">{_esc(what)} not found: <code>{_esc(path)}</code></p>'


def _image(report: Report, section: Section) -> str:
    path = report.resolve(section.content)
    mime = _IMAGE_TYPES.get(path.suffix.lower())
    try:
        data = base64.b64encode(report.read_file(section.content)).decode("ascii")
    except OSError:
        return _missing("image", path)
    if mime is None:
        return _missing("image of a known type", path)
    alt = _esc(section.description or path.name)
    caption = f"<figcaption class=\"caption\">{_esc(section.description)}</figcaption>" if section.description else ""
    return f'<figure><img alt="{alt}" src="data:{mime};base64,{data}">{caption}</figure>'


def _plotly(report: Report, section: Section, n: int) -> str:
    path = report.resolve(section.content)
    try:
        figure = json.loads(report.read_file(section.content).decode("utf-8"))
    except (OSError, ValueError):
        return _missing("Plotly figure", path)
    if not isinstance(figure, dict):
        return _missing("Plotly figure (a JSON object with data and layout)", path)
    payload = {"data": figure.get("data", []), "layout": figure.get("layout", {})}
    caption = f"<figcaption class=\"caption\">{_esc(section.description)}</figcaption>" if section.description else ""
    return (
        f'<figure><div class="plotly-figure" id="figure-{n}"></div>{caption}</figure>\n'
        f'<script>(function(f){{Plotly.newPlot("figure-{n}",f.data,f.layout,{{responsive:true,displaylogo:false}});}})({_script_json(payload)});</script>'
    )


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _table(section: Section) -> str:
    try:
        columns, rows = section.table()
    except ValueError:
        return _caption(section) + f"<pre><code>{_esc(section.content)}</code></pre>"
    head = "".join(f'<th scope="col">{_esc(c)}</th>' for c in columns)
    body = "\n".join(
        "<tr>" + "".join(f'<td class="num">{_esc(v)}</td>' if _is_number(v) else f"<td>{_esc(v)}</td>" for v in row) + "</tr>"
        for row in rows
    )
    return f'{_caption(section)}<div class="table-wrap"><table class="sortable"><thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody></table></div>'


def render_html(report: Report) -> str:
    """The whole report as one HTML document."""
    parts: list[str] = []
    figures = 0
    for section in report.sections:
        kind = section.section_type
        if kind == "text":
            parts.append(_markdown().render(section.content))
        elif kind == "code":
            parts.append(_caption(section) + f'<pre><code class="language-python">{_esc(section.content.rstrip())}</code></pre>')
        elif kind == "table":
            parts.append(_table(section))
        elif kind == "image":
            parts.append(_image(report, section))
        elif kind == "plotly":
            figures += 1
            parts.append(_plotly(report, section, figures))
    if report.caveats:
        parts.append('<h2>Caveats</h2><div class="caveats"><ul>' + "".join(f"<li>{_esc(c)}</li>" for c in report.caveats) + "</ul></div>")
    if report.suggestions:
        parts.append("<h2>Suggestions</h2><ul>" + "".join(f"<li>{_esc(s)}</li>" for s in report.suggestions) + "</ul>")
    for name, notes in (report.meta.get("column_notes") or {}).items():
        parts.append(f"<h2>Column notes — {_esc(name)}</h2><ul>" + "".join(f"<li>{_esc(line.removeprefix('- '))}</li>" for line in notes.splitlines()) + "</ul>")
    head_script = f"<script>{plotly_js()}</script>" if figures else ""
    question = ""
    if report.question and report.question.strip() != report.title.strip():
        question = f'<div class="question">{_esc(report.question.strip())}</div>'
    byline = meta_line(report)
    footer = [f"Model: {_esc(report.meta['usage'])}"] if report.meta.get("usage") else []
    footer += [f"Sandbox: {_esc(report.meta['isolation'])}"] if report.meta.get("isolation") else []
    datasets = report.meta.get("datasets") or {}
    if datasets:
        footer.append("Data: " + ", ".join(f"<code>{_esc(ds_id)}</code> ({_esc(d.get('name'))})" for ds_id, d in datasets.items()))
    footer.append("Made by dsagent.")
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta name="generator" content="dsagent"><title>{_esc(report.title)}</title>',
        f"<style>{_CSS}</style>",
        head_script,
        "</head><body><main>",
        f"<h1>{_esc(report.title)}</h1>",
        f'<p class="byline">{_esc(byline)}</p>' if byline else "",
        question,
        *parts,
        "<footer><hr>" + "<br>".join(footer) + "</footer>",
        f"</main><script>{_SORT_JS}</script></body></html>",
        "",
    ])


def write_html(report: Report, path: Path) -> Path:
    return write_atomic(path, render_html(report))
