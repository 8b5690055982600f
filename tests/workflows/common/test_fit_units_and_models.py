"""Fit checks on a unit the question restates, a filter that keeps no row by contradiction, and a
regression whose response is not the one the question names (common/fit/units.py, negation.py,
regression.py), each through ``result_misfit`` as the code step calls it."""

import ast

from dsagent.workflows.common.fit import result_misfit
from dsagent.workflows.common.fit.regression import swapped_response
from dsagent.workflows.common.fit.negation import contradictory_filter
from dsagent.workflows.common.fit.sanity import mean_outside_range
from dsagent.workflows.common.fit.units import restated_scale

FLOAT = {"result_type": "float", "result_str": "0.707"}
COLUMNS = ["salary", "age", "faminc", "voteA", "shareA", "approve", "gasprice", "unemploy", "year", "team"]


def misfit(question: str, code: str, shown: dict = FLOAT) -> str | None:
    return result_misfit(question, code, shown, columns=COLUMNS + ["revenue"])


def test_a_unit_the_question_restates_for_a_column_and_its_answer_is_read():
    said = lambda question: restated_scale(question, COLUMNS + ["revenue", "sales", "Population"])  # noqa: E731
    assert said("What is the median CEO salary, in thousands of dollars? salary is in thousands of dollars.") == "thousand"
    assert said("Mean family income? faminc is in thousands of dollars; answer in thousands of dollars.") == "thousand"
    assert said("What is the total revenue in thousands?") is None  # the column's unit is not said: a conversion
    assert said("What was revenue in millions in 2020?") is None
    assert said("What is the total revenue (in thousands of dollars)?") is None
    assert said("salary is in thousands of dollars; give the mean in dollars.") is None  # a conversion
    assert said("sales are in thousands; give the total in millions.") is None
    assert said("salary is in thousands of dollars. How many CEOs earn more than $100,000?") is None  # full units
    assert said("Population is in thousands. What is the crime rate per 1,000 residents?") is None
    assert said("The median is in thousands of dollars.") is None  # not a column


def test_values_scaled_by_the_unit_the_question_restates_go_back():
    question = "What is the median CEO salary, in thousands of dollars?\nConstraints: salary is in thousands of dollars."
    found = misfit(question, "result = df['salary'].median() / 1000")
    assert found and "1000" in found and "thousands" in found
    assert misfit(question, "result = df['salary'].median()") is None
    count = "How many CEOs earn more than 150?\nConstraints: salary is in thousands of dollars."
    assert misfit(count, "result = (df['salary'] * 1000 > 150000).sum()") is None  # a threshold in full units
    other = "What is the total revenue in thousands?\nConstraints: Sum revenue."
    assert misfit(other, "result = df['revenue'].sum() / 1000") is None


def test_a_mean_outside_its_column_is_no_conversion_when_the_unit_is_only_restated():
    question = "What is the average faminc of the respondents? faminc is in thousands of dollars; answer in thousands of dollars."
    assert mean_outside_range(question, "float", "0.0366", {"faminc": (5.0, 250.0)})
    assert mean_outside_range("Average faminc in dollars? faminc is in thousands.", "float", "36607.1", {"faminc": (5.0, 250.0)}) is None


def test_a_filter_that_asks_one_column_for_two_values_at_once_goes_back():
    code = "result = df[(df['year'] == '2012-2013') & (df['year'] == '2015-2016')]['team'].nunique()"
    found = contradictory_filter(ast.parse(code))
    assert found and "keep no row" in found
    assert misfit("How many teams played in both seasons?", code, {"result_type": "int", "result_str": "0"})
    for kept in ("result = df[(df['year'] == '2012-2013') | (df['year'] == '2015-2016')]['team'].nunique()",
                 "result = df[(df['year'] == '2012-2013') & (df['team'] == 'A')]['team'].nunique()",
                 "result = df[(df['year'] >= 2000) & (df['year'] <= 2010)].shape[0]"):
        assert contradictory_filter(ast.parse(kept)) is None, kept


def test_a_regression_whose_response_is_another_column_than_the_question_names_goes_back():
    question = ("Fit a multiple regression and give the gas price coefficient.\nConstraints: Ordinary least squares with an "
                "intercept of approve on gasprice and unemploy, over all rows.")
    swapped = "m = smf.ols('gasprice ~ approve + unemploy', data=df).fit()\nresult = m.params['approve']"
    found = swapped_response(question, ast.parse(swapped), COLUMNS)
    assert found and "approve ~ gasprice" in found
    assert misfit(question, swapped)
    right = "m = smf.ols('approve ~ gasprice + unemploy', data=df).fit()\nresult = m.params['gasprice']"
    assert swapped_response(question, ast.parse(right), COLUMNS) is None
    arrays = "m = sm.OLS(df['shareA'], sm.add_constant(df[['voteA']])).fit()\nresult = m.params['voteA']"
    assert swapped_response("Regression of voteA on shareA: the slope?", ast.parse(arrays), COLUMNS)
    assert swapped_response("Regression of voteA on shareA: the slope?", ast.parse(
        "m = sm.OLS(df['voteA'], sm.add_constant(df[['shareA']])).fit()\nresult = m.params['shareA']"), COLUMNS) is None
    assert swapped_response("How does salary depend on age?", ast.parse(swapped), COLUMNS) is None  # no "of Y on X"
    right_way = ast.parse(right.replace("result", "r"))
    for question in ("Use an OLS regression to estimate the effects of gasprice on approve.",
                     "What are the impacts of gasprice on approve? Fit a regression.",
                     "Fit a regression for the association of gasprice on approve."):
        assert swapped_response(question, right_way, COLUMNS) is None, question
    assert swapped_response("Regress approve on gasprice and unemploy.", ast.parse(swapped), COLUMNS)


def test_a_text_test_the_question_negates_but_the_code_keeps_goes_back_and_is_negated():
    """"device name not ending with ' landscape'" filtered as ``df['device'].str.endswith(' landscape')``
    keeps exactly the rows left out (P 10155, 10172, seen); the after-misfit mend negates the test."""
    import pandas as pd

    from dsagent.workflows.common.fit.negation import kept_text_tests
    from dsagent.workflows.common.mends import mend_facts, mend_misfit

    question = ("Which upright device has the widest viewport?\nConstraints: Use the upright descriptors (device name not "
                "ending with ' landscape').")
    code = "d = df[df['device'].str.endswith(' landscape')]\nresult = d.loc[d['width'].idxmax(), 'device']"
    assert [ast.unparse(n) for n in kept_text_tests(question, ast.parse(code))] == ["df['device'].str.endswith(' landscape')"]
    shown = {"result_type": "str", "result_str": "Pad landscape"}
    assert "~df['device'].str.endswith(' landscape')" in (result_misfit(question, code, shown, columns=["device", "width"]) or "")
    frame = pd.DataFrame({"device": ["Pad", "Pad landscape", "Phone"], "width": [800, 1200, 400]})
    mended, label = mend_misfit(question, code, shown, mend_facts({"t": frame}))
    assert label == "left-out rows dropped"
    ns = {"df": frame}
    exec(mended, ns)  # noqa: S102
    assert ns["result"] == "Pad"
    for kept in ("d = df[~df['device'].str.endswith(' landscape')]", "d = df[df['device'].str.endswith(' landscape') == False]",
                 "m = df['device'].str.endswith(' landscape')\nd = df[~m]"):
        assert kept_text_tests(question, ast.parse(kept)) == [], kept
    for other in ("Use the descriptors ending with ' landscape'.", "Devices that do not contain 'Pad'."):
        assert kept_text_tests(other, ast.parse(code)) == [], other
    assert kept_text_tests("Names that do not contain 'Pad'.", ast.parse("d = df[df['device'].str.contains('Pad')]"))


def test_membership_the_question_negates_goes_back_negated():
    """"in the 2022 edition but not in the 2018 edition" counted with an ``isin`` of the 2018 rows
    kept as it is (P 10153, seen: those in both were counted)."""
    from dsagent.workflows.common.fit.negation import kept_text_tests

    question = "How many constants appear in the 2022 edition but not in the 2018 edition?"
    code = "result = df[df['edition'] == 2022]['quantity'].isin(df[df['edition'] == 2018]['quantity']).sum()"
    found = kept_text_tests(question, ast.parse(code))
    assert [ast.unparse(n)[:40] for n in found] == ["df[df['edition'] == 2022]['quantity'].is"]
    right = "result = (~df[df['edition'] == 2022]['quantity'].isin(df[df['edition'] == 2018]['quantity'])).sum()"
    assert kept_text_tests(question, ast.parse(right)) == []
    assert kept_text_tests("How many 2022 constants are also in the 2018 edition?", ast.parse(code)) == []


def test_a_negated_test_counted_by_subtraction_is_right_and_a_counted_one_is_mended_whole():
    """``len(df) - df['name'].str.startswith('A').sum()`` counts the others: right as written. A
    kept ``isin(…).sum()`` is negated whole, ``(~….isin(…)).sum()`` (not ``~(… .sum())``)."""
    import pandas as pd

    from dsagent.workflows.common.fit.negation import kept_text_tests
    from dsagent.workflows.common.mends import mend_facts, mend_misfit

    for right in ("result = int(len(df) - df['name'].str.startswith('A').sum())",
                  "s = df['name']\nresult = len(s) - s.str.startswith('A').sum()",
                  "result = (df['name'].str.startswith('A') == 0).sum()"):
        assert kept_text_tests("How many names do not start with 'A'?", ast.parse(right)) == [], right
    frame = pd.DataFrame({"edition": [2022, 2022, 2022, 2018, 2018], "quantity": ["a", "b", "c", "a", "x"]})
    question = "How many constants appear in the 2022 edition but not in the 2018 edition?"
    code = "result = df[df['edition'] == 2022]['quantity'].isin(df[df['edition'] == 2018]['quantity']).sum()"
    mended, _ = mend_misfit(question, code, {"result_type": "int", "result_str": "1"}, mend_facts({"t": frame}))
    ns = {"df": frame}
    exec(mended, ns)  # noqa: S102
    assert ns["result"] == 2
