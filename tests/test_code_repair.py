"""Mending a mistake small models make in every workflow before the code runs (common/repair.py)."""

import pytest

from dsagent.workflows.common.code import extract_code
from dsagent.workflows.common.repair import mend_self_reference, mend_test_unpacking

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


def test_extract_code_mends_what_the_model_wrote():
    reply = f"Here is the code:\n```python\n{SELF_REFERENCE}```"
    assert run(extract_code(reply))["result"]["correlation_type"] == "Positive"


def test_removed_squared_keyword_becomes_a_square_root():
    from dsagent.workflows.common.repair import mend_squared_keyword

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
    assert extract_code(code) == mended


def test_squared_keyword_left_alone_when_not_a_literal_or_not_the_metric():
    from dsagent.workflows.common.repair import mend_squared_keyword

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
])
def test_other_unpackings_are_left_alone(code):
    assert mend_test_unpacking(code) == code


def test_groupby_arithmetic_becomes_the_per_row_product_aggregated():
    """A GroupBy in arithmetic always fails in pandas; the line means the sum of per-row products per group."""
    import pandas as pd

    from dsagent.workflows.common.repair import mend_groupby_arithmetic

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
    from dsagent.workflows.common.repair import mend_profile_header

    header = summarize_datasets(load_datasets([sales_csv])).splitlines()[0]
    assert "rows x" in header  # the profile's own header, as the model saw it
    reply = f"```python\nimport pandas as pd\n\n# Load the dataset\n{header}\n\nresult = df['units'].sum()\n```"
    code = extract_code(reply)
    assert "rows x" not in code and "df = datasets['sales']\n" in code
    namespace = {"datasets": {"sales": pd.DataFrame({"units": [1, 2]})}}
    exec(compile(code, "<mended>", "exec"), namespace)  # noqa: S102 — test of generated code
    assert namespace["result"] == 3
    # the same text inside a string, or in code that parses, is left alone
    in_string = f"note = {header!r}\nresult = 1\n"
    assert mend_profile_header(in_string) == in_string
    # cut even when another line still fails: the error then names the line the model can fix
    assert mend_profile_header(f"{header}\nresult = (\n") == "df = datasets['sales']\nresult = (\n"


def test_a_keyword_scikit_learn_renamed_gets_its_new_name():
    from sklearn.preprocessing import OneHotEncoder

    from dsagent.workflows.common.repair import mend_renamed_keywords

    code = "enc = OneHotEncoder(sparse=False, handle_unknown='ignore')\nresult = enc.fit_transform([['a'], ['b']]).shape\n"
    with pytest.raises(TypeError):
        exec(code, {"OneHotEncoder": OneHotEncoder})  # noqa: S102 — the model's code fails as written
    mended = extract_code(f"```python\n{code}```")
    assert "sparse_output=False" in mended and "handle_unknown='ignore'" in mended
    namespace = {"OneHotEncoder": OneHotEncoder}
    exec(compile(mended, "<mended>", "exec"), namespace)  # noqa: S102
    assert namespace["result"] == (2, 2)
    both = "OneHotEncoder(sparse=False, sparse_output=True)\n"  # already has the new one: left to the error
    assert mend_renamed_keywords(both) == both
    assert mend_renamed_keywords("f(sparse=False)\n") == "f(sparse=False)\n"
