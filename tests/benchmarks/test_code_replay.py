"""benchmarks/code_replay.py: a stored run's final code goes again through today's code step (real
sandbox, no model) and is scored as the benchmark scores a run."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from code_replay import replay_one, scored  # noqa: E402

Q = {"id": 1, "file_name": "t.csv", "format": "@mean_x[value] where value is a number rounded to 1 decimal place.",
     "labels": [["mean_x", "2.0"]]}


def test_a_result_is_scored_as_the_benchmark_scores_it():
    assert scored("{'mean_x': 2.0}", Q) and scored("{'mean_x': 2.04}", Q)
    assert not scored("{'mean_x': 2.5}", Q) and not scored(None, Q)


def test_a_code_a_new_mend_repairs_turns_a_failed_run_right(tmp_path: Path):
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "t.csv").write_text("x\n1\n2\n3\n")
    broken = "r = (df['x'].sum() / len(df)) - 0) * 1\nresult = {'mean_x': r}\n"  # one opening parenthesis left out
    run = {"question": "What is the mean of x?", "final_output": json.dumps({"code": broken})}
    row = {"id": 1, "correct": [False], "output_type": "error"}
    line = replay_one(row, Q, run, tmp_path, tmp_path / "ws")
    assert line is not None and line.startswith("1 wrong → right") and "a syntax slip" in line
    same = {"question": "What is the mean of x?", "final_output": json.dumps({"code": "result = {'mean_x': df['x'].mean()}\n"})}
    assert replay_one({"id": 1, "correct": [True], "output_type": "analysis"}, Q, same, tmp_path, tmp_path / "ws") is None
