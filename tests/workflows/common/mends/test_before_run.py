"""The before-run mends (common/mends/before_run.py, BEFORE_RUN): each rewrites one mistake of
written code before it runs, only where it applies, and the code step applies them all in order."""

import contextlib
import pytest

from dsagent.workflows.common.code import extract_code
from dsagent.workflows.common.mends import mend_before_run
from dsagent.workflows.common.mends import MendFacts
from dsagent.workflows.common.mends.before_run import BEFORE_RUN, mend_imports, mend_self_reference, mend_test_unpacking, mend_yes_no


def written(reply: str, facts: MendFacts | None = None) -> str:
    """What the code step runs of a reply: the code extracted, then every before-run mend."""
    return mend_before_run(extract_code(reply), facts)[0]

SELF_REFERENCE = """import pandas as pd

# the correlation and its direction
result = {
    'correlation_coefficient': df['a'].corr(df['b']),
    'correlation_type': 'Positive' if result['correlation_coefficient'] > 0 else 'Negative'
}
print(result)
"""


def run(code: str) -> dict:
    import pandas as pd

    ns = {"df": pd.DataFrame({"a": [1, 2, 3, 4], "b": [2, 4, 5, 9]})}
    exec(compile(code, "<cell>", "exec"), ns)
    return ns


def test_a_dict_that_reads_its_own_keys_is_built_key_by_key():
    mended = mend_self_reference(SELF_REFERENCE)
    assert mended != SELF_REFERENCE
    result = run(mended)["result"]
    assert result["correlation_type"] == "Positive"
    assert abs(result["correlation_coefficient"] - 0.97) < 0.01
    # the rest of the code, comments included, is kept as written
    assert mended.startswith("import pandas as pd\n\n# the correlation and its direction\nresult = {}\n")
    assert mended.endswith("print(result)\n")


def test_the_original_fails_as_the_model_wrote_it():
    import pytest

    with pytest.raises(NameError):
        run(SELF_REFERENCE)


def test_code_that_does_not_read_its_own_dict_is_left_alone():
    for code in [
        "result = {'a': df['a'].mean(), 'b': 2}\n",
        # an earlier result: reading it inside the new dict is what the model meant
        "result = {'a': 1}\nresult = {'a': result['a'] + 1}\n",
        "x = 1\n",
        "def f(:\n",  # does not parse: nothing to mend, the sandbox reports the SyntaxError
        "result = {**other, 'b': result['a']}\n",  # a ** entry has no key to assign
    ]:
        assert mend_self_reference(code) == code


def test_indented_and_nested_statements_are_mended_in_place():
    code = "if True:\n    out = {'m': 2, 'd': out['m'] * 2}\nresult = out\n"
    assert run(mend_self_reference(code))["result"] == {"m": 2, "d": 4}


def test_the_code_step_mends_what_the_model_wrote():
    reply = f"Here is the code:\n```python\n{SELF_REFERENCE}```"
    assert run(written(reply))["result"]["correlation_type"] == "Positive"


def test_removed_squared_keyword_becomes_a_square_root():
    from dsagent.workflows.common.mends.before_run import mend_squared_keyword

    code = ("from sklearn.metrics import mean_squared_error\n"
            "result = {'rmse': mean_squared_error(df['a'], df['b'], squared=False),\n"
            "          'mse': mean_squared_error(df['a'], df['b'], squared=True)}  # both\n")
    mended = mend_squared_keyword(code)
    assert mended == ("from sklearn.metrics import mean_squared_error\n"
                      "result = {'rmse': np.sqrt(mean_squared_error(df['a'], df['b'])),\n"
                      "          'mse': mean_squared_error(df['a'], df['b'])}  # both\n")
    import numpy as np

    ns = run("import numpy as np\n" + mended)
    assert ns["result"]["mse"] == 8.5 and ns["result"]["rmse"] == np.sqrt(8.5)
    assert written(code) == mended


def test_squared_keyword_left_alone_when_not_a_literal_or_not_the_metric():
    from dsagent.workflows.common.mends.before_run import mend_squared_keyword

    for code in ["r = mean_squared_error(y, p, squared=flag)\n", "r = my_metric(y, p, squared=False)\n",
                 "r = mean_squared_error(y, p)\n", "r = (\n"]:
        assert mend_squared_keyword(code) == code


@pytest.mark.parametrize("code, mended", [
    ("shapiro_p_value, distribution_type = stats.shapiro(df['h'])", "distribution_type, shapiro_p_value = stats.shapiro(df['h'])"),
    ("p, r = stats.pearsonr(x, y)  # r first", "r, p = stats.pearsonr(x, y)  # r first"),
    ("if ok:\n    pval, t = ttest_ind(a, b)", "if ok:\n    t, pval = ttest_ind(a, b)"),
])
def test_a_tests_p_value_unpacked_first_is_swapped(code, mended):
    assert mend_test_unpacking(code) == mended


@pytest.mark.parametrize("code", [
    "stat, p_value = stats.shapiro(x)",  # right already
    "p_a, p_b = stats.ttest_ind(a, b)",  # both say p: nothing to go by
    "p, n = divmod(7, 2)",  # not a test
    "group_values, t = stats.ttest_ind(a, b)",  # 'values' is no p-value
    "p_value, x = stats.shapiro(",  # does not parse
    # statsmodels' ttest_ind returns (t, p, df) as a tuple: right as written
    "from statsmodels.stats.weightstats import ttest_ind\nt, p, dof = ttest_ind(a, b)",
    "t, p, dof = sm.stats.ttest_ind(a, b)",
])
def test_other_unpackings_are_left_alone(code):
    assert mend_test_unpacking(code) == code


@pytest.mark.parametrize("code, mended", [
    ("welch_t, dof = stats.ttest_ind(a, b, equal_var=False)",
     "welch_t, dof = (_test := stats.ttest_ind(a, b, equal_var=False)).statistic, _test.df"),
    ("t, p, degrees_of_freedom = stats.ttest_ind(a, b)",
     "t, p, degrees_of_freedom = (_test := stats.ttest_ind(a, b)).statistic, _test.pvalue, _test.df"),
    ("from scipy.stats import ttest_1samp\nt, dof = ttest_1samp(a, 0)",
     "from scipy.stats import ttest_1samp\nt, dof = (_test := ttest_1samp(a, 0)).statistic, _test.df"),
])
def test_a_t_tests_degrees_of_freedom_unpacked_are_read_from_its_result(code, mended):
    """A t-test's result unpacks to (statistic, p-value) only: ``t, dof = stats.ttest_ind(...)``
    stores the p-value as the degrees of freedom (no error), and three names fail to unpack; the
    result's own ``.df`` (scipy 1.11+) holds them."""
    assert mend_test_unpacking(code) == mended
    a, b = [1.0, 2.0, 3.5, 4.0], [2.0, 3.0, 5.0, 9.0, 1.0]
    from scipy import stats
    ttest_1samp = stats.ttest_1samp  # noqa: F841 - read by the mended code
    names: dict = {"stats": stats, "a": a, "b": b, "ttest_1samp": ttest_1samp}
    exec(mended, names)  # noqa: S102 - our own test code
    dof = next(v for k, v in names.items() if k in ("dof", "degrees_of_freedom"))
    assert float(dof) >= 1 and float(dof) == float(names["_test"].df)  # the degrees of freedom, not the p-value


def test_groupby_arithmetic_becomes_the_per_row_product_aggregated():
    """A GroupBy in arithmetic always fails in pandas; the line means the sum of per-row products per group."""
    import pandas as pd

    from dsagent.workflows.common.mends.before_run import mend_groupby_arithmetic

    df = pd.DataFrame({"region": ["N", "S", "N"], "units": [1, 2, 3], "unit_price": [10.0, 1.0, 2.0]})
    code = "result = df.groupby('region')['units'] * df['unit_price'].sum()"
    mended = mend_groupby_arithmetic(code)
    assert mended == "result = (df['units'] * df['unit_price']).rename('units * unit_price').groupby(df['region']).sum()"
    scope = {"df": df}
    exec(mended, scope)
    assert scope["result"].to_dict() == {"N": 16.0, "S": 2.0} and scope["result"].name == "units * unit_price"
    for fine in ("x = df.groupby('region')['units'].sum() * 2", "x = df['units'] * df['unit_price']", "x = df.groupby(['a', 'b'])['u'] * df['p'].sum()"):
        assert mend_groupby_arithmetic(fine) == fine


def test_a_copied_profile_header_line_keeps_only_its_assignment(sales_csv):
    import pandas as pd

    from dsagent.data.catalog import load_datasets
    from dsagent.data.profile import summarize_datasets
    from dsagent.workflows.common.mends.before_run import mend_profile_header

    header = summarize_datasets(load_datasets([sales_csv])).splitlines()[0]
    assert "rows x" in header  # the profile's own header, as the model saw it
    reply = f"```python\nimport pandas as pd\n\n# Load the dataset\n{header}\n\nresult = df['units'].sum()\n```"
    code = written(reply)
    assert "rows x" not in code and "df = datasets['sales']\n" in code
    namespace = {"datasets": {"sales": pd.DataFrame({"units": [1, 2]})}}
    exec(compile(code, "<mended>", "exec"), namespace)  # noqa: S102 — test of generated code
    assert namespace["result"] == 3
    # the same text inside a string, or in code that parses, is left alone
    in_string = f"note = {header!r}\nresult = 1\n"
    assert mend_profile_header(in_string) == in_string
    # cut even when another line still fails: the error then names the line the model can fix
    assert mend_profile_header(f"{header}\nresult = (\n") == "df = datasets['sales']\nresult = (\n"
    # the header's file name written as a value parses, then fails: read as the frame
    as_value = "df = datasets['sales'] = sales.csv[df['units'] > 1]\nresult = len(df)\n"
    namespace = {"datasets": {"sales": pd.DataFrame({"units": [1, 2, 3]})}, "df": pd.DataFrame({"units": [1, 2, 3]})}
    with pytest.raises(NameError):
        exec(compile(as_value, "<as written>", "exec"), dict(namespace))  # noqa: S102 — test of generated code
    exec(compile(mend_profile_header(as_value), "<mended>", "exec"), namespace)  # noqa: S102
    assert namespace["result"] == 2 and len(namespace["datasets"]["sales"]) == 3  # the session's table untouched


def test_a_keyword_scikit_learn_renamed_gets_its_new_name():
    from sklearn.preprocessing import OneHotEncoder

    from dsagent.workflows.common.mends.before_run import mend_renamed_keywords

    code = "enc = OneHotEncoder(sparse=False, handle_unknown='ignore')\nresult = enc.fit_transform([['a'], ['b']]).shape\n"
    with pytest.raises(TypeError):
        exec(code, {"OneHotEncoder": OneHotEncoder})  # noqa: S102 — the model's code fails as written
    mended = written(f"```python\n{code}```")
    assert "sparse_output=False" in mended and "handle_unknown='ignore'" in mended
    namespace = {"OneHotEncoder": OneHotEncoder}
    exec(compile(mended, "<mended>", "exec"), namespace)  # noqa: S102
    assert namespace["result"] == (2, 2)
    both = "OneHotEncoder(sparse=False, sparse_output=True)\n"  # already has the new one: left to the error
    assert mend_renamed_keywords(both) == both
    assert mend_renamed_keywords("f(sparse=False)\n") == "f(sparse=False)\n"


# Imports that can only fail (mends/imports.py)


BODY = "r, p = stats.pearsonr(df['a'], df['b'])\nresult = {'r': round(r, 2)}\n"


def test_a_ready_name_imported_from_a_module_that_does_not_hold_it_is_dropped():
    code = "from plotly.graph_objects import go\nfrom plotly.io import go\nimport pandas as pd\n" + BODY
    assert mend_imports(code) == "import pandas as pd\n" + BODY


def test_an_import_from_a_module_not_installed_is_dropped_when_its_names_are_unused():
    code = "from plotly.template import plotly_white\nimport no_such_module_here\n" + BODY
    assert mend_imports(code) == BODY
    used = "import no_such_module_here as m\nresult = m.f()\n"
    assert mend_imports(used) == used  # its error says more than a NameError would


def test_right_imports_and_statements_that_share_a_line_or_a_block_are_kept():
    code = ("from plotly import express as px\nfrom plotly.subplots import make_subplots\nfrom scipy import stats\n"
            "from sklearn.linear_model import LinearRegression\nimport statsmodels.api as sm\n"
            "if True:\n    import no_such_module_here\nx = 1; import no_such_module_here\n" + BODY)
    assert mend_imports(code) == code


def test_only_the_failing_names_of_one_statement_go():
    assert mend_imports("from plotly.graph_objects import go, Figure\n" + BODY) == "from plotly.graph_objects import Figure\n" + BODY


def test_a_module_is_looked_up_without_running_it(monkeypatch):
    import sys

    before = set(sys.modules)
    mend_imports("from antigravity.sub import x\nimport this.that\n" + BODY)
    assert not {"antigravity", "this"} & (set(sys.modules) - before)


def test_the_code_step_mends_the_reply():
    reply = "```python\nimport pandas as pd\nfrom plotly.template import plotly_white\n" + BODY + "```"
    assert written(reply) == "import pandas as pd\n" + BODY


# The registry

def test_every_mend_has_one_shape_and_leaves_code_it_does_not_apply_to_as_written():
    code = "# a comment\nx = df['a'].mean()  # kept\nresult = {'x': x}\n"
    facts = MendFacts(yes_no={"returned": "yes"})
    for label, mend in BEFORE_RUN:
        assert mend(code, facts) == code, label
        assert mend(code) == code, label
        assert mend("def broken(:\n", facts) == "def broken(:\n", label


def test_extract_code_only_extracts():
    reply = "Here is the code:\n```python\nfrom plotly.graph_objects import go\nresult = {'r': 1, 's': result['r']}\n```"
    assert extract_code(reply) == "from plotly.graph_objects import go\nresult = {'r': 1, 's': result['r']}\n"


def test_mend_before_run_applies_them_in_order_and_names_those_that_changed_the_code():
    code = "from plotly.graph_objects import go\nrmse = mean_squared_error(y, p, squared=False)\nresult = df['returned'].sum()\n"
    mended, labels = mend_before_run(code, MendFacts(yes_no={"returned": "yes"}))
    assert mended == "rmse = np.sqrt(mean_squared_error(y, p))\nresult = (df['returned'] == 'yes').sum()\n"
    assert labels == ["squared= as np.sqrt", "failing import dropped", "Yes/No counted"]
    assert [label for label, _ in BEFORE_RUN][0] == "profile header cut"  # the others need code that parses
    assert mend_before_run("result = 1\n") == ("result = 1\n", [])


def test_squared_is_mended_in_one_place():
    from dsagent.sandbox.api_drift import drift_hint

    assert drift_hint("TypeError: mean_squared_error() got an unexpected keyword argument 'squared'") == ""


def test_a_yes_no_column_on_a_table_of_its_own_is_counted():
    """On a table no benchmark uses: a sum of Yes/No text is a count of yes."""
    import pandas as pd

    from dsagent.workflows.common.mends import mend_facts

    frame = pd.DataFrame({"returned": ["no", "yes", "yes", "no"], "amount": [3, 4, 5, 6]})
    facts = mend_facts({"orders": frame})
    code = mend_before_run("result = df['returned'].sum()\n", facts)[0]
    ns: dict = {"df": frame}
    exec(code, ns)  # noqa: S102 — the test's own code
    assert code == "result = (df['returned'] == 'yes').sum()\n" and ns["result"] == 2


def test_a_column_of_true_false_with_gaps_is_no_yes_no_text():
    """Bools among NaN (a CSV's True/False column with empty cells) are no text: a sum of them
    counts True already, and == 'True' would match no value."""
    import pandas as pd

    from dsagent.workflows.common.mends import mend_facts

    frame = pd.DataFrame({"open": [True, None, False, True], "amount": [3, 4, 5, 6]})
    facts = mend_facts({"models": frame})
    assert facts.yes_no == {}
    assert mend_before_run("result = df['open'].sum()\n", facts)[0] == "result = df['open'].sum()\n"


FACTS = MendFacts(text_columns=["returned", "weekday"], yes_no={"returned": "yes"})


def test_sum_of_a_yes_no_column_counts_the_yes():
    code = "share = df['returned'].sum() / df['returned'].count() * 100\nresult = df[df.weekday == 'Sun']['returned'].mean()"
    mended = mend_yes_no(code, FACTS)
    assert "(df['returned'] == 'yes').sum() / df['returned'].count()" in mended
    assert "(df[df.weekday == 'Sun']['returned'] == 'yes').mean()" in mended
    assert mend_yes_no("result = df['units'].sum()", FACTS) == "result = df['units'].sum()"
    mapped = "df['returned'] = df['returned'].map({'yes': 1, 'no': 0})\nresult = df['returned'].sum()"
    assert mend_yes_no(mapped, FACTS) == mapped


def mended_result(code: str, frame) -> tuple[str, list[str], object]:
    """``code`` mended for a table of its own, the mends' labels, and its ``result`` run on the table."""
    from dsagent.workflows.common.mends import mend_facts

    mended, labels = mend_before_run(code, mend_facts({"t": frame}))
    ns: dict = {"df": frame}
    exec(mended, ns)  # noqa: S102 — the test's own code
    return mended, labels, ns["result"]


def test_a_column_grouped_by_another_column_groups_the_frame():
    """On a table of its own: ``frame['x'].groupby('k')`` (a Series has no column 'k': KeyError,
    and shown it the model writes the same line again) is ``frame.groupby('k')['x']``."""
    import pandas as pd

    from dsagent.workflows.common.mends import mend_facts

    frame = pd.DataFrame({"region": ["n", "s", "n", "s"], "season": [1, 1, 2, 2], "litres": [3, 4, 5, 9]})
    facts = mend_facts({"rain": frame})
    code = "result = df[df['season'] == 2]['litres'].groupby('region').sum().idxmax()\n"
    assert mended_result(code, frame) == ("result = df[df['season'] == 2].groupby('region')['litres'].sum().idxmax()\n",
                                          ["column grouped as the frame"], "s")
    listed = mend_before_run("t = df['litres'].groupby(['region', 'season']).mean()\n", facts)[0]
    assert listed == "t = df.groupby(['region', 'season'])['litres'].mean()\n"


@pytest.mark.parametrize("code", [
    "t = df.groupby('region')['litres'].sum()\n",          # already right
    "t = df['litres'].groupby(df['region']).sum()\n",      # a Series key: right as written
    "t = df['litres'].groupby('station').sum()\n",         # not a column: maybe an index level
    "t = df['litres'].groupby('litres').sum()\n",          # the column itself
    "t = datasets['rain'].groupby('region')['litres'].sum()\n",  # a table, not a column (audit of correct code)
    "t = frames['x'].groupby('region')['litres'].sum()\n",  # 'x' is no column: a frame held in a dict
])
def test_a_grouping_that_may_be_right_is_left_alone(code):
    import pandas as pd

    from dsagent.workflows.common.mends import mend_facts

    facts = mend_facts({"rain": pd.DataFrame({"region": ["n"], "litres": [3]})})
    assert mend_before_run(code, facts)[0] == code
    assert mend_before_run(code)[0] == code


def test_a_whole_frame_with_text_columns_is_aggregated_over_its_numbers():
    """On a table of its own: ``df.mean()`` over a frame with a text or date column fails in pandas 2
    (TypeError; shown it the model writes the same line again): it means the numeric columns."""
    import pandas as pd

    from dsagent.workflows.common.mends import mend_facts

    frame = pd.DataFrame({"day": ["2020-01-01", "2020-01-02"], "oats": [1.0, 3.0], "rye": [4.0, 8.0]})
    facts = mend_facts({"prices": frame})
    code = "means = df.mean()\nresult = means.idxmax()\nr = df[df['oats'] > 0].corr()\n"
    assert mended_result(code, frame) == ("means = df.mean(numeric_only=True)\nresult = means.idxmax()\n"
                                          "r = df[df['oats'] > 0].corr(numeric_only=True)\n", ["whole frame over its numbers"], "rye")
    for kept in ("m = df['oats'].mean()\n", "m = df[['oats', 'rye']].mean()\n", "m = df.groupby('day').mean()\n",
                 "m = df.mean(skipna=False)\n"):
        assert mend_before_run(kept, facts)[0] == kept
    # a row total of a wide table: pandas raises on the text column too
    with pytest.raises(TypeError):
        frame.sum(axis=1)
    assert mended_result("t = df.sum(axis=1)\nresult = t.max()\n", frame)[0] == "t = df.sum(axis=1, numeric_only=True)\nresult = t.max()\n"
    numbers_only = mend_facts({"prices": frame[["oats", "rye"]]})
    assert mend_before_run("m = df.mean()\n", numbers_only)[0] == "m = df.mean()\n"


def test_an_aggregate_bound_to_the_last_condition_of_a_mask_takes_the_whole_mask():
    import pandas as pd

    from dsagent.workflows.common.mends.before_run import mend_mask_precedence

    frame = pd.DataFrame({"a": [0, 2, 3, 5], "b": [0, 0, 1, 0]})
    code = "result = (df['a'] > 1) & (df['a'] < 5) & (df['b'] == 0).sum()\n"
    ns = {"df": frame}
    exec(code, ns)  # noqa: S102 — the model's code as written: a Series, not a count
    assert isinstance(ns["result"], pd.Series)
    mended = mend_mask_precedence(code)
    assert mended == "result = ((df['a'] > 1) & (df['a'] < 5) & (df['b'] == 0)).sum()\n"
    exec(mended, ns)  # noqa: S102
    assert ns["result"] == 1
    # an aggregate that is no mask's (a number column's sum) is left alone
    assert mend_mask_precedence("x = (df['a'] > 1) & df['b'].sum()\n") == "x = (df['a'] > 1) & df['b'].sum()\n"


def test_a_bound_written_as_a_day_keeps_that_whole_day():
    """Timestamps with a time of day on the last day: '<= day' misses them (pandas and SQLite)."""
    import sqlite3

    import pandas as pd

    from dsagent.workflows.common.mends.before_run import mend_last_day

    frame = pd.DataFrame({"ts": pd.to_datetime(["2025-01-01 09:00", "2025-12-31 14:00", "2026-01-01 08:00"])})
    code = "result = len(df[(df['ts'] >= '2025-01-01') & (df['ts'] <= '2025-12-31')])\n"
    ns = {"df": frame}
    exec(code, ns)  # noqa: S102 — the model's code as written misses the afternoon of the 31st
    assert ns["result"] == 1
    exec(mend_last_day(code), ns)  # noqa: S102
    assert ns["result"] == 2
    with sqlite3.connect(":memory:") as db:
        db.execute("CREATE TABLE a (at TEXT)")
        db.executemany("INSERT INTO a VALUES (?)", [("2025-06-30 10:00",), ("2025-07-01 00:00",), ("2025-01-01 00:00",)])
        query = "SELECT COUNT(*) FROM a WHERE a.at BETWEEN '2025-01-01' AND '2025-06-30'"
        assert db.execute(query).fetchone()[0] == 1
        assert db.execute(mend_last_day(query)).fetchone()[0] == 2
    assert mend_last_day("x <= '2025-02-30'") == "x <= '2025-02-30'"  # no such day: left
    cut = "strftime('%Y', at) BETWEEN '2025-01-01' AND '2025-06-30'"
    assert mend_last_day(cut) == cut  # a call with spaces is not repeated half


def test_syntax_slips_a_small_model_makes_are_mended_when_the_code_does_not_parse():
    from dsagent.workflows.common.mends.before_run import mend_before_run

    nested = "i = 0\nresult = f'{d.loc[i, 'DATE'][:3]}-{d.loc[i, 'DATE'][4:6]}'\n"
    mended, labels = mend_before_run(nested)
    assert mended == "i = 0\nresult = f'{d.loc[i, \"DATE\"][:3]}-{d.loc[i, \"DATE\"][4:6]}'\n"
    assert "a syntax slip" in labels
    assert mend_before_run("m = s['a']..idxmax()\n")[0] == "m = s['a'].idxmax()\n"
    for kept in ("x = f\"{d['a']}\"\n", "x = ...\n", "bad = (\n"):  # parses already, or stays broken: as written
        assert mend_before_run(kept)[0] == kept


def test_an_apostrophe_inside_a_quoted_value_and_a_missing_opening_parenthesis_are_mended():
    from dsagent.workflows.common.mends.before_run import mend_before_run

    quoted = "sub = df[df['educ'] == 'bachelor's degree']\nresult = len(sub)\n"
    mended, labels = mend_before_run(quoted)
    assert mended == "sub = df[df['educ'] == \"bachelor's degree\"]\nresult = len(sub)\n"
    assert "a syntax slip" in labels
    assert mend_before_run("x = d['O'Brien']\n")[0] == "x = d[\"O'Brien\"]\n"
    growth = "result = (a / b) - 1) * 100\n"
    assert mend_before_run(growth)[0] == "result = ((a / b) - 1) * 100\n"
    ns = {"a": 3.0, "b": 2.0}
    exec(mend_before_run(growth)[0], ns)  # noqa: S102
    assert ns["result"] == 50.0
    for kept in ("x = 'it' + 's'\n", "print(a))\n", "x = [1, 2)]\n"):  # parses, or no single mend makes it parse
        assert mend_before_run(kept)[0] == kept


def test_result_filled_key_by_key_before_it_exists_starts_as_an_empty_dict():
    """``result['k'] = …`` with no ``result`` bound before it: the sandbox starts every cell without
    one, so it is a NameError; ``result = {}`` is put before the first such line. A code that binds
    result first, or only reads it, is left alone."""
    from dsagent.workflows.common.mends.before_run import mend_before_run

    code = "m = df['a'].mean()\nresult['mean'] = m\nresult['n'] = len(df)\n"
    mended, labels = mend_before_run(code)
    assert mended == "m = df['a'].mean()\nresult = {}\nresult['mean'] = m\nresult['n'] = len(df)\n"
    assert "result filled before it exists" in labels
    assert run(mended)["result"] == {"mean": 2.5, "n": 4}
    for kept in ("result = {}\nresult['a'] = 1\n", "result = df\nresult['b'] = 2\n", "x = result['a']\n",
                 "def f():\n    result['a'] = 1\n"):
        assert mend_before_run(kept)[0] == kept, kept


def test_chi2_contingency_unpacked_into_two_names_keeps_the_first_two():
    import pandas as pd
    from scipy import stats

    from dsagent.workflows.common.mends.before_run import mend_before_run

    code = "chi2, p = stats.chi2_contingency(pd.crosstab(df['a'], df['b']), correction=False)\nresult = round(chi2, 2)\n"
    ns = {"df": pd.DataFrame({"a": [0, 0, 1, 1, 1], "b": [0, 1, 1, 1, 0]}), "pd": pd, "stats": stats}
    with pytest.raises(ValueError):
        exec(code, dict(ns))  # noqa: S102 — the model's code as written
    exec(mend_before_run(code)[0], ns)  # noqa: S102
    assert isinstance(ns["result"], float)


def test_dt_on_dates_a_csv_gave_as_text_is_parsed_where_it_is_used():
    import pandas as pd

    from dsagent.workflows.common.mends.before_run import mend_before_run
    from dsagent.workflows.common.mends.facts import mend_facts

    frame = pd.DataFrame({"DATE": ["1959-01-01", "1959-02-01", "1960-01-01"], "when": ["19-Sep-03 14:00", "20-Sep-03 09:30", "22-Sep-03 10:00"],
                          "style": ["sedan", "wagon", "sedan"], "code": ["12", "7", "3"], "v": [1.0, 2.0, 4.0]})
    facts = mend_facts({"t": frame})
    assert facts.date_text == ["DATE", "when"]  # not a category, not numbers written as text
    code = "result = df.groupby(df['DATE'].dt.year)['v'].sum().idxmax()\n"
    ns = {"df": frame.copy(), "pd": pd}
    with pytest.raises(AttributeError, match="datetimelike"):
        exec(code, dict(ns))  # noqa: S102 — the model's code as written
    mended, labels = mend_before_run(code, facts)
    assert labels == ["dates written as text parsed for .dt"]
    exec(mended, ns)  # noqa: S102
    assert ns["result"] == 1960 and ns["df"]["DATE"].dtype == frame["DATE"].dtype  # the frame is not changed
    ns = {"df": frame.copy(), "pd": pd}
    exec(mend_before_run("h = df.when.dt.hour\nresult = int(h.max())\n", facts)[0], ns)  # noqa: S102
    assert ns["result"] == 14
    for kept in ("result = pd.to_datetime(df['DATE']).dt.year.max()\n", "result = df['style'].str.upper()\n",
                 "result = df['DATE'].str[:4]\n"):
        assert mend_before_run(kept, facts)[0] == kept


def test_rows_listed_newest_first_are_put_in_time_order_before_code_that_reads_their_order():
    """A price history exported latest day on top: "growth from the first to the last day" written
    as ``iloc[-1] / iloc[0]`` runs backwards. The frame is sorted by its dates first (after the
    code's own ``df = datasets[…]``), once: a code that sorts, or reads no order, is left alone."""
    import numpy as np
    import pandas as pd

    from dsagent.workflows.common.mends.facts import mend_facts

    days = pd.date_range("2003-06-02", periods=30, freq="B")
    frame = pd.DataFrame({"Date": days.strftime("%d-%b-%y")[::-1], "Close": np.arange(30.0, 0.0, -1.0)})
    facts = mend_facts({"prices": frame})
    assert facts.newest_first == "Date"
    code = "df = datasets['prices']\nresult = round((df['Close'].iloc[-1] / df['Close'].iloc[0] - 1) * 100, 2)\n"
    mended, labels = mend_before_run(code, facts)
    assert "rows put in time order" in labels and mended.count("sort_values") == 1
    assert mended.splitlines()[0] == "df = datasets['prices']"
    ns = {"datasets": {"prices": frame}, "pd": pd}
    exec(mended, ns)  # noqa: S102
    assert ns["result"] == 2900.0  # 1.0 on the first day, 30.0 on the last
    assert mend_before_run(mended, facts)[0] == mended
    for kept in ("result = df['Close'].max()\n", "df = df.sort_values('Date', key=pd.to_datetime)\nresult = df['Close'].iloc[0]\n",
                 # code that turns the rows round itself (audit of the mends on correct code)
                 "df = df.iloc[::-1].reset_index(drop=True)\nresult = df['Close'].pct_change().iloc[-1]\n",
                 "result = df['Close'][::-1].pct_change().iloc[-1]\n"):
        assert mend_before_run(kept, facts)[0] == kept
    assert mend_facts({"prices": frame.iloc[::-1]}).newest_first is None
    assert mend_facts({"a": frame, "b": frame}).newest_first is None  # which frame `df` is: not known


def test_a_sort_on_dates_written_as_text_sorts_them_as_dates():
    """``df.sort_values(by='Date')`` on '19-Sep-03' sorts the text (1-Aug before 19-Sep before
    2-Jul): the sort is given a key that reads the dates. A sort that has a key, or on another
    column, is left alone."""
    import pandas as pd

    from dsagent.workflows.common.mends.facts import mend_facts

    frame = pd.DataFrame({"Date": ["19-Sep-03", "2-Jul-03", "1-Aug-03", "20-Jun-03"] * 3, "Close": range(12)})
    facts = mend_facts({"t": frame})
    assert facts.date_text == ["Date"]
    code = "df = df.sort_values(by='Date')\nresult = df['Date'].iloc[0]\n"
    mended, labels = mend_before_run(code, facts)
    assert "text dates sorted as dates" in labels
    ns = {"df": frame, "pd": pd}
    exec(mended, ns)  # noqa: S102
    assert ns["result"] == "20-Jun-03"
    assert "key=" in mend_before_run("s = df.sort_values('Date', ascending=False)\n", facts)[0]
    for kept in ("df.sort_values('Close')\n", "df.sort_values('Date', key=len)\n"):
        assert mend_before_run(kept, facts)[0] == kept


def test_a_date_part_of_one_value_of_dates_written_as_text_parses_that_value():
    """``df.loc[i, 'DATE'].strftime('%Y-%m')`` or ``….iloc[0].year`` on dates a CSV gave as text is
    "'str' object has no attribute": the one value is parsed where it is used. A whole column, a
    ``.dt`` part, another column, or a row number (``idxmax().strftime``) are left alone."""
    import pandas as pd

    from dsagent.workflows.common.mends.facts import mend_facts

    frame = pd.DataFrame({"DATE": ["1959-01-01", "1973-05-01", "1960-02-01"] * 3, "starts": [1, 9, 2] * 3})
    facts = mend_facts({"t": frame})
    code = ("top = df[df['starts'] == df['starts'].max()]['DATE'].iloc[0].strftime('%Y-%m')\n"
            "result = {'month': top, 'year': df.loc[1, 'DATE'].year, 'day': df['DATE'][2].day}\n")
    mended, labels = mend_before_run(code, facts)
    assert "one text date parsed" in labels
    ns = {"df": frame, "pd": pd}
    exec(mended, ns)  # noqa: S102
    assert ns["result"] == {"month": "1973-05", "year": 1973, "day": 1}
    for kept in ("x = df['DATE'].year\n", "x = df['starts'].iloc[0].real\n", "x = df['starts'].idxmax().strftime('%Y')\n",
                 "x = pd.to_datetime(df['DATE']).dt.year\n"):
        assert mend_before_run(kept, facts)[0] == kept, kept


def test_month_labels_are_read_with_their_format():
    """'1972m1' (a month as statistics packages print it) fails in ``pd.to_datetime`` without a
    format: the call is given ``format='%Ym%m'``, for a column and for one value. A call with its
    own format, on labels the code rewrites first, or on another column is left alone."""
    import pandas as pd

    from dsagent.workflows.common.mends.facts import mend_facts

    frame = pd.DataFrame({"month": [f"{y}m{m}" for y in (1972, 1973) for m in range(1, 13)], "sales": range(24)})
    facts = mend_facts({"m": frame})
    assert facts.period_labels == {"month": "month"} and facts.periods["month"] == 24
    code = ("df = datasets['m']\ndf['when'] = pd.to_datetime(df['month'])\nfirst = pd.to_datetime(df.loc[0, 'month'])\n"
            "result = int(df.groupby(df['when'].dt.year)['sales'].sum().idxmax())\n")
    mended, labels = mend_before_run(code, facts)
    assert labels == ["period labels read with their format"] and mended.count("format='%Ym%m'") == 2
    ns = {"datasets": {"m": frame}, "pd": pd}
    exec(mended, ns)  # noqa: S102
    assert ns["result"] == 1973 and ns["first"] == pd.Timestamp("1972-01-01")
    with pytest.raises(ValueError):
        exec(code, {"datasets": {"m": frame}, "pd": pd})  # noqa: S102 - the mend is needed
    for kept in ("x = pd.to_datetime(df['month'], format='%Ym%m')\n", "x = pd.to_datetime(df['month'].str.replace('m', '-'))\n",
                 "x = pd.to_datetime(df['sales'])\n"):
        assert mend_before_run(kept, facts)[0] == kept


def test_a_month_number_read_as_a_date_is_read_as_that_month():
    """``pd.to_datetime(monthly.idxmax()).strftime('%B')`` on the month number ``.dt.month``
    grouping gives (5) says "January" (5 ns after 1970-01-01; batch I, seen): written as the first
    day of month 5. A date that is no month number is left alone."""
    import pandas as pd

    frame = pd.DataFrame({"DATE": pd.date_range("2001-01-01", periods=24, freq="MS"), "v": [1] * 4 + [9] + [1] * 19})
    code = ("monthly = df.groupby(df['DATE'].dt.month)['v'].mean()\npeak = monthly.idxmax()\n"
            "result = {'m': pd.to_datetime(peak).strftime('%B')}\n")
    mended, labels = mend_before_run(code, None)
    assert labels == ["month number read as a month"]
    ns = {"df": frame, "pd": pd}
    exec(mended, ns)  # noqa: S102
    assert ns["result"] == {"m": "May"}
    inline = "result = pd.to_datetime(df.groupby(df['DATE'].dt.month)['v'].mean().idxmax()).month_name()\n"
    exec(mend_before_run(inline, None)[0], ns)  # noqa: S102
    assert ns["result"] == "May"
    for kept in ("result = pd.to_datetime(df.loc[df['v'].idxmax(), 'DATE']).strftime('%B')\n",
                 "result = pd.to_datetime(df['DATE']).dt.month_name()\n"):
        assert mend_before_run(kept, None)[0] == kept


def test_a_percent_minus_one_is_read_as_the_change_in_percent():
    """``100 * df['inc'] / df['inc'].shift(4) - 1`` (batch K, seen: 125.23 for a growth of 10.36):
    written ``100 * (df['inc'] / df['inc'].shift(4) - 1)``; so is ``a / b * 100 - 1``. A change
    written right, or another constant, is left alone."""
    for code, want in (("g = 100 * df['inc'] / df['inc'].shift(4) - 1\n", "g = 100 * (df['inc'] / df['inc'].shift(4) - 1)\n"),
                       ("g = a / b * 100 - 1\n", "g = 100 * (a / b - 1)\n")):
        mended, labels = mend_before_run(code, None)
        assert mended == want and labels == ["percent change bracketed"]
    assert eval("100 * (a / b - 1)", {"a": 11.0, "b": 10.0}) == pytest.approx(10.0)  # noqa: S307 - what the mend writes
    for kept in ("g = 100 * (a / b - 1)\n", "g = 100 * a / b - 2\n", "g = 50 * a / b - 1\n", "g = a / b - 1\n"):
        assert mend_before_run(kept, None)[0] == kept


def _run(code: str, frame) -> object:
    import numpy as np
    from scipy import stats

    ns = {"df": frame, "pd": __import__("pandas"), "np": np, "stats": stats}
    exec(code, ns)  # noqa: S102 — the test's own code
    return ns["result"]


def test_a_grouping_spread_into_a_test_passes_one_sample_per_group():
    """``stats.f_oneway(*df.groupby('g')['v'])`` spreads (name, values) pairs, not samples: each
    group's values are passed, directly or through a name bound once to the grouping."""
    import pandas as pd

    frame = pd.DataFrame({"g": list("aabbcc") * 3, "v": [1.0, 2, 3, 5, 8, 9, 1.5, 2, 3.5, 5, 7, 9, 1, 2.5, 3, 4, 8, 9.5]})
    right = _run("result = stats.f_oneway(*[g['v'] for _, g in df.groupby('g')]).statistic", frame)
    for code in ("result = stats.f_oneway(*df.groupby('g')['v']).statistic",
                 "groups = df.groupby('g')['v']\nf, p = stats.f_oneway(*groups)\nresult = f",
                 "result = stats.kruskal(*df.groupby('g')['v']).statistic"):
        mended, labels = mend_before_run(code)
        assert labels == ["groups spread as samples"], code
        if "kruskal" not in code:
            assert _run(mended, frame) == pytest.approx(right), code
    assert right > 0
    kept = "groups = [g['v'] for _, g in df.groupby('g')]\nresult = stats.f_oneway(*groups).statistic"
    assert mend_before_run(kept)[0] == kept
    assert mend_before_run("means = df.groupby('g')['v'].mean()\nresult = max(*means)")[0].endswith("max(*means)")


def test_a_groups_label_read_back_as_a_row_of_the_frame_is_the_label_itself():
    """``df.loc[df.groupby('k')['v'].mean().idxmax(), 'k']``: idxmax gives the group's label, which
    is no row label of ``df`` (a KeyError, or for small whole-number labels another row's value)."""
    import pandas as pd

    frame = pd.DataFrame({"state": ["MD", "MD", "VA", "VA", "NY"], "vote": [60, 70, 40, 45, 50], "month": [3, 3, 1, 1, 2]})
    for code, want in (("result = df.loc[df.groupby('state')['vote'].mean().idxmax(), 'state']", "MD"),
                       ("m = df.groupby('month')['vote'].mean()\nresult = df.loc[m.idxmin(), 'month']", 1)):
        with pytest.raises(KeyError) if want == "MD" else contextlib.nullcontext():
            assert _run(code, frame) != want
        mended, labels = mend_before_run(code)
        assert labels == ["group label read as itself"] and _run(mended, frame) == want, mended
    kept = "result = df.loc[df['vote'].idxmax(), 'state']"
    assert mend_before_run(kept)[0] == kept
    kept = "t = df.groupby('state')['vote'].mean().reset_index()\nresult = t.loc[t['vote'].idxmax(), 'state']"
    assert mend_before_run(kept)[0] == kept


def test_a_test_results_one_value_unpacked_into_two_names_unpacks_the_result():
    """``f, p = stats.f_oneway(*groups).pvalue``: one number cannot be unpacked into two names."""
    code = "f, p = stats.f_oneway([1, 2, 3], [4, 5, 7]).pvalue\nresult = {'f': f, 'p': p}"
    mended, labels = mend_before_run(code)
    assert labels == ["test result unpacked"] and "f, p = stats.f_oneway([1, 2, 3], [4, 5, 7])\n" in mended
    assert set(_run(mended, None)) == {"f", "p"}
    kept = "p = stats.f_oneway([1, 2, 3], [4, 5, 7]).pvalue\nresult = p"
    assert mend_before_run(kept)[0] == kept


def test_groups_split_by_zip_and_tests_unpacked_into_other_names_are_left_as_written():
    """``zip(*df.groupby('g')['v'])`` splits (label, values) pairs as meant; ``t, dof = ….pvalue``
    and ``p_value, w = ….pvalue`` would unpack into the wrong names: left for the error's hint."""
    for code in ("names, samples = zip(*df.groupby('g')['v'])\nresult = stats.f_oneway(*samples).statistic",
                 "pairs = [*df.groupby('g')['v']]\nresult = len(pairs)",
                 "t, dof = stats.ttest_ind(a, b).pvalue\nresult = t",
                 "p_value, w = stats.shapiro(x).pvalue\nresult = w"):
        assert mend_before_run(code)[0] == code, code


def test_two_columns_given_to_chi2_contingency_are_crossed_first():
    """``stats.chi2_contingency(df['a'], df['b'])``: the second argument is ``correction``, so the
    call fails or tests one column as a table (P 10177, seen). Written with their crosstab; a table
    given already, or other keywords, are kept."""
    import pandas as pd
    from scipy import stats

    from dsagent.workflows.common.mends.grouped import mend_contingency_columns

    code = "chi2, p, dof, _ = stats.chi2_contingency(df['a'], df['b'])\nresult = {'p': p}\n"
    mended = mend_contingency_columns(code)
    assert mended == code.replace("(df['a'], df['b'])", "(pd.crosstab(df['a'], df['b']))")
    frame = pd.DataFrame({"a": list("xxyyxy") * 5, "b": list("ppqqqp") * 5})
    ns = {"df": frame, "pd": pd, "stats": stats}
    exec(mended, ns)  # noqa: S102
    assert 0 <= ns["result"]["p"] <= 1
    kw = "r = chi2_contingency(df.a, df.b, correction=False)\n"
    assert mend_contingency_columns(kw) == "r = chi2_contingency(pd.crosstab(df.a, df.b), correction=False)\n"
    assert mend_before_run(code)[1] == ["two columns crossed for a chi-square test"]
    for kept in ("r = stats.chi2_contingency(pd.crosstab(df['a'], df['b']))\n", "r = stats.chi2_contingency(table, False)\n"):
        assert mend_contingency_columns(kept) == kept
