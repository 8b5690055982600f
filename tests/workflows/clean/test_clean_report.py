"""The clean report says what the loader read differently from the file's text before the steps."""

from __future__ import annotations

from dsagent.workflows.clean.report import build, loader_reads


def test_the_loaders_own_reading_is_named_before_the_steps():
    options = {"numbers_from_text": {"votes": "4,749"}, "missing_marks": {"rate": ".."}}
    said = loader_reads(options)
    assert "'votes' written like '4,749' read as numbers" in said and "'..' read as missing in 'rate'" in said
    assert loader_reads({"delimiter": ","}) == ""
    comparison = {"rows_raw": 3, "rows_cleaned": 3, "columns_raw": ["votes"], "columns_cleaned": ["votes"], "columns_dropped": [],
                  "types": {}, "missing": {}, "changed": {}}
    state = {"plan": {"d1": []}, "data_cleaned": {"d1": {"comparison": comparison, "csv": "c.csv", "parquet": "c.parquet"}}}
    report = build(state, {"d1": "votes.csv"}, {"datasets": {"d1": {"read_options": options}}})
    assert "Read by the loader before the steps" in report.sections[0].content
    plain = build(state, {"d1": "votes.csv"}, {"datasets": {"d1": {"read_options": {}}}})
    assert "Read by the loader" not in plain.sections[0].content
