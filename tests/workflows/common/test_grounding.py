"""The grounding check: claims of an explanation against the computed outputs, by code."""

import pandas as pd
import pytest

from dsagent.workflows.common.grounding import (
    check_claims,
    data_labels,
    extract_claims,
    ground_explanation,
    outputs_text,
)

SERIES = "region\nSouth    90133.50\nNorth    71220.25\nEast     60110.00\nName: revenue, dtype: float64"
LABELS = ["Zimbabwe", "Japan", "South", "North", "East", "West", "Africa"]


def ungrounded(text, outputs, question="", labels=LABELS):
    return [c.text for c in check_claims(text, outputs, question, labels).ungrounded]


@pytest.mark.parametrize("text", [
    "South has the highest total revenue, 90,133.50.",
    "South leads with 90133.5 in revenue.",
    "South leads with about 90,134 in revenue.",
    "South leads with $90,133.50.",
    "South leads with 90.1 thousand in revenue.",
])
def test_formatting_and_rounding_of_a_computed_value_are_grounded(text):
    assert ungrounded(text, {"result_str": SERIES}) == []


def test_a_number_the_code_did_not_compute_is_caught():
    assert ungrounded("South leads with 91,500.00.", {"result_str": SERIES}) == ["91,500.00"]


def test_the_first_row_of_a_series_is_not_its_mean():
    # the case: the explanation read off the first value (16.05); the mean is 16.08
    assert ungrounded("The mean tip percentage is 16.05%.", "16.0766") == ["16.05%"]
    assert ungrounded("The mean tip percentage is 16.08%.", "16.0766") == []
    assert ungrounded("The mean tip percentage is 16.1%.", "np.float64(16.0766)") == []


def test_a_percentage_may_be_a_computed_fraction():
    assert ungrounded("38.1% of the parties smoke.", "0.3811") == []
    assert ungrounded("38.1 percent of the parties smoke.", "0.3811") == []
    assert ungrounded("0.38 of the parties smoke.", "0.3811") == []
    assert ungrounded("40% of the parties smoke.", "0.3811") == ["40%"]


def test_scale_words_are_read():
    assert ungrounded("Africa had 237.6 million people.", "237640501", labels=[]) == []
    assert ungrounded("Africa had 250 million people.", "237640501", labels=[]) == ["250 million"]


def test_numbers_from_the_question_are_not_findings():
    question = "How many flowers have a sepal width greater than 3.5 in 2007?"
    assert ungrounded("18 flowers have a sepal width above 3.5 in 2007.", "18", question) == []
    assert ungrounded("19 flowers have a sepal width above 3.5.", "18", question) == ["19"]


def test_list_markers_codes_dates_and_names_with_digits_are_not_claims():
    text = "1. Strength 0-1 in 2024-01 (Q1) uses `df['x'] > 7`.\n2. The value is 5."
    assert [c.text for c in extract_claims(text)] == ["5"]


def test_a_year_the_outputs_name_is_a_time_not_a_value():
    assert ungrounded("In 2007 Japan had the highest life expectancy (82.6).", "year 2007 Japan 82.603") == []
    assert ungrounded("In 1999 Japan had 82.6.", "Japan 82.603") == ["1999"]


def test_a_label_no_output_holds_is_caught():
    # the case: the code computed a row number, the explanation named a country
    assert ungrounded("Zimbabwe had the highest life expectancy in 2007.", "803", "Which country ... 2007?") == ["Zimbabwe"]
    assert ungrounded("Japan had the highest life expectancy.", "country    Japan\nlifeExp   82.603") == []


def test_labels_from_the_question_are_not_findings():
    assert ungrounded("Africa had 237,640,501 people in 1952.", "237640501", "What was the population of Africa in 1952?") == []


def test_length_of_a_printed_list_is_grounded():
    assert ungrounded("There are 3 top countries: Japan, South and East.", "['Japan', 'South', 'East']") == []


def test_outputs_text_reads_an_execution_result_and_its_tables(tmp_path):
    table = tmp_path / "result_1.csv"
    table.write_text("country,pop\nZimbabwe,12311143\n")
    text = outputs_text({"type": "DataFrame", "result_str": "…", "stdout": "printed 5", "tables": [str(table)],
                         "figures": ["/x/fig.png"], "duration_s": 1.5})
    assert "Zimbabwe" in text and "printed 5" in text and "fig.png" not in text


def test_data_labels_are_the_text_values_of_the_data():
    frame = pd.DataFrame({"country": ["Japan", "Chad", None, "X"], "year": [2007, 2007, 2007, 2007], "code": ["12", "13", "14", "15"]})
    assert data_labels({"g": frame}) == ["Japan", "Chad"]


def test_a_grounded_explanation_is_kept_without_a_model_call():
    calls = []
    grounded = ground_explanation("South leads with 90,133.50.", {"result_str": SERIES}, labels=LABELS,
                                  regenerate=lambda feedback: calls.append(feedback) or "")
    assert grounded.text == "South leads with 90,133.50." and calls == []
    assert grounded.claims_checked == 2 and grounded.ungrounded_caught == [] and grounded.ungrounded_left == []


def test_an_ungrounded_claim_is_regenerated_with_the_discrepancy_named():
    calls = []

    def regenerate(feedback):
        calls.append(feedback)
        return "South leads with 90,133.50."

    grounded = ground_explanation("West leads with 95,000.", {"result_str": SERIES}, labels=LABELS, regenerate=regenerate)
    assert len(calls) == 1 and "West" in calls[0] and "95,000" in calls[0]
    assert grounded.text == "South leads with 90,133.50."
    assert grounded.ungrounded_caught == ["West", "95,000"] and grounded.ungrounded_left == []
    assert grounded.actions == ["regenerated"]
    assert grounded.record()["caught"] == 2


def test_still_ungrounded_after_regeneration_a_lone_number_is_replaced_by_the_computed_one():
    grounded = ground_explanation("The mean tip percentage is 16.05%. Tips are generous.", {"result_str": "16.080258"},
                                  regenerate=lambda feedback: "The mean tip percentage is 16.06%. Tips are generous.")
    assert grounded.text == "The mean tip percentage is 16.08%. Tips are generous."
    assert grounded.ungrounded_left == []
    assert grounded.actions[0].startswith("regenerated (still ungrounded: 16.06%)")
    assert grounded.actions[1] == "replaced 16.06% by 16.08%"


def test_without_regenerate_the_sentence_with_an_ungrounded_label_is_dropped():
    text = "Zimbabwe had the highest life expectancy. The code looked at 2007 rows."
    grounded = ground_explanation(text, {"result_str": "803"}, question="Which country in 2007?", labels=LABELS)
    assert "Zimbabwe" not in grounded.text and grounded.text == "The code looked at 2007 rows."
    assert grounded.ungrounded_caught == ["Zimbabwe"] and grounded.ungrounded_left == []
    assert grounded.actions[0].startswith("dropped a sentence: Zimbabwe")


def test_nothing_left_shows_the_computed_result():
    grounded = ground_explanation("Zimbabwe.", {"result_str": "803"}, labels=LABELS)
    assert grounded.text == "The answer computed is 803." and "Zimbabwe" not in grounded.text
    assert grounded.ungrounded_left == []


@pytest.mark.parametrize("result, text", [
    ("Japan", "The answer computed is Japan."),                      # one value: a sentence a user can quote
    ("None", "The analysis computed no answer (its result is None)."),
    (SERIES, "The analysis computed:\n\n" + SERIES),                # a table stays a table
])
def test_what_replaces_a_whole_explanation_reads_as_an_answer(result, text):
    grounded = ground_explanation("Zimbabwe.", {"result_str": result}, labels=LABELS)
    assert grounded.text == text


def test_a_failing_regenerate_falls_back_to_mending():
    def regenerate(feedback):
        raise RuntimeError("model down")

    grounded = ground_explanation("It is 17.5.", "16.08", regenerate=regenerate)
    assert grounded.text == "It is 16.08." and grounded.actions[0] == "regeneration failed (RuntimeError)"


def test_detail_line_says_what_was_caught():
    grounded = ground_explanation("It is 17.5.", "16.08")
    assert "ungrounded 17.5" in grounded.detail() and "replaced" in grounded.detail()


def test_facts_of_the_data_may_be_stated():
    from dsagent.workflows.common.grounding import data_facts

    known = data_facts({"g": pd.DataFrame({"country": ["Japan", "Chad"], "pop": [1, 2]})})
    assert ungrounded("The 2 rows give Japan 2.", "Japan 2", labels=[]) == []
    assert check_claims("The table has 2 rows and 2 columns; 17 countries.", "x", known=known).ungrounded[0].text == "17"


def test_a_change_may_be_stated_by_its_size():
    assert ungrounded("Revenue fell by 5.2 percent.", "-5.2") == []


def test_common_words_are_not_labels():
    frame = pd.DataFrame({"smoker": ["Yes", "No"], "sex": ["Male", "Female"]})
    assert data_labels({"t": frame}) == ["Female", "Male"]


def test_a_saved_tables_row_count_is_grounded(tmp_path):
    table = tmp_path / "t.csv"
    table.write_text("region,revenue\nSouth,1\nNorth,2\nEast,3\n")
    assert ungrounded("There are 3 regions.", {"tables": [str(table)]}) == []


def test_numbers_that_name_a_part_of_the_answer_are_not_claims():
    assert [c.text for c in extract_claims("Step 2 rounds it to 2 decimal places: 16.08 (see figure 1).")] == ["16.08"]


def test_a_fragment_regenerated_gives_way_to_the_mended_first_explanation():
    text = "Asia had the largest total population in 2007. Its population was 396 million."
    grounded = ground_explanation(text, {"result_str": "Asia"}, question="Which continent had the largest population in 2007?",
                                  labels=["Asia", "Europe"], regenerate=lambda feedback: "396,000,000")
    assert grounded.text == "Asia had the largest total population in 2007."
    assert "mended the first explanation instead" in grounded.actions and grounded.ungrounded_left == []


HOWTO = """To show the total amount per region, we can use Plotly:
```python
import plotly.express as px
fig = px.bar(result, x='region', y='amount')
```
Finally, we display the chart:
fig.show()
The chart shows South first."""


def test_an_explanation_that_is_code_is_asked_again_for_findings():
    asked = []
    grounded = ground_explanation(HOWTO, {"result_str": SERIES}, labels=LABELS,
                                  regenerate=lambda feedback: asked.append(feedback) or "South has the highest total, 90,133.50.")
    assert asked and "no code" in asked[0]
    assert grounded.text == "South has the highest total, 90,133.50." and grounded.actions == ["regenerated without code"]


def test_code_left_after_asking_again_is_cut():
    grounded = ground_explanation(HOWTO, {"result_str": SERIES}, labels=LABELS, regenerate=lambda feedback: HOWTO)
    assert "import" not in grounded.text and "fig" not in grounded.text and "```" not in grounded.text
    assert "The chart shows South first." in grounded.text and grounded.actions == ["cut code from the explanation"]


@pytest.mark.parametrize("text", [
    "South has the highest revenue (90,133.50); North = second.",
    "The mean is 16.08. Use it as a baseline.",
    "Revenue per region:\n- South: 90,133.50\n- North: 71,220.25",
])
def test_prose_with_symbols_is_not_code(text):
    from dsagent.workflows.common.grounding import holds_code
    assert not holds_code(text)


def test_a_value_written_as_an_equation_is_prose():
    from dsagent.workflows.common.grounding import holds_code
    assert not holds_code("Mean = 16.08\nMedian = 15.5")
    assert holds_code("result = df.groupby('a')['b'].sum()")


def test_a_ranking_no_code_computed_is_dropped():
    from dsagent.workflows.common.grounding import drop_unranked_comparisons, ground_explanation

    text = ("1. DIRECT ANSWER: The average amount in the West region is $978.45.\n"
            "2. KEY FINDINGS: The West region has the highest average order amount among all regions. It matters.")
    outputs = {"result_str": "            v\n0  978.445503"}
    kept, dropped = drop_unranked_comparisons(text, outputs, "What is the average amount of the orders in the West region?")
    assert "978.45" in kept and "highest" not in kept and dropped and "among all regions" in dropped[0]
    # asked for a ranking, or a ranking computed (a table of groups): kept
    assert drop_unranked_comparisons(text, outputs, "Which region has the highest average?")[1] == []
    table = {"result_str": "region\nEast    1\nWest    2\nName: v, dtype: int64"}
    assert drop_unranked_comparisons(text, table, "What is the average per region?")[1] == []
    grounded = ground_explanation(text, outputs, question="What is the average amount in the West region?")
    assert "highest" not in grounded.text and any("dropped a sentence" in a for a in grounded.actions)
    assert grounded.ungrounded_caught and grounded.ungrounded_left == []


def test_a_ranking_sentence_that_states_the_answer_is_kept():
    from dsagent.workflows.common.grounding import drop_unranked_comparisons

    text = "The mean is 16.08, higher than in any other group. Nothing else."
    assert drop_unranked_comparisons(text, {"result_str": "16.0803"}, "What is the mean tip percentage?") == (text, [])
