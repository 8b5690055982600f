"""What a cell sees and what it leaves behind: data, results, figures, tables, errors."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dsagent.sandbox import Sandbox

from .conftest import TEST_LIMITS, assert_recovers

# Plotly and matplotlib may still be importing on a worker that just (re)started: on a loaded
# two-core machine that alone can pass the 3 s of TEST_LIMITS. These tests are about figures.
PLOTTING = replace(TEST_LIMITS, wall_s=60.0)


def test_df_and_datasets_are_loaded(sandbox: Sandbox) -> None:
    res = sandbox.run("result = (list(datasets), df.shape, df is datasets['sales'])")
    assert res.success, res.error
    assert res.result == "(['sales'], (3, 2), True)"


def test_namespace_persists_but_result_is_reset(sandbox: Sandbox) -> None:
    assert sandbox.run("total = df['amount'].sum(); result = total").result == "60"
    res = sandbox.run("x = total * 2")
    assert res.success and res.result is None and res.result_type is None
    assert sandbox.run("result = x").result == "120"


def test_a_helper_a_cell_shadowed_with_a_value_is_back_for_the_next_cell(sandbox: Sandbox) -> None:
    res = sandbox.run("sql = 'SELECT 1'\npd = 3\nresult = (sql, pd)")
    assert res.success and res.result == "('SELECT 1', 3)"  # the cell itself sees what it bound
    res = sandbox.run("result = (callable(sql), pd.__name__)")
    assert res.success and res.result == "(True, 'pandas')", res.error
    res = sandbox.run("def sql(q):\n    return 'mine'\nresult = 1")  # a function of its own stays
    assert sandbox.run("result = sql('x')").result == "mine"


def test_dataframe_result_is_shown_and_saved(sandbox: Sandbox) -> None:
    res = sandbox.run("print('summary'); result = df.groupby('region')['amount'].sum()")
    assert res.success, res.error
    assert res.stdout == "summary\n"
    assert res.result_type == "Series" and "north" in res.result
    assert len(res.tables) == 1 and res.tables[0].endswith("_result.csv")
    table = pd.read_csv(res.tables[0])
    assert table["amount"].sum() == 60


def test_plotly_figure_is_saved_as_json(sandbox: Sandbox) -> None:
    res = sandbox.run("fig = px.bar(df, x='region', y='amount')", PLOTTING)
    assert res.success, res.error
    assert len(res.figures) == 1 and res.figures[0].endswith(".json")
    spec = json.loads(Path(res.figures[0]).read_text())
    assert spec["data"][0]["type"] == "bar"
    assert res.output_type == "visualization"
    assert "region" in res.figure_data and "amount" in res.figure_data  # the numbers the chart shows


def test_a_chart_stored_as_result_becomes_the_figure_and_its_numbers_the_result(sandbox: Sandbox) -> None:
    code = ("totals = df.groupby('region', as_index=False)['amount'].sum()\n"
            "result = px.bar(totals, x='region', y='amount', labels={'amount': 'Total'})")
    res = sandbox.run(code, PLOTTING)
    assert res.success, res.error
    assert len(res.figures) == 1 and res.figures[0].endswith(".json")
    assert res.result_type == "DataFrame" and "Total" in res.result and "region" in res.result
    expected = sandbox.run("result = df.groupby('region')['amount'].sum().iloc[0]").result
    assert expected.split(".")[0] in res.result  # the chart's numbers, quotable by the explanation
    assert res.tables  # and saved as a table


def test_matplotlib_figures_are_saved_as_png(sandbox: Sandbox) -> None:
    res = sandbox.run("import matplotlib.pyplot as plt2\nplt2.plot([1, 2, 3])\nfig, ax = plt.subplots(); ax.bar(['a'], [1])", PLOTTING)
    assert res.success, res.error
    assert len(res.figures) == 2 and all(Path(p).read_bytes()[:4] == b"\x89PNG" for p in res.figures)
    after = sandbox.run("result = len(plt.get_fignums())")
    assert after.result == "0"  # closed after each run


def test_heavy_libraries_import_normally(sandbox: Sandbox) -> None:
    code = (
        "import sklearn.linear_model, statsmodels.formula.api as smf2, scipy.stats\n"
        "model = smf.ols('amount ~ C(region)', data=df).fit()\n"
        "result = (type(sklearn.linear_model.LinearRegression()).__name__, float(round(stats.norm.cdf(0), 2)), sns.__name__, go.Figure().__class__.__name__, make_subplots(rows=1, cols=2).__class__.__name__, sm.__name__)"
    )
    # A generous per-run limit: right after a restart these imports take seconds on two cores.
    res = sandbox.run(code, replace(sandbox.limits, wall_s=60))
    assert res.success, res.error
    assert res.result == "('LinearRegression', 0.5, 'seaborn', 'Figure', 'Figure', 'statsmodels.api')"


def test_cells_are_saved(sandbox: Sandbox) -> None:
    res = sandbox.run("result = 'saved'  # marker-42")
    cells = sorted((sandbox.workspace / "cells").glob("cell_*.py"), key=lambda p: int(p.stem.split("_")[1]))
    assert res.success and cells[-1].read_text() == "result = 'saved'  # marker-42"


def test_traceback_is_trimmed_to_user_code(sandbox: Sandbox) -> None:
    res = sandbox.run("def f(x):\n    return x / 0\n\ny = f(1)")
    assert not res.success and res.limit_breached is None
    assert "dsagent" not in res.error and "worker" not in res.error
    assert 'File "<cell' in res.error and "return x / 0" in res.error
    assert res.error.rstrip().endswith("ZeroDivisionError: division by zero")


def test_syntax_error_is_reported(sandbox: Sandbox) -> None:
    res = sandbox.run("result = (1 +")
    assert not res.success and "SyntaxError" in res.error and "dsagent" not in res.error
    assert_recovers(sandbox)


def test_file_not_found_hints_at_loaded_data(sandbox: Sandbox) -> None:
    res = sandbox.run("data = pd.read_csv('other.csv')")
    assert not res.success
    assert "FileNotFoundError" in res.error
    assert "already loaded: use df or datasets['<id>'] (ids: 'sales')" in res.error


def test_reading_a_loaded_file_by_name_returns_the_loaded_dataset(sandbox: Sandbox) -> None:
    # The fixture's file on disk says north=10, south=20; the loaded frame has east=30 too: the
    # reader must hand back the loaded frame (a copy), not read a file.
    res = sandbox.run("data = pd.read_csv('sales.csv'); data['amount'] = 0; result = (len(data), int(df['amount'].sum()))")
    assert res.success, res.error
    assert res.result == "(3, 60)"
    res = sandbox.run("result = pd.read_csv('./data/SALES.csv', usecols=['amount'], nrows=2)['amount'].tolist()")
    assert res.success, res.error
    assert res.result == "[10, 20]"
    res = sandbox.run("result = pd.read_excel('sales.csv', sheet_name=None)['sales'].shape")
    assert res.success and res.result == "(3, 2)", res.error
    res = sandbox.run("result = pd.read_csv(filepath_or_buffer='sales.csv').shape")  # the path by keyword
    assert res.success and res.result == "(3, 2)", res.error


def test_a_path_that_exists_is_read_as_asked(sandbox: Sandbox) -> None:
    res = sandbox.run("pd.DataFrame({'a': [1]}).to_csv('sales.csv', index=False); result = pd.read_csv('sales.csv').columns.tolist()")
    assert res.success, res.error
    assert res.result == "['a']"
    res = sandbox.run("result = pd.read_csv(filepath_or_buffer='sales.csv').columns.tolist()")
    assert res.success and res.result == "['a']", res.error
    sandbox.run("import os; os.remove('sales.csv')")


def test_a_moved_api_gets_the_current_one(sandbox: Sandbox) -> None:
    res = sandbox.run("result = df.append(df)")
    assert not res.success and "has no attribute 'append'" in res.error
    assert res.error.rstrip().endswith("Hint: pandas removed DataFrame/Series.append: use pd.concat([a, b], ignore_index=True).")


@pytest.mark.parametrize("code, hint", [
    ("from sklearn.preprocessing import KNeighborsClassifier", "Hint: KNeighborsClassifier is in sklearn.neighbors: from sklearn.neighbors import KNeighborsClassifier"),
    ("model = LinearRegression()", "Hint: LinearRegression is in sklearn.linear_model: from sklearn.linear_model import LinearRegression"),
    ("from statsmodels.stats.api import chi2_contingency", "Hint: chi2_contingency is in scipy.stats, bound as stats: write stats.chi2_contingency(...) (no import needed)."),
    # looked up in the wrong module: any library name, not a list of known ones
    ("result = scipy.pearsonr([1, 2, 3], [1, 2, 4])", "Hint: pearsonr is in scipy.stats, bound as stats: write stats.pearsonr(...) (no import needed)."),
    ("result = pd.polyfit([1, 2], [3, 4], 1)", "Hint: polyfit is in numpy, bound as np: write np.polyfit(...) (no import needed)."),
    ("result = np.r2_score([1, 2], [1, 2])", "Hint: r2_score is in sklearn.metrics: from sklearn.metrics import r2_score"),
])
def test_a_name_from_the_wrong_module_or_unimported_gets_its_home(sandbox: Sandbox, code: str, hint: str) -> None:
    res = sandbox.run(code, replace(sandbox.limits, wall_s=60))  # the failing import itself loads a library
    assert not res.success and res.error.rstrip().endswith(hint)


def test_a_forgotten_variable_gets_no_library_hint(sandbox: Sandbox) -> None:
    res = sandbox.run("result = X_train.shape")
    assert not res.success and "Hint" not in res.error
    res = sandbox.run("result = np.std_dev([1, 2])")  # no library has that name: nothing to point at
    assert not res.success and "Hint" not in res.error
    res = sandbox.run("result = np.models")  # a word of a docstring ("linear models") is no listing
    assert not res.success and "Hint" not in res.error


def test_key_error_lists_columns(sandbox: Sandbox) -> None:
    res = sandbox.run("result = df['revenue'].sum()")
    assert not res.success and "KeyError" in res.error
    assert "Columns of df are: 'region', 'amount'" in res.error
    assert "the column is named" not in res.error  # 'revenue' is like no column: no guess


def test_key_error_on_a_value_of_a_text_column_names_its_column(sandbox: Sandbox) -> None:
    """A row of a wide table looked up as a column: the hint says which column holds the value."""
    res = sandbox.run("result = df['south']")
    assert not res.success and "'south' is a value of the column 'region' of df" in res.error
    res = sandbox.run("result = df.loc['south', 'amount']")
    assert not res.success and "df[df['region'] == 'south']" in res.error


def test_key_error_on_the_datasets_dict_explains_it(sandbox: Sandbox) -> None:
    res = sandbox.run("result = datasets['sales'][datasets['region'] == 'x']")
    assert not res.success and "KeyError" in res.error
    assert "'region' is a column of df, not a dataset" in res.error


def test_peak_memory_and_duration_are_measured(sandbox: Sandbox) -> None:
    res = sandbox.run("import numpy as np\nbig = np.ones(10_000_000)\nresult = big.sum()\ndel big")
    assert res.success, res.error
    assert res.peak_mb >= 60  # 80 MB array above the baseline
    assert res.duration_s > 0


def test_a_long_result_says_how_long_it_is() -> None:
    from dsagent.sandbox.artifacts import describe_result

    text, kind = describe_result(pd.Series(range(500), name="FamilySize"))
    assert kind == "Series" and text.endswith("Length: 500") and "..." in text
    text, _ = describe_result(pd.DataFrame({"a": range(100), "b": range(100)}))
    assert text.endswith("[100 rows x 2 columns]")
    text, _ = describe_result(pd.Series([1.5, 2.5], index=["x", "y"]))
    assert "Length" not in text  # short results are shown whole


def test_numpy_scalars_in_a_result_are_shown_as_plain_values() -> None:
    from collections import namedtuple

    from dsagent.sandbox.artifacts import describe_result

    pair = namedtuple("pair", "r p")
    value = {"r": np.float64(0.13), "n": np.int64(3), "significant": np.False_, "parts": [np.float32(0.5), (np.int8(1),)],
             "test": pair(np.float64(0.5), np.float64(0.01)), "day": np.datetime64("2015-01-02")}
    text, kind = describe_result(value)
    assert kind == "dict"
    # a namedtuple (like a scipy test's result) is shown as it is: its constructor may need more
    assert text == ("{'r': 0.13, 'n': 3, 'significant': False, 'parts': [0.5, (1,)], "
                    "'test': pair(r=np.float64(0.5), p=np.float64(0.01)), 'day': np.datetime64('2015-01-02')}")
    assert describe_result(np.float64(2.5))[0] == "2.5"
    dates = {"month": pd.Period("2015-12", "M"), "day": pd.Timestamp("2010-11-15"), "at": pd.Timestamp("2010-11-15 10:00")}
    assert describe_result(dates)[0] == "{'month': '2015-12', 'day': '2010-11-15', 'at': '2010-11-15 10:00:00'}"
    assert describe_result(np.float32(0.1))[0] == "0.1"  # not 0.10000000149011612


def test_a_scipy_test_result_is_a_result() -> None:
    from scipy import stats

    from dsagent.sandbox.artifacts import describe_result

    for value in (stats.pearsonr([1, 2, 3, 4], [1, 3, 2, 4]), {"t": stats.ttest_ind([1, 2, 3], [2, 3, 5])},
                  stats.linregress([1, 2, 3], [2, 4, 7])):
        text, _ = describe_result(value)
        assert "statistic" in text or "slope" in text


def test_key_error_on_a_variable_the_code_computed_says_use_it_or_add_it(sandbox: Sandbox) -> None:
    """A difference computed into a variable, then read as a column of the frame (P 10171, seen)."""
    code = ("def stats_of(d):\n    gap = d['amount'] - d['amount'].mean()\n    return d[d['region'] == 'north']['gap'].mean()\n"
            "result = stats_of(df)")
    res = sandbox.run(code)
    assert not res.success and "KeyError" in res.error
    assert "'gap' is no column: it is a variable this code computed" in res.error and "['gap'] = gap" in res.error
    res = sandbox.run("gap = 3\nresult = df['gap'].sum()")  # a number is no column to add
    assert "variable this code computed" not in res.error


def test_key_error_on_a_column_an_earlier_step_dropped_says_so(sandbox: Sandbox) -> None:
    res = sandbox.run("numbers = df.select_dtypes('number')\nresult = numbers.groupby('region')['amount'].mean()")
    assert not res.success and "KeyError" in res.error
    assert "'region' is a column of df, but not of the frame this line uses" in res.error
    assert "not a dataset" not in res.error


@pytest.mark.parametrize("code, error, hints", [
    # s[0] on a labelled index
    ("totals = df.groupby('region')['amount'].sum()\nresult = totals.sort_values()[0]", "KeyError: 0",
     ["Use .iloc[0] for a position"]),
    # a row label looked up as a column
    ("result = df[df['amount'].idxmax()]['region']", "KeyError", ["df.loc[label]", "looks up a COLUMN"]),
    # indexing a single number
    ("result = df['amount'].mean()[0]", "IndexError: invalid index to scalar variable", ["drop the [..]"]),
    # a header like ' WINDSPEED' (a space after the comma in the CSV) asked for as 'WINDSPEED'
    ("result = df['AMOUNT '].mean()", "KeyError: 'AMOUNT '",
     ["the column is named 'amount', not 'AMOUNT '", "write df['amount']"]),
    # one letter off: a plural for a singular
    ("result = df['amounts'].mean()", "KeyError: 'amounts'", ["the column is named 'amount', not 'amounts'"]),
])
def test_index_errors_get_the_hint_that_says_the_fix(sandbox: Sandbox, code: str, error: str, hints: list[str]) -> None:
    res = sandbox.run(code)
    assert not res.success and error in res.error
    for hint in hints:
        assert hint in res.error


def test_a_cell_run_apart_leaves_the_sessions_names_and_data_as_they_were(sandbox: Sandbox) -> None:
    # an independent check (robust's cross-check) must not change what the analysis' cells see
    res = sandbox.run("df['double'] = df['amount'] * 2; df.drop(index=0, inplace=True); datasets['sales'] = None; "
                      "df = df.head(1); mine = 1; result = len(df)", apart=True)
    assert res.success, res.error
    assert res.result == "1"
    after = sandbox.run("result = (df.shape, list(df.columns), datasets['sales'] is df, 'mine' in dir())")
    assert after.success, after.error
    assert after.result == "((3, 2), ['region', 'amount'], True, False)"
    assert sandbox.run("df['x'] = 1; result = df.shape").result == "(3, 3)"  # a plain cell still keeps its changes


def test_a_year_column_looked_up_by_a_number_gets_its_text_name() -> None:
    from dsagent.sandbox.artifacts import format_error

    frame = pd.DataFrame({"source": ["wind", "coal"], "2001": [1, 2], "2017": [3, 4]})
    namespace = {"df": frame, "datasets": {"power": frame}}
    try:
        exec(compile("frame[2017]", "<cell 1>", "exec"), {"frame": frame})  # noqa: S102 — the error a model's code meets
    except KeyError as exc:
        assert "the column's name is the text '2017'" in format_error(exc, namespace)
    else:
        raise AssertionError("df[2017] should fail when the column is named '2017'")


def test_a_year_used_as_a_row_label_names_the_column_that_holds_it() -> None:
    from dsagent.sandbox.artifacts import format_error

    frame = pd.DataFrame({"YEAR": [1947, 1948, 1962], "GNP": [234.3, 259.4, 554.9]})
    try:
        exec(compile("frame.loc[1962, 'GNP']", "<cell 1>", "exec"), {"frame": frame})  # noqa: S102 — the model's lookup
    except KeyError as exc:
        assert "1962 is a value of the column 'YEAR' of df" in format_error(exc, {"df": frame, "datasets": {"t": frame}})
    else:
        raise AssertionError("a year is no row label of this frame")


def test_group_names_passed_to_a_test_get_each_groups_numbers() -> None:
    """``stats.kruskal(*['AML', 'ALL'])``: the groups' names where their numbers go (batch J, seen: an
    error ending after three tries of the generic "text cannot be averaged" hint)."""
    from scipy import stats

    from dsagent.sandbox.artifacts import format_error

    frame = pd.DataFrame({"Group": ["AML-Low Risk", "ALL", "ALL", "AML-Low Risk"], "T": [1.0, 2.0, 3.0, 4.0]})
    try:
        stats.kruskal(*["AML-Low Risk", "ALL"])
    except ValueError as exc:
        shown = format_error(exc, {"df": frame, "datasets": {"bmt": frame}})
        assert "'AML-Low Risk' is a value of the column 'Group' of df (a group's name)" in shown
        assert "df.groupby('Group')" in shown
    else:
        raise AssertionError("a test of text should fail")
    try:
        float("sales")
    except ValueError as exc:  # a word that is no value of the data: the general hint
        assert "a group's name" not in format_error(exc, {"df": frame, "datasets": {"bmt": frame}})
