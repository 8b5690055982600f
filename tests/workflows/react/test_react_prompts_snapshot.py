"""Seed 001's prompts are snapshot-tested: a change to one is a visible diff in tests/snapshots/.

Regenerate after an intended change with: UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/workflows/react/test_react_prompts_snapshot.py
"""

import pytest
from langchain_core.messages import AIMessage, HumanMessage
from snapshot_check import check_snapshot, render

from dsagent.workflows.react import prompts
from dsagent.workflows.react.nodes import messages_for
from dsagent.workflows.react.state import ReactState, ExecutionResult, ExpectedOutput, initial_state

SUMMARY = "datasets['sales'] (sales.csv): 3 rows x 2 columns\n- 'region' (object) …\n- 'price' (float64) …"
QUESTION = "What is the average price per region? Plot it."
DATASETS = {"sales": {"name": "sales.csv", "rows": 3, "columns": ["region", "price"]}}
FAILED = ExecutionResult(success=False, code="result = df.groupby('region')['Price'].mean()", instruction="Average Price per region",
                         error="Traceback (most recent call last):\n  File \"<cell 1>\", line 1, in <module>\nKeyError: 'Column not found: Price'\nHint: Columns of df are: 'region', 'price'")
DONE = ExecutionResult(success=True, code="result = df.groupby('region')['price'].mean()\nplt.savefig('price.png')", instruction="Average price per region, bar chart",
                       result="region\nNorth    3.5\nSouth    4.0", outputs=[ExpectedOutput(file_name="price.png", description="Average price by region", output_type="figure")])


def state(*results: ExecutionResult, assumptions=(), history=(), question=QUESTION) -> ReactState:
    return ReactState(**{**initial_state(question, DATASETS, SUMMARY, list(history)), "execution_results": list(results), "assumptions": list(assumptions)})


CHART_ONLY = DONE.model_copy(update={"result": None, "instruction": "地域別の平均価格を棒グラフで表示"})


CASES = {
    "react_reason_first": lambda: render(messages_for(state(), prompts.reason(state()))),
    "react_reason_after_error": lambda: render(messages_for(state(FAILED, DONE), prompts.reason(state(FAILED, DONE, assumptions=["price is per unit"])))),
    "react_reason_follow_up": lambda: render(messages_for(
        state(history=[HumanMessage("Average price per region?"), AIMessage("North 3.5, South 4.0.\n\nCode used:\n```python\nresult = 1\n```")]),
        prompts.reason(state()))),
    "react_code": lambda: render(messages_for(state(), prompts.code(state(), "Average price per region, bar chart"))),
    "react_code_after_error": lambda: render(messages_for(state(FAILED), prompts.code(state(FAILED), "Average of the column price per region"))),
    "react_report": lambda: render(messages_for(state(FAILED, DONE), prompts.report(state(FAILED, DONE, assumptions=["price is per unit"]), False, 5))),
    "react_report_japanese_chart_only": lambda: render(messages_for(state(), prompts.report(state(CHART_ONLY, question="地域別の平均価格をグラフにして"), False, 5))),
    "react_report_limit": lambda: render(messages_for(state(DONE), prompts.report(state(DONE), True, 5))),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_prompt_snapshot(name):
    check_snapshot(name, CASES[name]())


def test_every_call_shares_the_context_prefix_with_the_other_workflows():
    from dsagent.workflows.quick.nodes import _messages

    quick = render(_messages({"data_summary": SUMMARY, "messages": []}, "x")).split("=== human ===")[0]
    first = {name: fn().split("=== human ===")[0] for name, fn in CASES.items() if "follow_up" not in name}
    assert set(first.values()) == {quick}


def test_multiple_datasets_are_named_in_the_code_rules():
    rules = prompts.code_rules(["sales", "costs"])
    assert "datasets['<id>'] ('sales', 'costs')" in rules and "`df`" not in rules
    assert "Only pandas, numpy, sklearn, matplotlib, seaborn may be used" in rules


def test_language_of_the_fixed_texts():
    assert prompts.language("地域別の売上は？") == "ja" and prompts.language("Sales by region?") == "en"
