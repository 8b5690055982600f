"""A report's text sections grounded together (common/grounded.ground_parts): each checked against
the same outputs and mended by code, one merged record, one grounding row in the run log."""

from types import SimpleNamespace

from dsagent.workflows.common.grounded import ground_in_run, ground_parts


def make_ctx():
    rows: list[tuple[str, str]] = []
    run_log = SimpleNamespace(start_step=lambda run_id, node: node,
                              finish_step=lambda step_id, outcome, seconds, detail: rows.append((outcome, detail)))
    return SimpleNamespace(datasets={}, run_log=run_log, run_id="r1"), rows


def test_sections_are_checked_one_by_one_and_the_record_merged():
    ctx, rows = make_ctx()
    outputs = {"result": ["42.5"], "stdout": [""]}
    texts = ["The mean is 42.5.", "The mean is 42.5, and the median is 17.3."]
    mended, grounded = ground_parts(ctx, texts, outputs, "What is the mean?")
    assert mended[0] == texts[0] and "17.3" not in mended[1] and "42.5" in mended[1]
    record = grounded.record()
    assert record["claims_checked"] == 3 and record["caught"] == 1 and record["ungrounded_caught"] == ["17.3"]
    assert record["ungrounded_left"] == [] and record["actions"]
    assert len(rows) == 1 and "17.3" in rows[0][1]  # one grounding row for the whole report


def test_nothing_caught_writes_no_row_and_one_text_grounds_as_before():
    ctx, rows = make_ctx()
    _, grounded = ground_parts(ctx, ["It is 42.5."], {"result": ["42.5"]}, "What is it?")
    assert grounded.record()["caught"] == 0 and rows == []
    assert ground_in_run(ctx, "It is 42.5.", {"result": ["42.5"]}, "What is it?").text == "It is 42.5."
