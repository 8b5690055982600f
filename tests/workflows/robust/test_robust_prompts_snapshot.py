"""The robust workflow's prompts, snapshot-tested: a change to one is a visible diff in tests/snapshots/.

Regenerate after an intended change with:
UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/workflows/robust/test_robust_prompts_snapshot.py
"""

import pytest
from langchain_core.messages import BaseMessage
from snapshot_check import check_snapshot

from dsagent.workflows.common import prompting
from dsagent.workflows.common.code import follow_up
from dsagent.workflows.robust import prompts
from dsagent.workflows.robust.nodes_analysis import code_prompt, explain_messages


REQUIREMENTS = {"reasoning": "group and average", "variables_needed": ["region", "price"], "constraints": ["price numeric"],
                "analysis_type": "descriptive", "success_criteria": "average price per region"}
PROFILE = {"reasoning": "clean", "available_columns": ["region", "price"], "missing_columns": [],
           "data_quality": {"price": "float, 5% missing"}, "limitations": ["price has 5% missing"], "is_suitable": True}
STATE = {
    "question": "What is the average price per region?",
    "datasets": {"sales": {"name": "sales.csv", "rows": 3, "columns": ["region", "price"]}},
    "data_summary": "df = datasets['sales'] = sales.csv: 3 rows x 2 cols\n- \"region\" str …\n- \"price\" float64 …",
    "messages": [],
    "requirements": REQUIREMENTS,
    "data_profile": PROFILE,
    "alignment_caveats": ["price has 5% missing: using complete cases"],
    "code": "result = df.groupby('region')['Price'].mean()",
    "execution_success": False,
    "error": "KeyError: 'Price'",
    "execution_result": None,
    "evaluation": {"reasoning": "impossible", "is_valid": False, "issues_found": ["a mean price of -3 is impossible"],
                   "confidence": 0.9, "recommendation": "code_error"},
    "total_remediations": 3,
    "remediation_history": [{"action": "rewrite_code", "root_cause": "wrong column"},
                            {"action": "revise_requirements", "root_cause": "ambiguous question"}],
}
SUCCESS = {**STATE, "execution_success": True, "error": None, "code": "result = df.groupby('region')['price'].mean()",
           "execution_result": {"type": "analysis", "result_str": "region\nNorth    4.5\nSouth    3.5", "figures": []}}
VALID_STATE = {**SUCCESS, "evaluation": {**SUCCESS["evaluation"], "is_valid": True, "issues_found": []}}
CHECK = {"reasoning": "no price history", "aligned": False, "gaps": ["no date column for a trend"], "caveats": [],
         "recommendation": "cannot_proceed"}


def render(instruction: str, state=STATE) -> str:
    messages: list[BaseMessage] = prompting.stable_messages(state, instruction)
    return "\n\n".join(f"=== {m.type} ===\n{m.content}" for m in messages)


def render_messages(messages) -> str:
    return "\n\n".join(f"=== {m.type} ===\n{m.content}" for m in messages)


def render_fix(state, guidance=None) -> str:
    """Node 4's fix: the turn after the code, in the conversation that asked for it."""
    first = prompting.stable_messages(state, prompts.generate_code(state))
    messages = follow_up(first, state["code"], prompts.fix_code(state, guidance))
    return "\n\n".join(f"=== {m.type} ===\n{m.content}" for m in messages)


CASES = {
    "robust_0_understand": lambda: render(prompts.understand(STATE)),
    "robust_1a_concept": lambda: render(prompts.explain_concept(STATE)),
    "robust_1a_limitation": lambda: render(prompts.explain_concept(STATE, CHECK)),
    "robust_1b_requirements": lambda: render(prompts.requirements({**STATE, "requirements": None})),
    "robust_1b_revision": lambda: render(prompts.requirements(STATE, "no revenue column; sales exists")),
    "robust_2_select_columns": lambda: render(prompts.select_columns(STATE, "wide", 120, "All columns (name: dtype u=unique miss=missing% mean):\nc000: float u=all mean=100", 40)),
    "robust_2_profile": lambda: render(prompts.profile(STATE, prompts.SUMMARY_IN_DATA.format(ids="sales"))),
    "robust_2_profile_wide": lambda: render(prompts.profile(STATE, prompts.SUMMARY_WIDE.format(
        dataset_id="wide", columns="c007, segment, c110", lines='- "c110" float64 u=all min=71 max=125 mean=99.8 std=9.6'),
        "month may be a date")),
    "robust_3_alignment": lambda: render(prompts.alignment(STATE)),
    "robust_4_code": lambda: render(prompts.generate_code(STATE)),
    "robust_4_fix_error": lambda: render_fix(STATE),
    "robust_4_rewrite": lambda: render_fix(SUCCESS, "use the price column and check the sign"),
    "robust_4_rewrite_after_check": lambda: render_fix({**SUCCESS, "cross_check": {"result_str": "0.35", "reference": "0.35"}}),
    "robust_5_cross_check": lambda: render(prompts.cross_check(SUCCESS)),
    "robust_5_cross_check_fix": lambda: render(prompts.cross_check(SUCCESS, {"code": "result = df['Price'].mean()\n", "error": "KeyError: 'Price'"})),
    "robust_5_evaluate": lambda: render(prompts.evaluate(SUCCESS)),
    "robust_5_evaluate_check_disagrees": lambda: render(prompts.evaluate(SUCCESS, "0.35")),
    "robust_5_evaluate_failed": lambda: render(prompts.evaluate(STATE)),
    "robust_5a_remediate": lambda: render(prompts.remediate(STATE)),
    "robust_6_explain": lambda: render_messages(explain_messages(VALID_STATE, gave_up=False, first=None)),
    "robust_6_explain_brief": lambda: render_messages(explain_messages({**SUCCESS, "question": "How many units were sold in total?"}, gave_up=False, first=None)),
    "robust_6_explain_after_code": lambda: render_messages(explain_messages(VALID_STATE, gave_up=False, first=code_prompt(VALID_STATE))),
    "robust_6_explain_after_code_brief": lambda: render_messages(explain_messages({**SUCCESS, "question": "How many units were sold in total?"}, gave_up=False, first=code_prompt({**SUCCESS, "question": "How many units were sold in total?"}))),
    "robust_6_gave_up": lambda: render_messages(explain_messages(STATE, gave_up=True, first=code_prompt(STATE))),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_prompt_snapshot(name):
    text = CASES[name]()
    check_snapshot(name, text)


def test_a_request_that_names_its_keys_gets_them_as_result_keys():
    from dsagent.workflows.common.prompting import brief_answer
    from dsagent.workflows.common.wording import requested_keys
    from dsagent.workflows.react.prompts import code_rules as react_rules

    named = {**STATE, "question": "What are the mean and the highest price? Give the answer as a dict with the keys mean_price and max_price."}
    rule = "make `result` a dict with exactly the keys 'mean_price', 'max_price'"
    for text in (prompts.generate_code(named), render_fix(named), prompts.cross_check(named), react_rules(["t"], named["question"])):
        assert rule in text
    assert brief_answer(named["question"]) and "the keys" not in prompts.generate_code(STATE)
    assert requested_keys("Return a dict with keys: total_units, share, then chart it by region") == ["total_units", "share"]
    assert requested_keys("Which keys does the dictionary column hold?") == []


def test_no_benchmark_answer_format_in_the_product():
    """A benchmark's ``@name[value]`` answer form is the harness's business (benchmarks/dabench.py): a
    question written that way gets no rule of its own, and no mend rewrites such tags in code."""
    named = {**STATE, "question": "Mean and max price? Answer format: @mean_price[m] @max_price[x]"}
    for text in (prompts.generate_code(named), render_fix(named), prompts.cross_check(named)):
        assert "the keys" not in text and "no @ or [ ]" not in text
    from dsagent.workflows.common.code import extract_code

    code = "result = @mean_a[1]\n"
    assert extract_code(f"```python\n{code}```") == code


def test_every_call_shares_the_context_prefix():
    first = {fn().split("=== human ===")[0] for fn in CASES.values()}
    assert len(first) == 1


def test_prompts_carry_compact_json_without_reasoning():
    text = prompts.alignment(STATE)
    assert '"variables_needed":["region","price"]' in text
    assert "group and average" not in text and '"reasoning"' not in text.split("Return JSON")[0]

def test_a_question_asking_for_a_p_value_is_told_where_the_tests_are():
    asked = {**STATE, "question": "Is the correlation between age and fare significant? Report the p-value."}
    for text in (prompts.generate_code(asked), render_fix(asked), prompts.cross_check(asked)):
        assert "r, p = stats.pearsonr(x, y)" in text
    assert "stats.pearsonr" not in prompts.generate_code(STATE)  # said only when asked: tokens cost time
    assert "stats.pearsonr" in prompts.generate_code({**STATE, "question": "Report the p value of the test."})
    assert "stats.pearsonr" not in prompts.generate_code({**STATE, "question": "Sum of the sharp values?"})


def test_a_population_standard_deviation_is_told_its_ddof():
    asked = {**STATE, "question": "What is the population standard deviation of price?"}
    assert ".std(ddof=0)" in prompts.generate_code(asked) and "pvalue" not in prompts.generate_code(asked)
    assert "ddof" not in prompts.generate_code(STATE)


def test_a_percentage_is_said_to_be_out_of_100():
    assert "100 * a fraction" in prompts.generate_code({**STATE, "question": "What percentage of rows is missing?"})
    assert "100 * a fraction" not in prompts.generate_code(STATE)


def test_a_question_for_the_top_one_is_told_idxmax_gives_a_row_label():
    for question in ("Which country had the highest life expectancy?", "Which of the six stores had the lowest sales in 2020?"):
        assert "the name is df.loc[df['y'].idxmax(), 'name_column']" in prompts.generate_code({**STATE, "question": question})
    assert "idxmax" not in prompts.generate_code({**STATE, "question": "What is the highest price? Which rows are missing."})
    assert "idxmax" not in prompts.generate_code(STATE)


def test_bands_with_stated_edges_are_told_that_pd_cut_closes_the_right_edge():
    for question in ("Create 'band': 'young' if age < 40, 'middle' if 40 <= age < 60, 'senior' if age >= 60.",
                     "Bin the fares into three bins and count each bin."):
        assert "pd.cut(x, edges, right=False)" in prompts.generate_code({**STATE, "question": question})
    for question in ("What is the mean fare?", "Count the rows where the 95% confidence interval holds 0.", "Is p < 0.05?"):
        assert "right=False" not in prompts.generate_code({**STATE, "question": question})
