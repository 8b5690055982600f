"""report.ipynb: valid nbformat, and its code cells re-run the analysis on the same files."""

import nbformat
import pandas as pd

from dsagent.data import load_datasets
from dsagent.reports.build import build_report, dataset_meta
from dsagent.reports.notebook import build_notebook, imports_for, render_notebook
from dsagent.reports.model import Report, Section

CODE = "totals = df.groupby('region')['units'].sum()\nresult = totals.sort_values(ascending=False)\nfig = px.bar(result.reset_index(), x='region', y='units')\n"


def run_cells(notebook) -> dict:
    """Execute the code cells in order in one fresh namespace, as a kernel would."""
    namespace: dict = {"__name__": "__main__"}
    for n, cell in enumerate(c for c in notebook.cells if c.cell_type == "code"):
        exec(compile(cell.source, f"<cell {n}>", "exec"), namespace)  # noqa: S102 - the test's point
    return namespace


def test_notebook_is_valid_and_reruns_the_analysis(sales_csv):
    meta = {"run_id": "r1", "workflow": "quick", "model": "m", "datasets": dataset_meta(load_datasets([sales_csv]))}
    report = build_report("Units per region?", {"explanation": "North leads.", "code": CODE, "alignment_caveats": ["c1"]}, meta)
    text = render_notebook(report)
    notebook = nbformat.reads(text, as_version=4)
    nbformat.validate(notebook)
    assert notebook.metadata["kernelspec"]["name"] == "python3" and notebook.metadata["dsagent"]["run_id"] == "r1"
    sources = [c.source for c in notebook.cells]
    assert sources[0].startswith("# Units per region?") and "**Question:** Units per region?" in sources[0]
    assert "import plotly.express as px" in sources[1] and "import seaborn" not in sources[1]
    assert f"'sales': ({str(sales_csv.resolve())!r}, None)" in sources[2] and "pd.read_csv(" in sources[2]
    assert "## Answer\n\nNorth leads." in sources and CODE.rstrip() in sources
    assert sources[-3:-1] == ["result", "fig"] and sources[-1] == "## Caveats\n\n- c1"
    namespace = run_cells(notebook)
    expected = pd.read_csv(sales_csv).groupby("region")["units"].sum().sort_values(ascending=False)
    pd.testing.assert_series_equal(namespace["result"], expected)
    assert type(namespace["fig"]).__name__ == "Figure"


def test_excel_sheets_are_bound_to_the_same_ids(tmp_path):
    path = tmp_path / "book.xlsx"
    with pd.ExcelWriter(path) as writer:
        pd.DataFrame({"a": [1, 2]}).to_excel(writer, sheet_name="First", index=False)
        pd.DataFrame({"b": [3, 4, 5]}).to_excel(writer, sheet_name="Second", index=False)
    datasets = load_datasets([path])
    assert list(datasets) == ["book_first", "book_second"]
    code = "result = int(datasets['book_first']['a'].sum() + datasets['book_second']['b'].sum())"
    report = Report(title="t", sections=[Section(section_type="code", content=code)], meta={"datasets": dataset_meta(datasets)})
    namespace = run_cells(build_notebook(report))
    assert namespace["result"] == 15 and "df" not in namespace  # two datasets: no df, as in the sandbox


def test_in_memory_frames_are_explained_not_guessed():
    meta = {"datasets": {"df": {"name": "df", "path": None}}, "follow_up": True, "workspace": "/ws"}
    report = Report(title="t", sections=[Section(section_type="code", content="result = len(df)")], meta=meta)
    sources = [c.source for c in build_notebook(report).cells]
    note = next(s for s in sources if "No file path was recorded" in s)
    assert "`df`" in note and "follow-up" in note and "/ws/cells/" in note
    data = next(s for s in sources if "datasets = {}" in s)
    assert "# datasets['df'] = ...  # no file was recorded for 'df'" in data and "# df = datasets['df']" in data


def test_imports_follow_the_sandbox_names_the_code_uses():
    assert imports_for("x = 1") == ["import pandas as pd", "import numpy as np"]
    lines = imports_for("fig = make_subplots(rows=2)\nsm.OLS\nplt.plot()\nstats.ttest_ind")
    assert "from plotly.subplots import make_subplots" in lines and "import statsmodels.api as sm" in lines
    assert "import matplotlib.pyplot as plt" in lines and "import scipy.stats as stats" in lines
    assert "import statsmodels.formula.api as smf" not in lines


def test_trimmed_column_names_are_trimmed_in_the_plain_pandas_line_too(tmp_path):
    path = tmp_path / "baro.csv"
    path.write_text("DATE, WINDSPEED\n2015-01-01,5.5\n2015-01-02,6.5\n", encoding="utf-8")
    datasets = load_datasets([path])
    report = Report(title="t", sections=[Section(section_type="code", content="result = df['WINDSPEED'].mean()")], meta={"datasets": dataset_meta(datasets)})
    sources = [c.source for c in build_notebook(report).cells]
    data = next(s for s in sources if "FILES = {" in s)
    plain = data.split("# or ", 1)[1].splitlines()[0]
    assert plain.endswith(".rename(columns=str.strip)")
    assert list(eval(plain, {"pd": pd}).columns) == ["DATE", "WINDSPEED"]  # noqa: S307 - the line the notebook offers
    assert run_cells(build_notebook(report))["result"] == 6.0


def test_numbers_read_from_text_are_read_so_in_the_plain_pandas_line_too(tmp_path):
    path = tmp_path / "votes.csv"
    path.write_text('area,votes,share\nNorth,"4,749",57.3 %\nSouth,"1,200",42.7 %\nEast,980,50 %\n', encoding="utf-8")
    datasets = load_datasets([path])
    report = Report(title="t", sections=[Section(section_type="code", content="result = df['votes'].sum()")], meta={"datasets": dataset_meta(datasets)})
    data = next(s for s in (c.source for c in build_notebook(report).cells) if "FILES = {" in s)
    plain = eval(data.split("# or ", 1)[1].splitlines()[0], {"pd": pd})  # noqa: S307 - the line the notebook offers
    assert plain["votes"].sum() == 6929 and plain["share"].tolist() == [57.3, 42.7, 50.0]
    assert run_cells(build_notebook(report))["result"] == 6929
