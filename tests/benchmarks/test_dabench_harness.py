"""The DABench harness end to end on a two-question folder in the benchmark's format, with the
scripted model and a real sandbox: official scoring, computed answers, and one reply to a workflow
that asks (the benchmark has nobody to answer)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import dabench  # noqa: E402


def reason(action: str, **fields: str) -> dict:
    return {"rationale": action, "next_action": action, **fields}


@pytest.fixture
def bench(tmp_path: Path, sales_csv: Path) -> Path:
    folder = tmp_path / "bench"
    (folder / "tables").mkdir(parents=True)
    (folder / "tables" / "sales.csv").write_text(sales_csv.read_text())
    total = int(pd.read_csv(sales_csv)["units"].sum())
    questions = [{"id": 1, "question": "How many units were sold in total?", "constraints": "Sum the units column.",
                  "format": "@total_units[n] where n is an integer.", "file_name": "sales.csv", "level": "easy"}]
    labels = [{"id": 1, "common_answers": [["total_units", str(total)]]}]
    (folder / "questions.jsonl").write_text("\n".join(map(json.dumps, questions)) + "\n")
    (folder / "labels.jsonl").write_text("\n".join(map(json.dumps, labels)) + "\n")
    return folder


def args_for(spec: str, workflow: str, tmp_path: Path) -> argparse.Namespace:
    return argparse.Namespace(model=spec, workflow=workflow, workspace=tmp_path / "ws")


def test_a_question_the_workflow_asks_gets_one_reply_and_both_turns_count(bench, script_file, tmp_path):
    spec = script_file([
        reason("ask", question="Do you mean units or revenue?"),
        reason("act", instruction="Sum the units column"),
        "result = {'total_units': int(df['units'].sum())}",
        reason("finalize"),
        {"title": "Total", "sections": [{"section_type": "text", "content": "The total is in the result."}], "suggestions": []},
    ])
    q = dabench.load_questions(bench)[0]
    row = dabench.run_one(q, bench, args_for(spec, "react", tmp_path))
    assert "error" not in row, row.get("error")
    assert row["asked"] is True and row["output_type"] == "report"
    assert row["llm_calls"] == 5  # the ask turn's call counts too
    assert row["correct"] == [True]  # the code's own number, in the @name[value] form


def test_a_wrong_number_scores_false(bench, script_file, tmp_path):
    spec = script_file([
        {"needs_code": True, "needs_evaluation": True, "needs_explanation": True, "reasoning": "sum"},
        "result = {'total_units': int(df['units'].sum()) + 1}",
        "Plausible.",
        "The total is in the result.",
    ])
    q = dabench.load_questions(bench)[0]
    row = dabench.run_one(q, bench, args_for(spec, "quick", tmp_path))
    assert "error" not in row, row.get("error")
    assert row["asked"] is False and row["correct"] == [False]


def test_rescore_applies_the_current_rules_to_a_stored_row(bench):
    q = dabench.load_questions(bench)[0]
    total = q["labels"][0][1]
    row = {"id": 1, "response": "The total is @total_units[1].", "result_str": f"{{'total_units': {total}}}", "correct": [False]}
    assert dabench.rescore(row, q)["correct"] == [True]
    assert dabench.rescore({**row, "result_str": ""}, q)["correct"] == [False]


def test_a_run_whose_code_failed_gets_no_formatting_call_and_scores_false(bench, script_file, tmp_path):
    # every code attempt fails; the script holds no reply for a formatting call: one would fail the run
    plan = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "sum"}
    spec = script_file([plan, "result = df['nope'].sum()", "result = df['nope'].sum() + 0", "result = df['nope'].sum() * 1"])
    q = dabench.load_questions(bench)[0]
    row = dabench.run_one(q, bench, args_for(spec, "quick", tmp_path))
    assert "error" not in row, row.get("error")
    assert row["output_type"] == "error" and row["llm_calls"] == 4 and row["correct"] == [False]
    # a row stored with a formatting call's guess is scored again as wrong
    total = q["labels"][0][1]
    stored = {"id": 1, "output_type": "error", "response": f"Code execution failed.\n@total_units[{total}]", "result_str": ""}
    assert dabench.score_question(stored["response"], q["labels"]) == [True]
    assert dabench.rescore(stored, q)["correct"] == [False]


def test_compare_scores_the_common_questions_and_lists_the_differences(tmp_path, capsys):
    import dabench_compare

    def row(i, correct, seconds):
        # robust's id 1 failed to compute and was right from its explanation
        failed = seconds == 50
        return {"id": i, "response": "x", "correct": correct, "seconds": seconds, "llm_calls": 5, "prompt_tokens": 100,
                "result_str": "" if failed else "1", "output_type": "error" if failed else "analysis"}

    a, b = tmp_path / "quick.jsonl", tmp_path / "robust.jsonl"
    a.write_text("\n".join(json.dumps(r) for r in [row(1, [True], 10), row(2, [False, True], 20), row(3, [True], 30)]))
    b.write_text("\n".join(json.dumps(r) for r in [row(1, [True], 50), row(2, [True, True], 70)]))
    assert dabench_compare.main([str(a), str(b), "--as-stored"]) == 0
    out = capsys.readouterr().out
    quick, robust = (line for line in out.splitlines() if line.startswith(("quick", "robust")))
    assert "50.0% (1/2)" in quick and "75.0%" in quick and " 15 " in quick  # id 3 is not in both
    assert "100.0% (2/2)" in robust and " 60 " in robust
    assert quick.rstrip().endswith(" 0") and robust.rstrip().endswith(" 1")  # right without a result
    assert "id 2: quick wrong, robust right" in out and "id 1:" not in out


def test_compare_scores_stored_rows_with_the_current_rules(tmp_path, bench, capsys):
    import dabench_compare

    q = dabench.load_questions(bench)[0]
    total = q["labels"][0][1]
    # stored as wrong (the formatting call failed), but the code's result is one bare value
    stored = {"id": q["id"], "response": "It is many.", "result_str": total, "correct": [False], "seconds": 1,
              "llm_calls": 1, "prompt_tokens": 1}
    path = tmp_path / "run.jsonl"
    path.write_text(json.dumps(stored))
    assert dabench_compare.main([str(path), "--data", str(bench)]) == 0
    assert "100.0% (1/1)" in capsys.readouterr().out
    assert dabench_compare.main([str(path), "--data", str(bench), "--as-stored"]) == 0
    assert "0.0% (0/1)" in capsys.readouterr().out
