"""Notebooks: the accessor, dsagent.ask and %%dsagent in a real notebook run by a real kernel
(nbclient + ipykernel, this venv's python, the scripted model, a real sandbox)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

PLAN_CHART = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "a chart"}
PLAN = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "compute it"}
PLOTLY_MIME = "application/vnd.plotly.v1+json"


def _kernelspec(tmp_path: Path, env: dict[str, str]) -> Path:
    """A kernelspec that starts this venv's python with the test's environment."""
    share = tmp_path / "jupyter"
    spec = share / "kernels" / "dsagent-test"
    spec.mkdir(parents=True)
    spec.joinpath("kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "dsagent test", "language": "python", "env": env,
    }))
    return share


def test_notebook_runs_with_a_real_kernel(tmp_path, monkeypatch, script_file, sales_csv):
    from nbclient import NotebookClient

    # Each call is its own Session, which reads a scripted model's file from its first reply.
    spec = script_file([PLAN_CHART, "fig = px.histogram(df, x='units', title='Units per row')", "Most rows sell 10 to 20 units."])
    magic_spec = script_file([PLAN, "result = df['units'].mean()", "The average is about 21 units."])
    import os

    env = {k: os.environ[k] for k in ("DSAGENT_HOME", "DSAGENT_WORKSPACE_ROOT")}
    env.update(DSAGENT_MODEL=spec, JUPYTER_PLATFORM_DIRS="1")
    monkeypatch.setenv("JUPYTER_PATH", str(_kernelspec(tmp_path, env)))
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(tmp_path / "runtime"))
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("import sys, pandas as pd, dsagent\nprint(sys.executable)\ndf = pd.read_csv('sales.csv')"),
        nbformat.v4.new_code_cell("df.dsagent.ask('Show a histogram of units')"),
        nbformat.v4.new_code_cell("%load_ext dsagent"),
        nbformat.v4.new_code_cell(f"%%dsagent df --model {magic_spec}\nWhat is the average number of units?"),
        nbformat.v4.new_code_cell("%%dsagent no_such_frame.csv\nAnything?"),
    ]
    NotebookClient(nb, kernel_name="dsagent-test", timeout=180, resources={"metadata": {"path": str(tmp_path)}}).execute()

    assert nb.cells[0].outputs[0]["text"].strip() == sys.executable
    chart = [o for o in nb.cells[1].outputs if o["output_type"] == "display_data"]
    mimes = [set(o["data"]) for o in chart]
    assert any(PLOTLY_MIME in m for m in mimes) and any("text/html" in m for m in mimes)
    figure = next(o["data"][PLOTLY_MIME] for o in chart if PLOTLY_MIME in o["data"])
    assert figure["layout"]["title"]["text"] == "Units per row" and figure["data"][0]["type"] == "histogram"
    html = "".join(o["data"].get("text/html", "") for o in chart)
    assert "Most rows sell 10 to 20 units." in html
    assert "<details><summary>Code</summary>" in html and "px.histogram(df, x=&#x27;units&#x27;" in html
    assert "3 model calls" in html

    answer = "".join(o["data"].get("text/html", "") for o in nb.cells[3].outputs if o["output_type"] == "display_data")
    mean = sum(int(line.split(",")[2]) for line in sales_csv.read_text().splitlines()[1:]) / 40
    assert "The average is about 21 units." in answer and f"<pre>{mean}</pre>" in answer
    assert "dsagent: error:" in nb.cells[4].outputs[0]["text"] and "no_such_frame.csv" in nb.cells[4].outputs[0]["text"]


def test_import_is_lazy_and_registers_the_accessor_later():
    code = ("import sys, dsagent; assert 'pandas' not in sys.modules; import pandas as pd; "
            "print(type(pd.DataFrame({'a': [1]}).dsagent).__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "DsagentAccessor"


def test_ask_needs_a_question_and_data():
    import dsagent
    from dsagent.errors import UserError

    with pytest.raises(UserError, match="at least one DataFrame"):
        dsagent.ask("What is the mean?")
    with pytest.raises(UserError, match="question comes first"):
        dsagent.ask(None, "x.csv")  # type: ignore[arg-type]


def test_mimebundle_has_html_and_plotly(tmp_path):
    from dsagent.config import load_settings
    from dsagent.doors.notebook import PLOTLY_MIME as MIME, NotebookAnswer
    from dsagent.session import AnalysisResult

    fig = tmp_path / "cell_1.json"
    fig.write_text(json.dumps({"data": [{"type": "bar", "x": [1], "y": [2]}], "layout": {"title": {"text": "T"}}}))
    result = AnalysisResult(explanation="It <is> up.", code="fig = 1", figures=[str(fig)], alignment_caveats=["only 2024"], run_id="r1")
    bundle = NotebookAnswer(result, load_settings())._repr_mimebundle_()
    assert bundle[MIME]["data"][0]["type"] == "bar"
    assert "It &lt;is&gt; up." in bundle["text/html"] and "<li>only 2024</li>" in bundle["text/html"]
    assert "<details><summary>Code</summary>" in bundle["text/html"] and "It <is> up." in bundle["text/plain"]


def test_the_answer_shows_its_verified_mark():
    from dsagent.config import load_settings
    from dsagent.doors.notebook import NotebookAnswer
    from dsagent.session import AnalysisResult

    shown = AnalysisResult(explanation="21.", result_str="21.0", run_id="r1", verified=True,
                           verification="verified: an independent computation of the question gives the same result")
    html = NotebookAnswer(shown, load_settings())._repr_html_()
    assert "✓ Verified: an independent computation of the question gives the same result" in html
    unsure = AnalysisResult(explanation="21.", result_str="21.0", run_id="r2", verification="not sure: independent computations gave 19.0")
    assert "? Not verified: not sure — independent computations gave 19.0" in NotebookAnswer(unsure, load_settings())._repr_html_()
    unchecked = AnalysisResult(explanation="A chart.", run_id="r3", verification="not checked: a chart")
    assert "erified" not in NotebookAnswer(unchecked, load_settings())._repr_html_()
