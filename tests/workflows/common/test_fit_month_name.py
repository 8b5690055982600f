"""A month's number where the question asks for its name (``fit.cycle.month_numbers``): sent back
by the fit check, and written as its name by the after-misfit mend ``as_asked.month_named``, for a
named value and for a bare result. A result that already is a name, a question that asks no name, a
value that is no month number or a key that counts months is left alone."""

import ast

import pytest

from dsagent.workflows.common.fit import result_misfit
from dsagent.workflows.common.fit.cycle import month_name_asked, month_numbers
from dsagent.workflows.common.mends.after_misfit import mend_misfit
from dsagent.workflows.common.mends.as_asked import month_named
from dsagent.workflows.common.mends.facts import MendFacts

NAMED = ("In which month was the mean delay highest?\nConstraints: Group by the month column. Write the month as its "
         "English name with a capital first letter.\nGive the answer as a dict with the keys top_month, mean_delay: top_month "
         "(month) where \"month\" is an English month name such as March. mean_delay (number) rounded to 2 decimal places.")
CODE = "m = df.groupby('month')['delay'].mean()\nresult = {'top_month': int(m.idxmax()), 'mean_delay': round(m.max(), 2)}\n"


def dict_result(text: str) -> dict:
    return {"result_type": "dict", "result_str": text}


@pytest.mark.parametrize("question", [
    NAMED, "Which month had the most sales? Give the month's name.", "Name of the month with the fewest orders?",
    "Which calendar month is wettest? Answer with the month name.", "What month peaks? Give it as its full name (e.g. May).",
])
def test_the_ways_a_question_asks_a_months_name(question):
    assert month_name_asked(question)


@pytest.mark.parametrize("question", [
    "In which month was the mean delay highest?", "Which month (1-12) had the most sales? Give the month number.",
    "How many months had rain? Name the wettest city.", "What is the name of the station with most rain in May?",
])
def test_questions_that_ask_no_months_name(question):
    assert not month_name_asked(question)


def test_a_months_number_under_a_month_key_is_sent_back_and_named():
    shown = dict_result("{'top_month': 7, 'mean_delay': 21.73}")
    assert month_numbers(NAMED, "dict", shown["result_str"]) == ["top_month"]
    found = result_misfit(NAMED, CODE, shown)
    assert found and "top_month" in found and "July" in found and "calendar.month_name" in found
    mended = month_named(NAMED, CODE, ast.parse(CODE), shown, MendFacts())
    assert mended and mended.startswith(CODE) and "calendar.month_name[int(result['top_month'])]" in mended
    import pandas as pd

    ns = {"df": pd.DataFrame({"month": [1, 7, 7, 12], "delay": [3.0, 30.0, 13.46, 5.0]})}
    exec(mended, ns)  # noqa: S102
    assert ns["result"] == {"top_month": "July", "mean_delay": 21.73}
    assert mend_misfit(NAMED, CODE, shown, MendFacts())[1] == "month named as asked"


def test_a_bare_month_number_and_an_abbreviated_name():
    question = "Which month had the most flights? Answer with the month's three-letter abbreviated name (e.g. Mar)."
    code = "result = df['month'].value_counts().idxmax()\n"
    shown = {"result_type": "int64", "result_str": "8"}
    assert month_numbers(question, "int64", "8") == [None]
    assert result_misfit(question, code, shown)
    mended = month_named(question, code, ast.parse(code), shown, MendFacts())
    ns = {"df": __import__("pandas").DataFrame({"month": [8, 8, 2]})}
    exec(mended, ns)  # noqa: S102
    assert ns["result"] == "Aug"


@pytest.mark.parametrize("question,kind,shown", [
    (NAMED, "dict", "{'top_month': 'July', 'mean_delay': 21.73}"),  # already a name
    ("In which month was the mean delay highest?", "dict", "{'top_month': 7}"),  # no name asked: a number is an answer
    (NAMED, "dict", "{'top_month': 13, 'mean_delay': 21.73}"),  # no month's number
    (NAMED, "dict", "{'top_month': 7.5, 'mean_delay': 21.73}"),
    (NAMED, "dict", "{'month_count': 7, 'mean_delay': 21.73}"),  # a count of months
    (NAMED, "dict", "{'months': 7, 'mean_delay': 21.73}"),
    (NAMED, "dict", "{'top_month': True}"),
    ("How many flights left in the busiest month? Give the month's name too.", "int", "7"),  # a bare count
])
def test_what_is_left_alone(question, kind, shown):
    assert month_numbers(question, kind, shown) == []
    assert month_named(question, CODE, ast.parse(CODE), {"result_type": kind, "result_str": shown}, MendFacts()) is None
