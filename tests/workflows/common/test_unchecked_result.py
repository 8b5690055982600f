"""The code-side check that runs before a model is asked to evaluate a result."""

import pytest

from dsagent.workflows.common.code import unchecked_result

RAN = {"result_str": "21.5", "figures": [], "stdout": ""}


@pytest.mark.parametrize("code", [
    "result = 21.5",
    "x = df['a'].mean()\nresult = {'variables_needed': ['a'], 'analysis_type': 'mean'}",
    "result = '@mean[0.21]'",
    "result: float = -3",
    "result = {}\nresult['mean'] = 21.5",
])
def test_literal_results_are_flagged(code):
    assert "hardcoded" in unchecked_result(code, RAN)


@pytest.mark.parametrize("code", [
    "result = df['a'].mean()",
    "result = {'mean': df['a'].mean()}",
    "result = 0\nfor v in df['a']:\n    result += v",
    "result = f'@mean[{m:.2f}]'",
    "fig = px.bar(df, x='a')",  # no result at all, but a figure
    "result = (",  # not parseable: let the model judge
    # an empty container filled from the data afterwards is computed
    "result = {}\nfor c in df['g'].unique():\n    result[f'mean_{c}'] = df[df['g'] == c]['a'].mean()",
    "result = []\nfor v in df['a']:\n    result.append(v)",
    "result = {}\nresult.update(df['a'].describe().to_dict())",
])
def test_computed_results_pass(code):
    ran = {**RAN, "figures": ["f.json"]} if "fig" in code else RAN
    assert unchecked_result(code, ran) is None


def test_a_run_with_no_output_is_flagged():
    assert "no `result`" in unchecked_result("x = 1", {"result_str": None, "figures": [], "stdout": ""})


def test_the_explanation_sees_what_a_chart_shows():
    from dsagent.workflows.common.code import describe_output

    text = describe_output({"result_str": "South", "figures": ["f.json"], "figure_data": "region  revenue\nSouth  90133.5"})
    assert "result = South" in text and "the chart shows:" in text and "90133.5" in text


@pytest.mark.parametrize("result_str", [
    "nan", "np.float64(nan)", "{'median': np.float64(nan), 'std': np.float64(284.54)}", "[1.5, nan]",
    "ShapiroResult(statistic=nan, pvalue=nan)", "{'mean': <NA>}",
])
def test_a_nan_number_is_flagged(result_str):
    assert "NaN" in unchecked_result("result = df['a'].median()", {**RAN, "result_str": result_str})


@pytest.mark.parametrize("result_str", [
    "   a    b\n0  1.0  NaN\n1  2.0  3.0",  # a table with a missing cell may be the answer
    "0    NaN\n1    2.0\ndtype: float64",
    "{'name': 'nancy', 'value': 'nan'}",  # text, not a number
    "Nan", "Dropped rows (NaN in Age)",  # a place's name; a sentence
    "{'Age': {0: 22.0, 1: nan}}",  # a nested record: its missing cell may be the answer
])
def test_missing_cells_and_text_are_not_a_nan_number(result_str):
    assert unchecked_result("result = df.head()", {**RAN, "result_str": result_str}) is None
