"""Node 5's cross-check compares two independent results by code: the numbers must match as shown."""

import pytest

from dsagent.workflows.common.agreement import answers_agree, numbers_in, results_agree

SERIES = "Pclass\n1    87.961582\n2    21.471556\n3    13.229435\nName: Fare, dtype: float64"


def test_numbers_ignore_digits_inside_names():
    assert numbers_in("{'mean_fare_class1': np.float64(87.96), 'n': 3, 'r': -0.5, 'x': 1e-05}") == ["87.96", "3", "-0.5", "1e-05"]
    assert numbers_in("dtype: float64") == []


@pytest.mark.parametrize("a, b", [
    ("0.2051041", "0.21"),                                  # rounded as asked
    ("{'r': 0.205104}", "0.21"),                            # a dict around the same number
    ("{'mean_class1': 87.96, 'mean_class2': 21.47, 'mean_class3': 13.23}", SERIES),  # index numbers aside
    ("139", "{'total_outliers': 139}"),
    ("'Nigeria'", "Nigeria"),                                # no numbers: the text, quotes aside
    ("(True)", "True"),
    ("{'country': 'Nigeria'}", "Nigeria"),
])
def test_same_answers_agree(a, b):
    assert results_agree(a, b) is True
    assert results_agree(b, a) is True


@pytest.mark.parametrize("a, b", [
    ("80.64", "80.86"),                                      # population vs sample std
    ("139", "140"),                                          # counts differ by one
    ("0.2051041", "0.20"),                                   # rounded the wrong way
    ("South Africa", "Nigeria"),
    ("{'country': 'South Africa'}", "Nigeria"),
    ("Yes", "No"),
    ("0.205", "\n".join(f"{i}    {i % 7}.0" for i in range(40)) + "\nLength: 716"),  # a whole column
    ("True", "0.5"),                                         # numbers on one side only
])
def test_different_answers_disagree(a, b):
    assert results_agree(a, b) is False
    assert results_agree(b, a) is False


def test_nothing_to_compare_is_none():
    assert results_agree(None, "1") is None
    assert results_agree("1", "") is None


REGIONS = "region\nEast     67908.25\nNorth    51234.10\nSouth    88120.00\nName: revenue, dtype: float64"


@pytest.mark.parametrize("question, a, b, expected", [
    ("Which region has the highest total revenue? Show revenue per region as a bar chart.", REGIONS, "South", True),
    ("Which region has the highest total revenue?", "'South'", REGIONS, True),
    ("Which region has the lowest total revenue?", REGIONS, "North", True),
    ("Which region has the highest total revenue?", REGIONS, "East", False),  # another label at the asked end
    ("Which region has the highest and which the lowest revenue?", REGIONS, "South", False),  # both ends: not known which
    ("What is the total revenue per region?", REGIONS, "South", False),  # no end asked: the plain comparison
    ("Which region has the highest total revenue?", REGIONS, "South  88.5", False),  # both show numbers: they must match
])
def test_a_label_agrees_with_the_ranking_it_tops(question, a, b, expected):
    assert answers_agree(question, a, b) is expected


def test_without_a_question_it_is_the_plain_comparison():
    assert answers_agree("", REGIONS, "South") is False
    assert answers_agree("Which region has the highest revenue?", None, "South") is None
