"""Session.ask builds the Report, keeps it on the result and writes report.md + report.html per turn."""

from pathlib import Path

from dsagent.session import Session

PLAN = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "group"}


def test_each_turn_has_its_report(script_file, sales_csv):
    spec = script_file([PLAN, "result = df.groupby('region')['units'].sum()", "By region.",
                        PLAN, "result = int(df['units'].max())", "The maximum."])
    with Session([sales_csv], model=spec) as session:
        first = session.ask("Units per region?")
        second = session.ask("And the maximum?")
    assert first.report is not None and first.report.meta["follow_up"] is False
    table = next(s for s in first.report.sections if s.section_type == "table")
    assert table.table()[0] == ["region", "units"] and table.description == "cell_1_result.csv: 4 rows"
    assert Path(first.report_path).name == "report.md" and Path(first.report_path).with_suffix(".html").exists()
    assert second.report.meta["follow_up"] is True
    assert Path(second.report_path).name == f"report_{second.run_id}.md"
    assert Path(second.report_path).with_suffix(".html").exists()
    assert "```text\n" + second.result_str in Path(second.report_path).read_text()
