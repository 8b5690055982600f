"""Prompts are snapshot-tested: a change to one is a visible diff in tests/snapshots/.

Regenerate after an intended change with: UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/workflows/quick/test_quick_prompts_snapshot.py
"""

import pytest
from snapshot_check import check_snapshot, render

from dsagent.workflows.common.code import follow_up
from dsagent.workflows.quick import prompts
from dsagent.workflows.quick.nodes import _code_rules, _messages, code_prompt, explain_messages


STATE = {
    "question": "What is the average price per region?",
    "datasets": {"sales": {"name": "sales.csv", "rows": 3, "columns": ["region", "price"]}},
    "data_summary": "datasets['sales'] (sales.csv): 3 rows x 2 columns\n- 'region' (object) …\n- 'price' (float64) …",
    "messages": [],
}
RAN = {**STATE, "plan": {"reasoning": "group and average"}, "code": "result = df.groupby('region')['price'].mean()",
       "execution_result": {"result_str": "region\nnorth    2.0"}, "evaluation": None}
CONCEPT = {**STATE, "question": "What is a median?", "plan": {}}


CASES = {
    "quick_plan": lambda: render(_messages(STATE, prompts.PLAN.format(question=STATE["question"]))),
    "quick_code": lambda: render(_messages(STATE, prompts.GENERATE_CODE.format(rules=_code_rules(STATE), question=STATE["question"], plan="group and average"))),
    "quick_fresh": lambda: render(_messages(STATE, prompts.GENERATE_CODE.format(
        rules=_code_rules(STATE), question=STATE["question"], plan="group and average" + prompts.FRESH_APPROACH.format(error="KeyError: 'Price'")))),
    "quick_fix": lambda: render(follow_up(_messages(STATE, prompts.GENERATE_CODE.format(rules=_code_rules(STATE), question=STATE["question"], plan="group and average")), "result = df['Price'].mean()", prompts.FIX_CODE.format(error="KeyError: 'Price'"))),
    "quick_evaluate": lambda: render(_messages(STATE, prompts.EVALUATE.format(question=STATE["question"], code="result = 1", output="result = 1"))),
    "quick_explain": lambda: render(explain_messages(RAN, brief=False, first=None)),
    "quick_explain_brief": lambda: render(explain_messages({**RAN, "question": "What is the average price?"}, brief=True, first=None)),
    "quick_explain_after_code": lambda: render(explain_messages(RAN, brief=False, first=code_prompt(RAN))),
    "quick_explain_after_code_brief": lambda: render(explain_messages({**RAN, "question": "What is the average price?"}, brief=True, first=code_prompt({**RAN, "question": "What is the average price?"}))),
    "quick_explain_concept": lambda: render(explain_messages(CONCEPT, brief=False, first=code_prompt(CONCEPT))),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_prompt_snapshot(name):
    text = CASES[name]()
    check_snapshot(name, text)


def test_every_call_shares_the_context_prefix():
    first = {name: fn().split("=== human ===")[0] for name, fn in CASES.items()}
    assert len(set(first.values())) == 1
