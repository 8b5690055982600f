"""report.html: one self-contained file — plotly.js once, images inlined, sortable tables, escaped."""

import base64
import json
import re
import time

from dsagent.reports.build import build_report
from dsagent.reports.html import plotly_js, render_html, write_html
from dsagent.reports.model import Report, Section

META = {"run_id": "abc123def456", "workflow": "quick", "model": "scripted:x", "created": "2025-01-02T03:04:05", "isolation": "isolation=full"}
# Anything that would make the browser fetch: a script or style sheet, a frame, an image from a URL.
REMOTE = re.compile(r"<(?:script|link|img|iframe|source|embed)\b[^>]*\b(?:src|href)\s*=\s*[\"']?(?:https?:)?//", re.I)


def quick_report(quick_output, workspace, **extra):
    return build_report("Which region sold most?", {**quick_output, **extra}, META, tables=[str(workspace / "tables" / "cell_1_result.csv")])


def test_self_contained_with_plotly_js_once(quick_output, workspace):
    figure = quick_output["figures"][0]
    report = quick_report(quick_output, workspace, figures=[figure, figure, quick_output["figures"][1]])
    started = time.perf_counter()
    path = write_html(report, workspace / "report.html")
    elapsed = time.perf_counter() - started
    text = path.read_text()
    assert not REMOTE.search(text) and "<link" not in text
    assert len(re.findall(r"<script\b[^>]*\bsrc=", text)) == 0
    assert text.count(plotly_js()[:2000]) == 1  # embedded once for two figures
    assert text.count("Plotly.newPlot(\"figure-") == 2 and 'id="figure-1"' in text and 'id="figure-2"' in text
    png = (workspace / "figures" / "cell_1_1.png").read_bytes()
    assert f'src="data:image/png;base64,{base64.b64encode(png).decode()}"' in text
    assert '<table class="sortable">' in text and '<td class="num">24</td>' in text
    assert "<pre><code class=\"language-python\">result = df.groupby(&#x27;region&#x27;)" in text
    assert "<h2>Caveats</h2>" in text and "units has 2 missing values" in text
    assert elapsed < 5  # measured properly in docs/reports.md; this only catches a pathological slowdown


def test_everything_model_written_is_escaped(tmp_path):
    attack = "<script>alert(1)</script>"
    report = Report(
        title=f"T {attack}", question=f"Q {attack}",
        sections=[
            Section(section_type="text", content=f"Hello {attack} **bold** [x](javascript:alert(1))"),
            Section(section_type="table", content=json.dumps([{attack: attack}]), description=attack),
            Section(section_type="code", content=f"print('{attack}')", description=attack),
        ],
        caveats=[attack], suggestions=[attack], meta={"run_id": attack, "datasets": {"d": {"name": attack}}},
    )
    text = render_html(report)
    # The only scripts are the sort helper's; no model-written tag survives.
    assert text.count("<script") == 1 and attack not in text
    assert "Hello &lt;script&gt;alert(1)&lt;/script&gt; <strong>bold</strong>" in text
    assert "javascript:" not in text.replace("[x](javascript:alert(1))", "")
    assert text.count("&lt;script&gt;alert(1)&lt;/script&gt;") >= 9


def test_figure_data_cannot_close_its_script(tmp_path):
    import plotly.graph_objects as go

    figure = go.Figure(go.Bar(x=["</script><script>alert(1)</script>"], y=[1], name="<!--"))
    (tmp_path / "fig.json").write_text(figure.to_json())
    text = render_html(Report(title="t", sections=[Section(section_type="plotly", content=str(tmp_path / "fig.json"))]))
    assert "</script><script>alert(1)" not in text and "\\u003c/script\\u003e" in text
    assert "<!--" not in text.split("</style>", 1)[1]


def test_no_plotly_js_without_a_figure_and_missing_files_are_said(tmp_path):
    report = Report(title="t", sections=[Section(section_type="text", content="just text"),
                                         Section(section_type="image", content=str(tmp_path / "gone.png"))])
    text = render_html(report)
    assert len(text) < 20_000 and "Plotly" not in text
    assert 'class="missing">image not found' in text


def test_a_table_that_is_not_json_is_shown_as_text():
    text = render_html(Report(title="t", sections=[Section(section_type="table", content="a,b\n1,<2>")]))
    assert "<pre><code>a,b\n1,&lt;2&gt;</code></pre>" in text
