"""Shares of rows computed over the wrong things (``fit.shares``): a column's sum over a row count
("the percentage of records with rain" as 100 × the mean rainfall), and a share over every row
where the question keeps only the rows whose column is present. Each goes back through
``result_misfit``; the second is mended by code (``as_asked.present_rows``) when the counted rows
are those of a comparison on that column."""

import ast

import pandas as pd
import pytest

from dsagent.workflows.common.fit import result_misfit
from dsagent.workflows.common.fit.shares import present_column, sum_as_share
from dsagent.workflows.common.mends.as_asked import present_rows
from dsagent.workflows.common.mends.facts import MendFacts

SHOWN = {"result_type": "float", "result_str": "0.4469"}
COLUMNS = ["precip", "delay", "origin", "late"]
VALUES = {"origin": frozenset({"A", "B"}), "late": frozenset({0, 1})}


def misfit(question: str, code: str) -> str | None:
    return result_misfit(question, code, SHOWN, columns=COLUMNS, values=VALUES)


@pytest.mark.parametrize("code", ["result = 100 * df['precip'].sum() / df.shape[0]\n",
                                  "result = {'share': df['precip'].sum() / len(df) * 100}\n",
                                  "result = df['precip'].sum() / df['precip'].count()\n"])
def test_a_columns_sum_over_a_row_count_is_no_share_of_rows(code):
    question = "In what percentage of the hourly records was there any precipitation (precip > 0)?"
    found = misfit(question, code)
    assert found and "df['precip'].sum()" in found and "not a share of rows" in found


@pytest.mark.parametrize("question,code", [
    ("In what percentage of the hourly records was there any precipitation?", "result = 100 * (df['precip'] > 0).sum() / len(df)\n"),
    ("What percentage of the rows are late?", "result = 100 * df['late'].sum() / len(df)\n"),  # a 0/1 column: its sum counts rows
    ("What share of all the precipitation fell at A?", "result = df.loc[df['origin'] == 'A', 'precip'].sum() / df['precip'].sum()\n"),
    ("What is the mean precipitation per record?", "result = df['precip'].sum() / len(df)\n"),  # no share asked
    ("What is the average precip, as a percentage?", "result = df['precip'].sum() / len(df)\n"),  # a mean asked
])
def test_shares_of_rows_and_of_totals_are_left_alone(question, code):
    assert sum_as_share(question, ast.parse(code), VALUES) is None


PRESENT = ("What percentage of the flights that arrived were more than 15 minutes late?\nConstraints: Use only rows where "
           "delay is present (not missing). Give the percentage of those rows.")
ALL_ROWS = "result = {'late_share': 100 * df[df['delay'] > 15].shape[0] / df.shape[0]}\n"


def test_a_share_over_every_row_where_the_question_keeps_the_present_ones_is_mended():
    assert present_column(PRESENT, COLUMNS) == "delay"
    found = misfit(PRESENT, ALL_ROWS)
    assert found and "delay" in found and "present" in found
    mended = present_rows(PRESENT, ALL_ROWS, ast.parse(ALL_ROWS), {}, MendFacts(columns=tuple(COLUMNS)))
    assert mended == ALL_ROWS.replace("/ df.shape[0]", "/ df['delay'].notna().sum()")
    frame = pd.DataFrame({"delay": [20.0, 5.0, None, 30.0], "origin": ["A", "B", "A", "B"]})
    ns = {"df": frame}
    exec(mended, ns)  # noqa: S102
    assert ns["result"]["late_share"] == pytest.approx(100 * 2 / 3)


@pytest.mark.parametrize("question,code", [
    (PRESENT, "d = df.dropna(subset=['delay'])\nresult = 100 * (d['delay'] > 15).sum() / len(d)\n"),
    (PRESENT, "result = 100 * (df['delay'] > 15).sum() / df['delay'].notna().sum()\n"),
    ("What percentage of the flights were more than 15 minutes late?", ALL_ROWS),  # no rows kept by presence
])
def test_shares_over_the_present_rows_are_left_alone(question, code):
    assert "present" not in (misfit(question, code) or "")


def test_a_share_whose_counted_rows_test_another_column_goes_back_unmended():
    code = "result = 100 * df[df['origin'] == 'A'].shape[0] / df.shape[0]\n"
    assert misfit(PRESENT, code)
    assert present_rows(PRESENT, code, ast.parse(code), {}, MendFacts(columns=tuple(COLUMNS))) is None


RATE = "Which of the origins had the highest share of cancelled flights?\nConstraints: a flight is cancelled when delay is missing."


@pytest.mark.parametrize("code,mended", [
    ("result = df.loc[df['delay'].isna(), 'origin'].value_counts().idxmax()\n",
     "result = (df.loc[df['delay'].isna(), 'origin'].value_counts() / df['origin'].value_counts()).idxmax()\n"),
    ("result = {'worst': df[df['delay'].isna()]['origin'].value_counts().idxmax()}\n",
     "result = {'worst': (df[df['delay'].isna()]['origin'].value_counts() / df['origin'].value_counts()).idxmax()}\n"),
])
def test_the_group_with_most_rows_where_the_highest_share_is_asked_is_divided_by_its_rows(code, mended):
    """"The highest share of cancelled flights" picked as the origin with the most cancelled rows
    (R 10245, seen): each group's count divided by all its rows before the pick."""
    found = misfit(RATE, code)
    assert found and "most such rows" in found
    assert present_rows(RATE, code, ast.parse(code), {}, MendFacts()) is None
    from dsagent.workflows.common.mends.as_asked import share_per_group

    assert share_per_group(RATE, code, ast.parse(code), {}, MendFacts()) == mended
    frame = pd.DataFrame({"origin": ["A", "A", "A", "A", "B"], "delay": [None, None, 1.0, 2.0, None]})
    ns = {"df": frame}
    exec(mended, ns)  # noqa: S102
    assert (ns["result"] if isinstance(ns["result"], str) else ns["result"]["worst"]) == "B"  # A has more, B the higher share


@pytest.mark.parametrize("question", [
    "Which origin had the most cancelled flights, and what share of its flights was that?",  # the count is ranked
    "What share of the flights were cancelled?",
])
def test_a_count_ranked_as_asked_is_left_alone(question):
    code = "result = df.loc[df['delay'].isna(), 'origin'].value_counts().idxmax()\n"
    assert "most such rows" not in (misfit(question, code) or "")
