"""`dsagent report RUN_ID --format md|html|ipynb`: re-render any run from the run log."""

import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from dsagent.cli.main import main
from dsagent.config import load_settings
from dsagent.store import RunLog

PLAN = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "sum"}
CODE = "result = int(df['units'].sum())\nfig = px.bar(df.groupby('region', as_index=False)['units'].sum(), x='region', y='units')"


@pytest.fixture
def run(script_file, sales_csv, capsys):
    spec = script_file([PLAN, CODE, "The total is <b>computed</b>."])
    assert main(["ask", str(sales_csv), "How many units in total?", "--model", spec, "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    return payload


def report_cli(capsys, *args: str) -> Path:
    assert main(["report", *args]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    return Path(out[0])


def test_a_run_stores_its_report_and_renders_in_each_format(run, capsys, tmp_path):
    log = RunLog(load_settings().db_url)
    stored = json.loads(log.get_run(run["run_id"])["final_output"])["report"]
    assert stored["title"] == "How many units in total?"
    assert [s["section_type"] for s in stored["sections"]] == ["text", "text", "plotly", "code"]
    assert stored["meta"]["datasets"]["sales"]["path"].endswith("sales.csv") and stored["meta"]["follow_up"] is False
    kinds = {a["kind"]: a["path"] for a in log.artifacts(run["run_id"])}
    report_md = Path(run["report_path"])
    assert kinds["report"] == str(report_md) and kinds["report_html"] == str(report_md.with_suffix(".html"))
    assert "Plotly.newPlot(\"figure-1\"" in report_md.with_suffix(".html").read_text()  # written by the run itself

    for fmt in ("md", "html", "ipynb"):  # re-rendered beside the run's report.md
        path = report_cli(capsys, run["run_id"], "--format", fmt)
        assert path == report_md.with_suffix(f".{fmt}") and path.exists()
    assert "## Answer" in report_md.read_text()
    assert "The total is &lt;b&gt;computed&lt;/b&gt;." in report_md.with_suffix(".html").read_text()
    nbformat.validate(nbformat.read(report_md.with_suffix(".ipynb"), as_version=4))

    path = report_cli(capsys, run["run_id"], "--format", "md", "--out", str(tmp_path))  # --out may be a folder
    assert path == tmp_path / f"report_{run['run_id']}.md"
    assert "](figures/" not in path.read_text() and "figures/cell_1.json" in path.read_text()


def test_the_notebook_reruns_in_a_fresh_python(run, capsys, tmp_path):
    path = report_cli(capsys, run["run_id"][:5], "--format", "ipynb", "--out", str(tmp_path / "out"))  # a prefix; a new folder
    assert path == tmp_path / "out"
    notebook = nbformat.read(path, as_version=4)
    script = "\n\n".join(c.source for c in notebook.cells if c.cell_type == "code" and c.source not in ("result", "fig"))
    script += "\nprint(repr(result))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == run["result_str"]


def test_unknown_run_id_is_one_line(capsys):
    assert main(["report", "feedbeef0000", "--format", "md"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no run 'feedbeef0000'" in err[0] and "dsagent runs" in err[0]


def test_an_old_run_without_a_report_is_rebuilt(capsys, tmp_path):
    log = RunLog(load_settings().db_url)
    run_id = log.start_run(workflow="quick", model="local", question="Average price?", datasets=["sales.csv"], workspace=str(tmp_path / "gone"))
    log.finish_run(run_id, "ok", final_output={"explanation": "About 4.5.", "code": "result = df['price'].mean()", "result_str": "4.5",
                                               "figures": [], "failed_attempts": [], "report": None})
    md = report_cli(capsys, run_id, "--format", "md")
    assert md == tmp_path / f"report_{run_id}.md"  # the workspace is gone: the current folder
    text = md.read_text()
    assert "About 4.5." in text and "result = df['price'].mean()" in text and "```text\n4.5\n```" in text
    notebook = nbformat.read(report_cli(capsys, run_id, "--format", "ipynb"), as_version=4)
    assert any("No file path was recorded for `sales`" in c.source for c in notebook.cells)


def test_report_help_lists_the_formats(capsys):
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    out = capsys.readouterr().out
    assert "md,html,ipynb" in out and "RUN_ID" in out
