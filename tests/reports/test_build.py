"""build_report: a workflow's final_output package (or its own report) becomes one Report."""

import json

import pandas as pd
import pytest

from dsagent.data import load_datasets
from dsagent.reports.build import TABLE_ROWS, build_report, dataset_meta, report_for_run
from dsagent.reports.model import Report, Section

META = {"run_id": "abc123def456", "workflow": "quick", "model": "scripted:x", "created": "2025-01-02T03:04:05", "isolation": None}


def kinds(report: Report) -> list[str]:
    return [s.section_type for s in report.sections]


def test_quick_output_sections_in_order(quick_output, workspace):
    tables = [str(workspace / "tables" / "cell_1_result.csv")]
    report = build_report("Which region sold most?\nUse units.", quick_output, META, tables=tables)
    assert report.title == "Which region sold most?"
    assert report.question == "Which region sold most?\nUse units."
    assert kinds(report) == ["text", "text", "table", "plotly", "image", "text", "code", "text"]
    answer, result_heading, table, plotly, image, evaluation, code, failed = report.sections
    assert answer.content == "## Answer\n\nEast sold the most units (24)."
    assert result_heading.content == "## Result"
    assert table.table() == (["region", "units"], [["North", 22], ["South", 17], ["East", 24]])
    assert plotly.content.endswith("cell_1.json") and plotly.description == "Units by region"  # tags stripped
    assert image.content.endswith(".png") and image.description == "Figure 2"
    assert evaluation.content == "## Evaluation\n\nThe sums match the data."
    assert code.content == quick_output["code"] and "(attempt 2)" in code.description
    assert failed.content.startswith("## Failed attempts (1)") and "`KeyError: 'Units'`" in failed.content
    assert report.caveats == ["units has 2 missing values"]
    assert report.suggestions == []
    assert report.meta["run_id"] == "abc123def456" and "isolation" not in report.meta  # None is dropped
    assert report.code() == [quick_output["code"]]


def test_result_text_when_there_is_no_table(quick_output):
    report = build_report("q", {**quick_output, "figures": [], "result_str": "```odd```\n42"}, META)
    assert kinds(report)[:2] == ["text", "text"]
    result = report.sections[1].content
    assert result.startswith("## Result\n\n````text\n") and "```odd```\n42" in result  # a longer fence


def test_error_output_says_what_went_wrong():
    out = {"explanation": "Code execution failed after 3 attempts.", "output_type": "error", "error": "ValueError: three",
           "code": "raise ValueError('three')", "figures": [], "result_str": None,
           "failed_attempts": [{"attempt": n, "error": f"ValueError: {n}"} for n in (1, 2, 3)]}
    report = build_report("Do it", out, META)
    texts = [s.content for s in report.sections if s.section_type == "text"]
    assert texts[0].startswith("## What went wrong") and texts[1] == "## Error\n\n```text\nValueError: three\n```"
    assert report.sections[2].description == "The code that failed last"
    assert texts[-1].startswith("## Failed attempts (3)")


def test_robust_evaluation_dict():
    evaluation = {"is_valid": True, "confidence": 0.9, "recommendation": "accept", "issues_found": ["small sample"], "reasoning": "Fine."}
    report = build_report("q", {"explanation": "x", "evaluation": evaluation, "output_type": "analysis"}, META)
    text = report.sections[-1].content
    assert text.startswith("## Evaluation") and "Valid: True · confidence 0.9 · accept" in text and "- small sample" in text and "Fine." in text


def test_robust_cross_check_is_shown_as_text_not_rerun():
    check = {"code": "result = df['a'].mean()", "result_str": "2.5", "error": None,
             "second": {"code": "result = df['b'].mean()", "result_str": None, "error": "Traceback …\nKeyError: 'b'"}}
    out = {"explanation": "x", "output_type": "analysis", "code": "result = df.a.mean()", "result_str": "2.5", "cross_check": check}
    report = build_report("q", out, META)
    text = next(s.content for s in report.sections if s.content.startswith("## Cross-check"))
    assert "**Computation 1** result:\n\n```text\n2.5\n```" in text and "result = df['a'].mean()" in text
    assert "**Computation 2** failed: `KeyError: 'b'`" in text
    assert report.code() == ["result = df.a.mean()\n"]  # the notebook re-runs node 4's code only
    assert "Cross-check" not in "".join(s.content for s in build_report("q", {**out, "cross_check": None}, META).sections)


def test_a_workflows_own_report_is_used_and_gets_meta():
    own = {"title": "Sales", "sections": [{"section_type": "text", "content": "Hi"}], "suggestions": ["Look at Q2"], "meta": {"loops": 2}}
    report = build_report("the question", {"explanation": "ignored", "report": own}, META)
    assert report.title == "Sales" and report.sections == [Section(section_type="text", content="Hi")]
    assert report.suggestions == ["Look at Q2"] and report.question == "the question"
    assert report.meta["loops"] == 2 and report.meta["run_id"] == META["run_id"]


def test_an_invalid_own_report_is_rebuilt_with_a_caveat():
    own = {"title": "Sales", "sections": [{"section_type": "video", "content": "x"}]}
    report = build_report("q", {"explanation": "fallback answer", "report": own}, META)
    assert "fallback answer" in report.sections[0].content
    assert any("own report was invalid" in c for c in report.caveats)


def test_a_large_result_table_is_capped(tmp_path):
    path = tmp_path / "cell_1_result.csv"
    pd.DataFrame({"x": range(1000)}).to_csv(path)  # the sandbox writes the index too
    report = build_report("q", {"explanation": "x"}, META, tables=[str(path)])
    table = report.sections[2]
    columns, rows = table.table()
    assert columns == ["x"] and len(rows) == TABLE_ROWS  # a plain 0..n-1 index is dropped
    assert table.description == f"cell_1_result.csv: 1,000 rows, the first {TABLE_ROWS} shown"


def test_section_table_orients():
    records = Section(section_type="table", content='[{"a": 1, "b": "x"}, {"a": 2}]')
    assert records.table() == (["a", "b"], [[1, "x"], [2, None]])
    columns = Section(section_type="table", content=pd.DataFrame({"a": [1, 2]}).to_json())
    assert columns.table() == (["a"], [[1], [2]])
    split = Section(section_type="table", content=pd.DataFrame({"a": [1, 2]}).to_json(orient="split"))
    assert split.table() == (["a"], [[1], [2]])
    with pytest.raises(ValueError):
        Section(section_type="table", content="not json").table()


def test_dataset_meta_keeps_absolute_paths_and_read_options(sales_csv, monkeypatch):
    monkeypatch.chdir(sales_csv.parent)
    meta = dataset_meta(load_datasets(["sales.csv", pd.DataFrame({"a": [1]})]))
    assert meta["sales"]["path"] == str(sales_csv.resolve()) and meta["sales"]["read_options"]["delimiter"] == ","
    assert meta["df"] == {"name": "df", "path": None, "sheet": None, "read_options": {}}


def test_report_for_an_old_run_is_rebuilt_from_its_final_output():
    run = {"id": "0123456789ab", "question": "Total units?", "workflow": "quick", "model": "local", "created_at": "2025-01-01T10:00:00.000+00:00",
           "isolation": "rlimits", "workspace": "/nowhere", "status": "ok", "datasets": json.dumps(["Sales 2024.csv", "book.xlsx[Sheet 1]"]),
           "final_output": json.dumps({"explanation": "There are 42.", "code": "result = 42", "result_str": "42", "report": None})}
    report = report_for_run(run)
    assert report.title == "Total units?" and "There are 42." in report.sections[0].content
    assert report.code() == ["result = 42\n"]
    assert report.meta["run_id"] == "0123456789ab" and report.meta["created"] == "2025-01-01T10:00:00"
    assert list(report.meta["datasets"]) == ["sales_2024", "book_sheet_1"]
    assert all(d["path"] is None for d in report.meta["datasets"].values())


def test_report_for_a_new_run_is_the_stored_one():
    stored = Report(title="T", sections=[Section(section_type="text", content="x")], meta={"created": "local time", "run_id": "r1"})
    run = {"id": "r1", "question": "q", "created_at": "utc", "final_output": json.dumps({"report": stored.model_dump()})}
    report = report_for_run(run)
    assert report.sections == stored.sections and report.meta["created"] == "local time"


def test_report_for_a_crashed_run():
    report = report_for_run({"id": "r2", "question": "q", "status": "failed", "error": "ProviderError: down", "final_output": None})
    assert "did not finish (failed)" in report.sections[0].content and "ProviderError: down" in report.sections[1].content


def test_a_plotly_json_filed_as_an_image_is_a_plotly_section():
    # Seed 001's section types have no plotly: a workflow's own report may call its chart an image.
    own = {"title": "t", "sections": [{"section_type": "image", "content": "figures/cell_1.json"},
                                      {"section_type": "image", "content": "figures/cell_2_1.png"}]}
    report = build_report("q", {"report": own}, META)
    assert kinds(report) == ["plotly", "image"]


def test_a_failed_attempt_is_summarised_by_its_exception_line_not_the_hint_after_it(quick_output):
    error = "Traceback (most recent call last):\n  File \"<cell 1>\", line 1\nKeyError: 'Units'\nHint: Columns of df are: 'units'"
    out = {**quick_output, "failed_attempts": [{"attempt": 1, "code": "x", "error": error}]}
    failed = build_report("Which region sold most?", out, META).sections[-1]
    assert "`KeyError: 'Units'`" in failed.content and "Hint" not in failed.content
