"""report.md: readable on its own, figures as links relative to the report's folder."""

import json
from pathlib import Path

from dsagent.reports.build import build_report
from dsagent.reports.markdown import TABLE_ROWS, render_markdown, write_markdown
from dsagent.reports.model import Report, Section

META = {"run_id": "abc123def456", "workflow": "quick", "model": "scripted:x", "created": "2025-01-02T03:04:05", "isolation": "isolation=full"}


def test_quick_report_as_markdown(quick_output, workspace):
    report = build_report("Which region sold most?", quick_output, META, tables=[str(workspace / "tables" / "cell_1_result.csv")])
    path = write_markdown(report, workspace / "report.md")
    text = path.read_text()
    assert text.startswith("# Which region sold most?\n\n*Run abc123def456 · workflow quick · model scripted:x · 2025-01-02T03:04:05*")
    order = ["## Answer", "East sold the most", "## Result", "| region | units |", "| North | 22 |",
             "Interactive figure — *Units by region*: [figures/cell_1.json](figures/cell_1.json)",
             "![Figure 2](figures/cell_1_1.png)", "## Evaluation", "*The code that produced the result (attempt 2)*",
             "```python\nresult = df.groupby('region')['units'].sum()", "## Failed attempts (1)", "## Caveats",
             "- units has 2 missing values", "Sandbox: isolation=full"]
    positions = [text.index(piece) for piece in order]
    assert positions == sorted(positions)


def test_links_are_relative_to_where_the_file_is_written(quick_output, workspace, tmp_path):
    report = build_report("q", quick_output, META)
    text = render_markdown(report, tmp_path / "elsewhere")
    assert "](../ws/figures/cell_1_1.png)" in text


def test_relative_section_paths_resolve_against_the_workspace(tmp_path):
    report = Report(title="t", sections=[Section(section_type="image", content="figures/my plot.png")], meta={"workspace": str(tmp_path / "ws")})
    assert "![figure](<figures/my plot.png>)" in render_markdown(report, tmp_path / "ws")


def test_tables_escape_pipes_and_are_capped():
    rows = [{"a": f"x|{i}", "b": "line\nbreak"} for i in range(TABLE_ROWS + 5)]
    report = Report(title="t", sections=[Section(section_type="table", content=json.dumps(rows), description="Rows")],
                    suggestions=["Try a log scale"])
    text = render_markdown(report, Path("."))
    assert "*Rows*\n\n| a | b |\n|---|---|\n| x\\|0 | line break |" in text
    assert text.count("| x\\|") == TABLE_ROWS and "*… 5 more rows in report.html*" in text
    assert "## Suggestions\n\n- Try a log scale" in text


def test_code_with_fences_inside_gets_a_longer_fence():
    report = Report(title="t", sections=[Section(section_type="code", content='s = """\n```\n"""\n')])
    assert '````python\ns = """\n```\n"""\n````' in render_markdown(report, Path("."))
