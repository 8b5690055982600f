"""The end a "which …" question asks for, against the end the code picks (``fit.ends``): "the lowest
average" picked with ``nlargest(1)`` or ``idxmax()`` is sent back, and the after-misfit mend
``as_asked.end_as_asked`` picks the other end. A question that names both ends, a change or a
rank (where the low end can be what is asked), or code that picks both ends is left alone."""

import ast

import pandas as pd
import pytest

from dsagent.workflows.common.fit import result_misfit
from dsagent.workflows.common.fit.ends import asked_end, wrong_end
from dsagent.workflows.common.mends.after_misfit import mend_misfit
from dsagent.workflows.common.mends.as_asked import end_as_asked
from dsagent.workflows.common.mends.facts import MendFacts

LOWEST = ("Which shop had the lowest average price, among shops with at least 2 rows?\nConstraints: Use rows whose price "
          "is present. Keep shops with 2 or more such rows.")
NLARGEST = "result = {'best_shop': df.groupby('shop')['price'].mean().nlargest(1).index[0]}\n"
FRAME = pd.DataFrame({"shop": ["Ash", "Ash", "Birch", "Birch", "Cedar"], "price": [2.0, 4.0, 1.0, 1.5, 9.0]})


@pytest.mark.parametrize("question,end", [
    (LOWEST, "low"), ("Which region sold the fewest units?", "low"), ("Which station has the smallest mean depth?", "low"),
    ("Which product has the highest margin?", "high"), ("Which team scored the most goals in 2020?", "high"),
    ("Which city has the highest and which the lowest rainfall?", None),  # both ends
    ("Which year had the largest drop in sales?", None),  # a change: its low end can be the largest
    ("Which player has the lowest rank?", None),
    ("How many rows have at least 3 items and at most 5?", None),  # bounds, no end
    ("What is the mean price?", None),
])
def test_the_end_a_question_asks_for(question, end):
    assert asked_end(question) == end


def test_the_other_end_is_sent_back_and_mended():
    tree = ast.parse(NLARGEST)
    assert wrong_end(LOWEST, tree) is not None
    found = result_misfit(LOWEST, NLARGEST, {"result_type": "dict", "result_str": "{'best_shop': 'Cedar'}"})
    assert found and "lowest" in found and "nlargest" in found and "nsmallest" in found
    mended = end_as_asked(LOWEST, NLARGEST, tree, {}, MendFacts())
    assert mended == NLARGEST.replace("nlargest", "nsmallest")
    ns = {"df": FRAME}
    exec(mended, ns)  # noqa: S102
    assert ns["result"] == {"best_shop": "Birch"}
    assert mend_misfit(LOWEST, NLARGEST, {"result_type": "dict", "result_str": "{'best_shop': 'Cedar'}"}, MendFacts())[1] == \
        "the end the question asks"
    high = "Which shop has the highest price?"
    code = "result = df.set_index('shop')['price'].idxmin()\n"
    assert end_as_asked(high, code, ast.parse(code), {}, MendFacts()) == code.replace("idxmin", "idxmax")


@pytest.mark.parametrize("question,code", [
    (LOWEST, "result = df.groupby('shop')['price'].mean().nsmallest(1).index[0]\n"),  # the end asked
    (LOWEST, "m = df.groupby('shop')['price'].mean()\nresult = {'low': m.idxmin(), 'gap': m.max() - m.min()}\n"),
    (LOWEST, "m = df.groupby('shop')['price'].mean()\nresult = (m.idxmin(), m.idxmax())\n"),  # both ends picked
    (LOWEST, "result = df.groupby('shop')['price'].mean().sort_values().index[0]\n"),  # no pick by name
    ("Which year had the largest drop in sales?", "result = df.set_index('year')['sales'].diff().idxmin()\n"),
])
def test_what_is_left_alone(question, code):
    assert wrong_end(question, ast.parse(code)) is None
    assert end_as_asked(question, code, ast.parse(code), {}, MendFacts()) is None
