"""Two before-run mends of row masks and column names: comparisons joined by & / | without their
brackets (Python binds & before !=, so the code fails), and a column name written with its
punctuation or case off (the error's hint names the right one, and small models write it wrong
again)."""

from __future__ import annotations

import pandas as pd
import pytest

from dsagent.workflows.common.mends.facts import mend_facts
from dsagent.workflows.common.mends.masks import mend_chained_mask
from dsagent.workflows.common.mends.columns import mend_column_spelling, mend_strip_on_numbers
from dsagent.workflows.common.mends.before_run import mend_before_run


def _run(code: str, frame: pd.DataFrame):
    ns = {"df": frame, "pd": pd}
    exec(code, ns)  # noqa: S102 — test code over a test frame
    return ns["result"]


FRAME = pd.DataFrame({"region": ["UK", "Scotland", "Fife", "Perth"], "n": [10, 5, 2, 3]})


@pytest.mark.parametrize("written, meant, value", [
    ("result = len(df[df['region'] != 'UK' & df['region'] != 'Scotland'])\n",
     "result = len(df[(df['region'] != 'UK') & (df['region'] != 'Scotland')])\n", 2),
    ("result = df[df['n'] > 2 & df['n'] < 10]['n'].sum()\n",
     "result = df[(df['n'] > 2) & (df['n'] < 10)]['n'].sum()\n", 8),
    ("result = len(df[df['n'] == 2 | df['region'] == 'UK' | df['n'] >= 5])\n",
     "result = len(df[(df['n'] == 2) | (df['region'] == 'UK') | (df['n'] >= 5)])\n", 3),
])
def test_comparisons_joined_without_brackets_are_bracketed(written, meant, value):
    with pytest.raises((TypeError, ValueError)):
        _run(written, FRAME)  # as written: 'UK' & Series, or the truth value of a Series
    assert mend_chained_mask(written) == meant
    assert _run(meant, FRAME) == value


def test_a_number_joined_to_a_mask_is_its_comparison_s_not_a_bitwise_and():
    written = "result = len(df[df['n'] > 2 & df['region'].isin(['Fife', 'Perth'])])\n"
    assert _run(written, FRAME) == 4  # as written: df['n'] > (2 & mask), silently every row
    meant = mend_chained_mask(written)
    assert meant == "result = len(df[(df['n'] > 2) & (df['region'].isin(['Fife', 'Perth']))])\n"
    assert _run(meant, FRAME) == 1


@pytest.mark.parametrize("code", [
    "result = len(df[(df['n'] > 2) & (df['n'] < 10)])\n",  # bracketed already
    "result = 1 < df['n'].max() < 20\n",  # a chained comparison of numbers
    "result = (df['n'] & 4) == 4\n",  # bit flags
    "ok = 0 < x & y < 5\n",  # names, not columns: nothing says these are masks
])
def test_other_comparisons_are_left_alone(code):
    assert mend_chained_mask(code) == code


SCOT = pd.DataFrame({"Region": ["A", "B", "C"], "Persons per sq km": [1.0, 2.0, 4.0],
                     "Standardised mortality ratio (UK=100) (SMR)<2>": [90.0, 100.0, 130.0], "Total": [1, 2, 3]})


def test_a_column_written_with_its_punctuation_off_is_the_column():
    facts = mend_facts({"t": SCOT})
    code = ("result = df['persons per sq km'].corr(df['Standardised mortality ratio (UK=100) (SMR)<2'])\n"
            "clean = df.dropna(subset=['Standardised mortality ratio (UK=100) (SMR)<2'])\n")
    mended = mend_column_spelling(code, facts)
    assert mended == ("result = df['Persons per sq km'].corr(df['Standardised mortality ratio (UK=100) (SMR)<2>'])\n"
                      "clean = df.dropna(subset=['Standardised mortality ratio (UK=100) (SMR)<2>'])\n")
    assert _run(mended, SCOT) == pytest.approx(SCOT.iloc[:, 1].corr(SCOT.iloc[:, 2]))
    with pytest.raises(KeyError):
        _run(code, SCOT)


@pytest.mark.parametrize("code", [
    "df['total'] = df['Persons per sq km'] * 2\nresult = df['total'].max()\n",  # a column the code makes
    "out = df.assign(total=1)\nresult = out['total'].sum()\n",
    "out = df.rename(columns={'Total': 'total'})\nresult = out['total'].sum()\n",
    "result = df.groupby('Region')['Total'].sum().reset_index(name='total')['total'].max()\n",
    "result = len(df[df['Region'] == 'total'])\n",  # a value compared, not a column named
    "result = df['Totals'].sum()\n",  # a letter more is another name: no guess here
    "df.columns = df.columns.str.lower()\nresult = df['persons per sq km'].sum()\n",  # renamed by a rule
    "df = df.rename(columns=str.lower)\nresult = df['persons per sq km'].sum()\n",
    "df = df.rename(str.lower, axis=1)\nresult = df['persons per sq km'].sum()\n",
])
def test_names_the_code_makes_or_values_are_left_alone(code):
    assert mend_column_spelling(code, mend_facts({"t": SCOT})) == code


@pytest.mark.parametrize("code", [
    "df = datasets['committee']\nresult = df['COMMITTEE'].nunique()\n",  # a dataset's id, not a column
    "per = df.pivot_table(index='Region', columns='Grade', values='Total')\nresult = (per['a'] - per['b']).max()\n",  # values made labels
    "long = df.melt(id_vars='Region')\nresult = long['value'].sum()\n",  # the names pandas makes
    "result = df.groupby('Region').size().reset_index()['size'].max()\n",
])
def test_ids_values_and_names_pandas_makes_are_left_alone(code):
    """From an audit of the mends over 516 correct label functions (seen batches C-P): a table whose
    id is a column's name in other case, a pivot's columns that are values, melt's 'value'."""
    frame = pd.DataFrame({"Region": ["x", "y"], "COMMITTEE": ["p", "q"], "Grade": ["a", "b"], "Total": [1, 2],
                          "Value": [3, 4], "Size": [5, 6], "A": [1, 2], "B": [3, 4]})
    assert mend_column_spelling(code, mend_facts({"committee": frame})) == code


def test_without_facts_nothing_changes():
    code = "result = df['persons per sq km'].sum()\n"
    assert mend_column_spelling(code, None) == code


WEIGHTS = pd.DataFrame({"Instrument": [1, 1, 2, 2], "AgWt": [107.86815, 107.86817, 107.86813, 107.86813]})


def test_a_difference_of_one_column_s_aggregates_is_scaled_whole():
    from dsagent.workflows.common.mends.arithmetic import mend_scaled_difference

    code = ("result = round(df[df['Instrument'] == 1]['AgWt'].mean() - df[df['Instrument'] == 2]['AgWt'].mean() * 10000000, 1)\n")
    assert _run(code, WEIGHTS) < -1e9  # as written: the second mean alone was scaled
    mended = mend_scaled_difference(code)
    assert mended == ("result = round((df[df['Instrument'] == 1]['AgWt'].mean() - df[df['Instrument'] == 2]['AgWt'].mean()) "
                      "* 10000000, 1)\n")
    assert _run(mended, WEIGHTS) == pytest.approx(300.0)
    for kept in ("result = df['AgWt'].mean() - df['Instrument'].mean() * 100\n",  # two columns: maybe meant
                 "result = df['AgWt'].mean() - df['AgWt'].mean() * 2\n",  # twice, not a unit
                 "result = (df['AgWt'].max() - df['AgWt'].min()) * 100\n"):
        assert mend_scaled_difference(kept) == kept


VOTES = pd.DataFrame({"area": ["North", "South", "East"], "votes": [4749, 1200, 980], "share": [57.3, 42.7, 50.0]})
"""As the loader reads a file that writes "4,749" and "57.3 %"."""


@pytest.mark.parametrize("code, value", [
    ("result = df['votes'].str.replace(',', '').astype(int).sum()", 6929),
    ("df['share'] = df['share'].str.replace('%', '').str.strip().astype(float) / 100\nresult = df['share'].max()", 0.573),
    ("result = pd.to_numeric(df.loc[df['area'] != 'East', 'votes'].str.replace(r'[,\\s]', '', regex=True)).sum()", 5949),
    ("result = df.share.str.rstrip(' %').astype(float).min()", 42.7),
])
def test_a_number_column_stripped_as_text_is_read_as_the_numbers(code, value):
    with pytest.raises(AttributeError):
        _run(code, VOTES.copy())
    assert _run(mend_strip_on_numbers(code, mend_facts({"v": VOTES})), VOTES.copy()) == pytest.approx(value)


@pytest.mark.parametrize("code", [
    "result = df['area'].str.replace(',', '')",                 # a text column
    "result = df['votes'].str.replace('1', '9')",               # not a strip of separators
    "result = df['votes'].astype(str).str.replace(',', '')",    # made text first: runs as written
])
def test_other_str_calls_are_left_alone(code):
    assert mend_strip_on_numbers(code, mend_facts({"v": VOTES})) == code


SECTORS = pd.DataFrame({"sector": ["Food", "Metals", "Other sectors", "All industries"], "value": [5, 7, 2, 14]})


@pytest.mark.parametrize("code", [
    "result = df.drop(['Other sectors', 'All industries'])['value'].sum()",
    "result = df.drop(index=['All industries', 'Other sectors'])['value'].sum()",
    "df.drop(['Other sectors', 'All industries'], inplace=True)\nresult = df['value'].sum()",
    "d = df[df['value'] > 0]\nresult = d.drop(['Other sectors', 'All industries'])['value'].sum()",
    # what a filter computes leaves the rows' numbers as they are
    "d = df[df['value'] > df['value'].std() - 99]\nresult = d.drop(['Other sectors', 'All industries'])['value'].sum()",
    "top = df.groupby('sector')['value'].sum().idxmax()\nd = df[df['sector'] != top]\ne = d.copy()\n"
    "e.drop(['Other sectors'], inplace=True)\nresult = e['value'].sum()",
])
def test_rows_dropped_by_a_columns_value_as_an_index_label_are_dropped_by_the_value(code):
    """``df.drop(['Other sectors', …])`` on a table whose index is the row number fails ("not found in
    axis", batch N, seen): the rows holding those values of the one text column are left out."""
    with pytest.raises(KeyError):
        _run(code, SECTORS.copy())
    from dsagent.workflows.common.mends.rows import mend_drop_values

    assert _run(mend_drop_values(code, mend_facts({"s": SECTORS})), SECTORS.copy()) == 12


@pytest.mark.parametrize("code", [
    "result = df.drop(columns=['value'])",          # columns
    "result = df.drop(['value'], axis=1)",          # columns by axis
    "result = df.drop([0, 1])['value'].sum()",      # row numbers: right as written
    "result = df.set_index('sector').drop(['Food'])['value'].sum()",  # an index of names: right as written
    "result = df.drop(['Nowhere'])",                # no column holds it
    # a grouped or counted result's index holds the names: drop() by them is right as written
    "g = df.groupby('sector')['value'].sum()\nresult = g.drop(['All industries', 'Other sectors']).idxmax()",
    "counts = df['sector'].value_counts()\nresult = counts.drop('All industries')",
    "t = df.pivot_table(index='sector', values='value')\nresult = t.drop(['Food'])",
    "m = df.melt(id_vars='value')\nresult = m.drop(['Food'])",  # other columns
    # the names made the index another way (audit of the mends on correct code)
    "df.index = df.pop('sector')\ndf = df.drop(['Food'])\nresult = df['value'].sum()",
    "df = df.set_axis(df['sector'], axis=0)\nresult = df.drop(['Food'])['value'].sum()",
])
def test_other_drops_are_left_alone(code):
    from dsagent.workflows.common.mends.rows import mend_drop_values

    assert mend_drop_values(code, mend_facts({"s": SECTORS})) == code


MISSING = pd.DataFrame({"origin": ["JFK", "JFK", "LGA", "JFK"], "delay": [5.0, None, None, float("nan")]})


@pytest.mark.parametrize("written, meant, value", [
    ("result = df[(df['origin'] == 'JFK') & (df['delay'] == None)].shape[0]\n",
     "result = df[(df['origin'] == 'JFK') & (pd.isna(df['delay']))].shape[0]\n", 2),  # its brackets kept
    ("result = int((df['delay'] != np.nan).sum())\n", "result = int((pd.notna(df['delay'])).sum())\n", 1),
    ("result = len(df[df.delay == float('nan')])\n", "result = len(df[pd.isna(df.delay)])\n", 3),
    ("result = df.loc[df['delay'].shift() == pd.NaT, 'origin'].tolist()\n",
     "result = df.loc[pd.isna(df['delay'].shift()), 'origin'].tolist()\n", ["JFK", "LGA", "JFK"]),
])
def test_a_comparison_with_a_missing_value_is_the_test_for_one(written, meant, value):
    """``df['x'] == None`` (or ``np.nan``, ``float('nan')``, ``pd.NaT``) is False on every row, since
    pandas never finds a missing value equal to anything (a check counted 0 cancelled flights so):
    written as ``pd.isna(df['x'])``, ``!=`` as ``pd.notna``."""
    import numpy as np

    from dsagent.workflows.common.mends.masks import mend_missing_compare

    assert _run(written.replace("np.nan", "float('nan')"), MISSING) != value  # as written, the comparison misses
    mended = mend_missing_compare(written)
    assert mended == meant
    ns = {"df": MISSING, "pd": pd, "np": np}
    exec(mended, ns)  # noqa: S102
    assert ns["result"] == value
    assert mend_before_run(written)[1] == ["a comparison with a missing value as isna"]


@pytest.mark.parametrize("kept", [
    "if result == None:\n    result = 0\n",  # a plain name: Python's own None
    "result = df['delay'].isna().sum()\n",
    "result = df[df['origin'] is not None]\n",  # `is` is Python identity: not rewritten
    "result = (df['delay'] == 5).sum()\n",
])
def test_other_comparisons_are_left_as_written(kept):
    from dsagent.workflows.common.mends.masks import mend_missing_compare

    assert mend_missing_compare(kept) == kept


@pytest.mark.parametrize("written, meant", [
    ("result = df[df['n'] > 2]['n'].mean() - df['n'].mean().round(2)\n", "result = round(df[df['n'] > 2]['n'].mean() - df['n'].mean(), 2)\n"),
    ("result = {'gap': df.n.max() + round(df.n.min(), 1)}\n", "result = {'gap': round(df.n.max() + df.n.min(), 1)}\n"),
])
def test_a_difference_rounded_on_its_second_side_is_rounded_whole(written, meant):
    """``a.mean() - b.mean().round(2)`` (Q 10186, seen): the rounding binds to b alone."""
    from dsagent.workflows.common.mends.arithmetic import mend_rounded_side

    assert mend_rounded_side(written) == meant
    if "gap" not in meant:
        thirds = pd.DataFrame({"n": [1, 3, 3]})  # 3 - 2.33: 0.6699999999999999 as written, 0.67 meant
        assert _run(meant, thirds) == 0.67 and _run(written, thirds) != 0.67


@pytest.mark.parametrize("kept", [
    "result = round(df['n'].mean(), 2) - round(df['n'].min(), 2)\n",  # both sides rounded: as written
    "result = df['n'].mean() - 1.5\n",
    "result = x - df['n'].mean().round(2)\n",  # a plain name: not an aggregate
])
def test_other_roundings_are_left_alone(kept):
    from dsagent.workflows.common.mends.arithmetic import mend_rounded_side

    assert mend_rounded_side(kept) == kept
