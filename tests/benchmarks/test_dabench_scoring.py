import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))

from dabench_scoring import (  # noqa: E402
    asked_decimals,
    computed_answers,
    expected_names,
    extract_answers,
    round_as_asked,
    spelled_as_asked,
    score_question,
    summarize,
)


def test_official_rule():
    labels = [["mean", "3.14"], ["name", "Alice"]]
    assert score_question("@mean[3.14] and @name[Alice]", labels) == [True, True]
    assert score_question("@mean[3.1400000001] @name[alice]", labels) == [True, False]  # case-sensitive strings
    assert score_question("@mean[3.15]", labels) == [False, False]
    assert score_question("@mean[1] @mean[3.14] @name[Alice]", labels) == [True, True]  # last value counts


def test_expected_names_and_summary():
    assert expected_names("@a[x], @b[y] where @a[...]") == ["a", "b"]
    assert extract_answers("@x[1]") == {"x": "1"}
    s = summarize([[True, True], [True, False], [False]])
    assert s["ABQ"] == 1 / 3 and s["UASQ"] == 3 / 5 and abs(s["PASQ"] - 0.5) < 1e-9


def test_computed_answers_come_from_the_result_not_the_prose():
    names = ["mean_neg", "std_neg", "country"]
    assert computed_answers("@mean_neg[-0.14], @std_neg[0.94]", names) == {"mean_neg": "-0.14", "std_neg": "0.94"}
    got = computed_answers("{'@mean_neg': np.float64(0.07), 'std_neg': np.float64(0.0412345), 'country': 'Congo', 'other': 1}", names)
    assert got == {"mean_neg": "0.07", "country": "Congo"}  # an unrounded number is left to the formatter
    assert computed_answers("{'variables_needed': ['a']}", names) == {}
    # one answer asked, one bare value computed: that value is the answer
    assert computed_answers("Gibraltar", ["country"]) == {"country": "Gibraltar"}
    assert computed_answers("'poor fit'\n", ["fit"]) == {"fit": "poor fit"}
    assert computed_answers("0.67", ["r2"]) == {"r2": "0.67"}
    assert computed_answers("0.6712345", ["r2"]) == {}  # unrounded: left to the formatter
    # ... unless the format asks for one precision: then code rounds it (round_as_asked)
    two = "@r2[value] rounded to two decimal places"
    assert computed_answers("0.6712345", ["r2"], two) == {"r2": "0.6712345"}
    assert computed_answers("{'r2': np.float64(22756785531.293343)}", ["r2"], two) == {"r2": "22756785531.293343"}
    assert round_as_asked({"r2": "22756785531.293343"}, two) == {"r2": "22756785531.29"}
    # several precisions asked: a value written at one of them is rounded already (S 10290, seen: a p-value dropped)
    several = "@t[t] rounded to 3 decimal places. @p[p] rounded to 6 decimal places."
    assert computed_answers("{'t': 3.879, 'p': 0.000375}", ["t", "p"], several) == {"t": "3.879", "p": "0.000375"}
    assert computed_answers("{'t': 3.879, 'p': 0.0003751234}", ["t", "p"], several) == {"t": "3.879"}
    assert computed_answers("Gibraltar", ["country", "rate"]) == {}  # which answer would it be?
    assert computed_answers("country\nGibraltar    3.1", ["country"]) == {}  # a table is not one value
    # appended after the explanation, the computed value is the one scored
    assert score_question("@mean_neg[0.06]\nComputed: @mean_neg[0.07]", [["mean_neg", "0.07"]]) == [True]


def test_a_computed_flat_list_is_written_as_the_benchmark_writes_one():
    names = ["outliers", "n"]
    got = computed_answers("{'outliers': ['Kuwait', 'Saudi Arabia'], 'n': 2}", names)
    assert got == {"outliers": "Kuwait, Saudi Arabia", "n": "2"}
    assert computed_answers("['Kuwait', \"Chad\"]", ["outliers"]) == {"outliers": "Kuwait, Chad"}  # the whole result
    assert computed_answers("{'outliers': []}", names) == {"outliers": ""}  # none found
    two = "@m[values] rounded to two decimal places"
    assert computed_answers("{'m': [np.float64(0.123456), np.float64(1.0)]}", ["m"], two) == {"m": "0.12, 1.0"}
    assert computed_answers("{'m': [[1, 2], [3]]}", ["m"]) == {}  # nested: left to the formatter
    assert computed_answers("{'m': [df, 2]}", ["m"]) == {}  # not a plain value
    assert score_question("@outliers[Kuwait]\nComputed: @outliers[Kuwait, Saudi Arabia]",
                          [["outliers", "Kuwait, Saudi Arabia"]]) == [True]


def test_numbers_are_rounded_half_up_as_the_format_asks():
    fmt = '@r[r_value] where "r_value" is a number between -1 and 1, rounded to two decimal places.'
    assert asked_decimals(fmt) == 2 and asked_decimals("rounded to 3 decimal places") == 3
    assert asked_decimals("@n[count]") is None
    assert asked_decimals("a rounded to two decimal places, b rounded to four decimal places") is None  # ambiguous
    assert round_as_asked({"r": "0.205104", "s": "0.2", "name": "Alice", "n": "12"}, fmt) == {"r": "0.21"}
    assert round_as_asked({"r": "-0.125"}, fmt) == {"r": "-0.13"}
    assert round_as_asked({"r": "0.205104"}, "@r[r_value]") == {}


def test_words_are_spelled_as_the_format_spells_them():
    fmt = ('@significant_correlation[significant_correlation] @distribution_type[type] where "significant_correlation" is '
           'a boolean value indicating whether there is a significant correlation (true) or not (false); "type" is '
           '"normal" or "not normal"')
    answers = {"significant_correlation": "True", "distribution_type": "Not Normal", "p_value": "0.03"}
    assert spelled_as_asked(answers, fmt) == {"significant_correlation": "true", "distribution_type": "not normal"}
    assert spelled_as_asked({"significant_correlation": "true"}, fmt) == {}  # already as asked
    assert spelled_as_asked({"x": "True"}, "@x[value] where value is a number") == {}  # the format spells nothing
