"""benchmarks/speed.py's tables from stored rows (no model): per-node figures and the before/after
table over the questions every run answered."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import speed  # noqa: E402


def row(qid: int, seconds: float, right: bool, calls: int, evaluated: int) -> dict:
    nodes = {"code": {"calls": calls, "sent": evaluated * 2, "evaluated": evaluated, "generated": 50, "model_s": seconds - 1, "wall_s": seconds}}
    return {"id": qid, "seconds": seconds, "correct": [right], "nodes": nodes, "single_shot": {"seconds": 10.0}}


def test_the_before_after_table_uses_the_questions_both_runs_answered():
    before = [row(1, 100, True, 7, 3000), row(2, 140, False, 9, 4000), row(3, 120, True, 8, 3500)]
    after = [{**row(1, 40, True, 4, 1000), "verified": True}, row(2, 60, True, 5, 1500)]  # question 3 not run yet
    table = speed.compare([("before", before), ("after", after)])
    assert table.splitlines()[0] == "2 questions answered by every run"
    lines = {line.split()[0]: line.split() for line in table.splitlines()[3:]}
    assert lines["before"][1:4] == ["1/2", "120.0", "8.00"] and lines["before"][-3] == "12.0x"
    assert lines["after"][1:4] == ["2/2", "50.0", "4.50"] and lines["after"][4] == "1250" and lines["after"][-3] == "5.0x"
    assert lines["after"][-2:] == ["1", "(1)"]  # answers marked verified (right among them)


def test_the_report_names_where_the_time_goes():
    text = speed.report([row(1, 100, True, 7, 3000), row(2, 50, False, 3, 1000)])
    assert "ABQ 1/2" in text and "median s/q 75.0" in text and "workflow / single-shot 7.5x" in text
    assert text.splitlines()[3].split()[0] == "code"


def test_a_right_answer_of_a_failed_run_does_not_count():
    # stored before failed runs got no formatting call: its guess matched the label
    guessed = {**row(2, 50, True, 3, 1000), "output_type": "error"}
    assert "ABQ 1/2" in speed.report([row(1, 100, True, 7, 3000), guessed])
    lines = {line.split()[0]: line.split() for line in speed.compare([("run", [row(1, 100, True, 7, 3000), guessed])]).splitlines()[3:]}
    assert lines["run"][1] == "1/2"


def test_the_report_gives_the_verified_answers_precision_and_coverage():
    rows = [{**row(1, 100, True, 7, 3000), "verified": True}, {**row(2, 50, False, 3, 1000), "verified": True}, row(3, 60, True, 4, 1000)]
    assert "verified 2/3 (coverage 67%), right when verified 1/2 (precision 50%)" in speed.report(rows)


def test_a_dabench_run_without_node_figures_compares_by_its_calls():
    plain = {k: v for k, v in row(1, 100, True, 7, 3000).items() if k not in ("nodes", "single_shot")}
    lines = {line.split()[0]: line.split() for line in speed.compare([("plain", [{**plain, "llm_calls": 3}])]).splitlines()[3:]}
    assert lines["plain"][1:4] == ["1/1", "100.0", "3.00"]
