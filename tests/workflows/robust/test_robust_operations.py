"""Robust's node 4 composes the run's first code from an operation the model chooses (setting
``operations``, common.compose), as quick's code step does; scripted model, real sandbox."""

from __future__ import annotations

import pandas as pd
import pytest

from robust_script import ALIGNED, DATA_WORK, INVALID, PREFIX, PROFILE_OK, REQ_UNITS, REWRITE, VALID, ask, ok, route


def test_the_first_code_is_the_chosen_operation(script_file, sales_csv):
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED,
                        {"operation": "aggregate"}, {"value_column": "units", "agg": "mean"},
                        VALID, "About 21 units."])
    result, session = ask(spec, [sales_csv], "What is the average number of units?", operations=True, robust_cross_check=False)
    assert route(result.run_id) == [*PREFIX, *ok("node_4_code", "node_5_evaluate", "node_6_explain")]
    assert result.code.startswith("# operation: aggregate")
    assert float(result.result_str) == pytest.approx(pd.read_csv(sales_csv)["units"].mean())


def test_a_choice_with_problems_falls_back_to_free_code_at_once(script_file, sales_csv):
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED,
                        {"operation": "count_rows"}, {"filters": [{"column": "region", "op": "==", "value": "Atlantis"}]},
                        "result = df['units'].mean()", VALID, "About 21 units."])
    result, session = ask(spec, [sales_csv], "What is the average number of units?", operations=True, robust_cross_check=False)
    assert result.code.strip() == "result = df['units'].mean()"  # the choice had a problem: free code at once
    code_prompts = [m for m in session.model.history if "Atlantis" in str(m[-1].content)]
    assert not code_prompts  # no fix of the failed choice was asked


def test_a_composed_code_judged_wrong_is_rewritten_as_free_code_not_fixed(script_file, sales_csv):
    wrong = {**INVALID, "issues_found": ["the maximum, not the mean"]}
    spec = script_file([DATA_WORK, REQ_UNITS, PROFILE_OK, ALIGNED,
                        {"operation": "aggregate"}, {"value_column": "units", "agg": "max"},
                        wrong, REWRITE, "result = df['units'].mean()", VALID, "About 21 units."])
    result, session = ask(spec, [sales_csv], "What is the average number of units?", operations=True, robust_cross_check=False)
    assert result.code.strip() == "result = df['units'].mean()"
    rewrite = session.model.history[8]  # node 4's second round: the first prompt again, not a turn after the composed code
    assert not any("# operation" in str(m.content) for m in rewrite)

