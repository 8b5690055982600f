"""Mends by code of a result that does not fit the question (fit_mends): each applies only to its
shape, and a workflow keeps the mended code only when its result then fits."""

import pandas as pd
import pytest

from dsagent.workflows.common.fit import result_misfit
from dsagent.workflows.common.fit_mends import MendFacts, mend_chain, mend_facts, mend_misfit, mend_yes_no

SERIES = "0      5.94\n1     16.05\n2     16.66\n...\nLength: 244, dtype: float64"
FACTS = MendFacts(text_columns=["country", "continent", "sex"], year_columns=["year"], yes_no={"smoker": "Yes"})


def test_facts_find_year_and_yes_no_columns():
    frame = pd.DataFrame({"year": [1952, 2007], "smoker": ["No", "Yes"], "sex": ["F", "M"], "n": [1, 2]})
    facts = mend_facts({"t": frame})
    assert facts.year_columns == ["year"] and facts.yes_no == {"smoker": "Yes"} and "sex" in facts.text_columns
    assert mend_facts({"a": frame, "b": frame}).single_frame is False


def test_sum_of_a_yes_no_column_counts_the_yes():
    code = "share = df['smoker'].sum() / df['smoker'].count() * 100\nresult = df[df.day == 'Sun']['smoker'].mean()"
    mended = mend_yes_no(code, FACTS)
    assert "(df['smoker'] == 'Yes').sum() / df['smoker'].count()" in mended
    assert "(df[df.day == 'Sun']['smoker'] == 'Yes').mean()" in mended
    assert mend_yes_no("result = df['tip'].sum()", FACTS) == "result = df['tip'].sum()"
    mapped = "df['smoker'] = df['smoker'].map({'Yes': 1, 'No': 0})\nresult = df['smoker'].sum()"
    assert mend_yes_no(mapped, FACTS) == mapped


def test_a_per_row_series_for_what_is_the_mean_gets_the_mean():
    code = "result = df['tip'] / df['total_bill'] * 100"
    mended, label = mend_misfit("What is the mean tip percentage?", code, {"result_type": "Series", "result_str": SERIES}, FACTS)
    assert mended.endswith("result = result.mean()\n") and "aggregate" in label
    grouped = "result = df.groupby('day')['tip'].mean()"
    assert mend_misfit("What is the mean tip?", grouped, {"result_type": "Series", "result_str": SERIES}, FACTS) is None
    assert mend_misfit("Which day has most tips?", code, {"result_type": "Series", "result_str": SERIES}, FACTS) is None


def test_the_year_the_question_names_is_filtered_first():
    code = "df = datasets['gapminder']\nresult = df[df['continent'] == 'Asia']['pop'].idxmax()"
    mended, label = mend_misfit("Which Asian country had the largest population in 1977?", code,
                                {"result_type": "int64", "result_str": "1000"}, FACTS)
    assert mended.splitlines()[1] == "df = df[df['year'] == 1977]" and label == "year filter added"
    for question in ("How many countries since 1977?", "Population between 1952 and 1977?"):
        assert mend_misfit(question, code, {"result_type": "int64", "result_str": "3"}, FACTS) is None
    two_years = MendFacts(text_columns=[], year_columns=["year", "birth_year"])
    assert mend_misfit("Population in 1977?", code, {"result_type": "int64", "result_str": "3"}, two_years) is None


def test_one_groups_total_for_which_compares_every_group():
    code = "result = df[df['sex'] == 'Female']['tip'].sum()"
    question = "Which sex left more in tips in total?"
    finding = result_misfit(question, code, {"result_type": "float64", "result_str": "246.51"}, [], ["sex"])
    assert finding.startswith("ResultDoesNotFitQuestion") and "'sex'" in finding
    mended, _ = mend_misfit(question, code, {"result_type": "float64", "result_str": "246.51"}, FACTS)
    assert mended == "result = df.groupby('sex')['tip'].sum().idxmax()\n"
    fewer, _ = mend_misfit("Which sex left less in tips?", code, {"result_type": "float64", "result_str": "1"}, FACTS)
    assert fewer.strip().endswith(".idxmin()")


def test_first_row_for_a_mean_goes_back_and_the_precedence_is_mended():
    code = ("s = df[df['species'] == 'setosa']\nresult = s['petal_length'] / s['petal_width'].mean()\n"
            "result = result.iloc[0]")
    question = "What is the mean ratio of petal_length to petal_width for the setosa species?"
    finding = result_misfit(question, code, {"result_type": "float64", "result_str": "5.74"})
    assert finding and "first row" in finding
    mended, _ = mend_misfit(question, code, {"result_type": "float64", "result_str": "5.74"}, FACTS)
    assert "(s['petal_length'] / s['petal_width']).mean()" in mended and "iloc" not in mended
    series = "result = df[m]['petal_length'] / df[m]['petal_width'].mean()"
    mended, _ = mend_misfit(question, series, {"result_type": "Series", "result_str": SERIES}, FACTS)
    assert mended.strip() == "result = (df[m]['petal_length'] / df[m]['petal_width']).mean()"
    ranked = "result = df.sort_values('x')['x'].iloc[0]"
    assert result_misfit("What is the mean x?", ranked, {"result_type": "float64", "result_str": "1"}) is None


def test_the_chain_keeps_a_mend_only_when_the_result_then_fits():
    class Run:
        success = True

    runs = []

    def run(code):
        runs.append(code)
        return Run(), {"result_type": "int64", "result_str": "24"} if "loc" not in code else {"result_type": "str", "result_str": "China"}

    def misfit(code, result):
        return None if result["result_type"] == "str" else "ResultDoesNotFitQuestion: row label"

    code = "result = df[df['continent'] == 'Asia']['pop'].idxmax()"
    question = "Which Asian country had the largest population in 1977?"
    facts = MendFacts(text_columns=["country", "continent"], year_columns=["year"])
    out = mend_chain(question, code, {"result_type": "int64", "result_str": "1000"}, facts, run, misfit)
    assert out is not None and out[3] == ["year filter added", "row label → name"]
    assert out[0].endswith("result = df.loc[result, 'country']\n") and len(runs) == 2
    never = mend_chain(question, code, {"result_type": "int64", "result_str": "1000"}, facts, run, lambda c, r: "still")
    assert never is None


@pytest.fixture(scope="module")
def tips_session(tmp_path_factory):
    """One sandbox for the module, in a home of its own: a module fixture starts before the
    per-test ``hermetic`` one, so it would otherwise use (and share) the real ``~/.dsagent``."""
    import plotly.data

    from dsagent.session import Session

    patch = pytest.MonkeyPatch()
    patch.setenv("DSAGENT_HOME", str(tmp_path_factory.mktemp("home")))
    try:
        with Session({"tips": plotly.data.tips()}, model="scripted:none", workspace_root=tmp_path_factory.mktemp("ws")) as session:
            yield session
    finally:
        patch.undo()


@pytest.mark.parametrize("question,code,expected", [
    ("What is the mean tip percentage, tip divided by total_bill times 100?", "result = df['tip'] / df['total_bill'] * 100", 16.0803),
    ("What percentage of the parties are smokers?", "result = df['smoker'].sum() / len(df) * 100", 38.1148),
    ("Which sex left more in tips in total?", "result = df[df['sex'] == 'Female']['tip'].sum()", "Male"),
])
def test_mended_code_gives_the_right_answer_in_the_sandbox(tips_session, question, code, expected):
    """End to end through the real sandbox: the model's code as it came, the workflow's mends, the answer."""

    def run(c):
        r = tips_session.sandbox.run(c)
        return r, {"result_type": r.result_type, "result_str": r.result}

    facts = mend_facts(tips_session.datasets)
    code = mend_yes_no(code, facts)
    outcome, er = run(code)
    assert outcome.success, outcome.error
    fits = lambda c, r: result_misfit(question, c, r, [], facts.text_columns)  # noqa: E731
    if fits(code, er):
        mended = mend_chain(question, code, er, facts, run, fits)
        assert mended is not None
        er = mended[2]
    if isinstance(expected, str):
        assert er["result_str"].strip() == expected
    else:
        assert float(er["result_str"]) == pytest.approx(expected, abs=1e-3)


def test_one_columns_mean_for_which_column_compares_the_named_columns():
    facts = MendFacts(columns=["date", "GOOG", "AAPL", "AMZN"], text_columns=["date"])
    question = "Which stock column has the highest mean value: GOOG, AAPL or AMZN?"
    mended, label = mend_misfit(question, "result = df['GOOG'].mean()", {"result_type": "float64", "result_str": "1.04"}, facts)
    assert mended == "result = df[['GOOG', 'AAPL', 'AMZN']].mean().idxmax()\n" and label == "the named columns compared"
    assert mend_misfit("What is the mean of GOOG and AAPL?", "result = df['GOOG'].mean()",
                       {"result_type": "float64", "result_str": "1.04"}, facts) is None
