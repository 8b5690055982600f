"""The precision a question asks for, applied by code to the stated answer (common/precision.py)."""

import pytest

from dsagent.workflows.common.precision import apply_precision, asked_decimals


@pytest.mark.parametrize("question, decimals", [
    ("What share of the rows are dry, as a percentage to one decimal place?", 1),
    ("Mean rain, rounded to 2 decimals?", 2),
    ("What is the mean, to three decimal places?", 3),
    ("How many litres on average, to the nearest whole number?", 0),
    ("What is the mean rain?", None),
    ("Which two stations are wettest?", None),
])
def test_the_decimals_a_question_asks_for(question, decimals):
    assert asked_decimals(question) == decimals


def test_numbers_are_written_again_from_the_computed_value_at_the_decimals_asked():
    question = "What share of the days were dry and wet, to one decimal place?"
    text, actions = apply_precision("Dry: 32.25 % of the days; wet: 41.63%.", question, {"result_str": "{'dry': 32.2549, 'wet': 41.6321}"})
    assert text == "Dry: 32.3 % of the days; wet: 41.6%."
    assert actions == ["32.25 % → 32.3 % (1 decimal asked)", "41.63% → 41.6% (1 decimal asked)"]


def test_too_few_decimals_are_filled_from_the_computed_value_and_fractions_as_percent():
    text, _ = apply_precision("The mean is 16 and 30 % are dry.", "Give both to two decimals.", {"result_str": "{'m': 16.0803, 's': 0.30127}"})
    assert text == "The mean is 16.08 and 30.13 % are dry."


@pytest.mark.parametrize("text, result", [
    ("There are 30 stations.", "30"),                     # a count stays a count
    ("The population is 1.3 billion.", "1318683096"),     # a scaled claim stays as written
    ("It rained 7.25 mm in 2007.", "9.5"),                # a number no output holds is the grounding check's business
])
def test_what_is_left_as_written(text, result):
    assert apply_precision(text, "to one decimal place", {"result_str": result}) == (text, [])


def test_a_question_that_asks_no_precision_changes_nothing():
    assert apply_precision("The mean is 16.0803.", "What is the mean?", {"result_str": "16.0803"}) == ("The mean is 16.0803.", [])


def test_the_answer_of_a_run_is_given_at_the_precision_asked(script_file, sales_csv):
    """Through the engine (quick's explain step): the run's answer and its grounding record."""
    from dsagent.session import Session

    plan = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "compute it"}
    spec = script_file([plan, "result = df['units'].mean()", "The average is 21.15 units per row."])
    with Session([sales_csv], model=spec) as session:
        result = session.ask("What's the average number of units, to the nearest whole number?")
    assert result.explanation == "The average is 21 units per row."
    assert result.grounding["rounded"] == ["21.15 → 21 (0 decimals asked)"] and result.grounding["caught"] == 0
