"""A ranking the explanation states must be the computed one (common/rankings.py)."""

from dsagent.workflows.common.grounding import ground_explanation
from dsagent.workflows.common.rankings import drop_false_rankings, ranked_ends

REGIONS = ["East", "North", "South", "West"]
SERIES = {"result_str": "region\nEast     67908.25\nNorth    41000.00\nSouth    90133.50\nWest     52000.75\nName: revenue, dtype: float64",
          "result_type": "Series"}
WHICH = "Which region has the highest total revenue (units times unit_price)? Show it as a bar chart."


def test_the_demo_false_superlative_is_dropped_when_the_answer_is_one_label():
    text = ("The region with the highest total revenue is South, with a total revenue of 90133.50. "
            "The bar chart shows the total revenue for each region, with East having the highest total revenue at 67908.25.")
    kept, dropped = drop_false_rankings(text, {"result_str": "South"}, WHICH, REGIONS)
    assert kept == "The region with the highest total revenue is South, with a total revenue of 90133.50."
    assert dropped == ["The bar chart shows the total revenue for each region, with East having the highest total revenue at 67908.25."]


def test_a_series_of_numbers_sets_both_ends():
    assert ranked_ends("", SERIES) == ({"high": "South", "low": "North"}, ["East", "North", "South", "West"])
    text = "South leads with 90133.50. East has the lowest revenue. North has the smallest total."
    kept, dropped = drop_false_rankings(text, SERIES, "Total revenue per region?")
    assert kept == "South leads with 90133.50. North has the smallest total."
    assert dropped == ["East has the lowest revenue."]


def test_right_rankings_in_clauses_of_one_sentence_are_kept():
    text = "South has the highest revenue, while North has the lowest. East is the second highest at 67908.25."
    assert drop_false_rankings(text, SERIES, WHICH) == (text, [])


def test_a_clause_that_names_two_labels_or_no_end_is_not_judged():
    text = "East and South have the highest totals. West sold 52000.75."
    assert drop_false_rankings(text, SERIES, WHICH) == (text, [])


def test_nothing_is_judged_without_a_computed_ranking():
    text = "East has the highest revenue. It is 67908.25."
    assert drop_false_rankings(text, {"result_str": "67908.25"}, "What is East's total revenue?", REGIONS) == (text, [])
    # one label, but the question asks for no end: which end it is, is not known
    assert drop_false_rankings(text, {"result_str": "South"}, "Which region is in the south?", REGIONS) == (text, [])


def test_the_text_is_kept_whole_when_nothing_would_be_left():
    text = "East has the highest revenue."
    assert drop_false_rankings(text, SERIES, WHICH) == (text, [])


def test_the_grounding_step_drops_and_records_it():
    text = "South has the highest total revenue, 90133.50. East has the highest revenue of all at 67908.25."
    grounded = ground_explanation(text, SERIES, question=WHICH, labels=REGIONS)
    assert grounded.text == "South has the highest total revenue, 90133.50."
    assert any("not the computed ranking" in c for c in grounded.ungrounded_caught)
    assert any(a.startswith("dropped a sentence: East has the highest") for a in grounded.actions)


def test_a_regenerated_explanation_is_checked_for_rankings_too():
    # the first text states a number nothing computed; the text written again ranks a wrong label first
    first = "South has the highest revenue at 99999.99."
    again = "South has the highest revenue at 90133.50. East has the highest revenue of all the regions at 67908.25."
    grounded = ground_explanation(first, SERIES, question=WHICH, labels=REGIONS, regenerate=lambda _feedback: again)
    assert grounded.text == "South has the highest revenue at 90133.50."
    assert any("not the computed ranking" in caught for caught in grounded.ungrounded_caught)
    assert "regenerated" in grounded.actions and any(a.startswith("dropped a sentence: East") for a in grounded.actions)


def test_whose_asks_a_name_like_which():
    """"Whose methylation rises the most?" answered with idxmax's row number (24; batch K, seen)
    goes back for the name at that row, as "which" does."""
    from dsagent.workflows.common.fit import result_misfit

    code = "result = df.loc[df['site'] == 'CpG_2', 'methylation'].idxmax()\n"
    found = result_misfit("Whose methylation rises the most from site CpG_0 to CpG_2?", code,
                          {"result_type": "int", "result_str": "24"}, text_columns=["id", "site"], columns=["id", "site", "methylation"])
    assert found and "which one (a name)" in found
