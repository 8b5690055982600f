"""`dsagent ask --workflow robust` end to end with the scripted model."""

import json

import pandas as pd
import pytest

from dsagent.cli.main import main

REPLIES = [
    {"reasoning": "needs the data", "needs_data_work": True},
    {"reasoning": "a sum", "variables_needed": ["units"], "constraints": [], "analysis_type": "descriptive", "success_criteria": "total units"},
    {"reasoning": "clean", "available_columns": ["units"], "missing_columns": [], "data_quality": {}, "limitations": [], "is_suitable": True},
    {"reasoning": "fine", "aligned": True, "gaps": [], "caveats": [], "recommendation": "proceed"},
    "result = int(df['units'].sum())",
    "result = df['units'].sum()",  # node 5's independent computation agrees
    "Total units computed.",
]


def test_ask_robust_json(script_file, sales_csv, capsys):
    spec = script_file(REPLIES)
    assert main(["ask", str(sales_csv), "How many units in total?", "--model", spec, "--workflow", "robust", "--json"]) == 0
    captured = capsys.readouterr()
    payload = json.loads(captured.out)
    assert payload["workflow"] == "robust" and payload["llm_calls"] == len(REPLIES)
    assert int(payload["result_str"]) == int(pd.read_csv(sales_csv)["units"].sum())
    assert payload["evaluation"]["is_valid"] is True and payload["attempts"] == 1
    for node in ("node_0_understand", "node_2_data", "node_3_alignment", "node_5_evaluate", "node_6_explain"):
        assert f"▸ {node}" in captured.err
    assert "✓ node_4_code" in captured.err


def test_workflow_choices_list_robust(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["ask", "data.csv", "q?", "--workflow", "nope"])
    assert exit_.value.code == 2 and "'robust'" in capsys.readouterr().err
