"""The CLI: fast help, JSON output, one-line errors, runs and models."""

import json
import subprocess
import sys

from dsagent.cli.main import main

PLAN = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "sum"}


def test_help_imports_nothing_heavy():
    code = (
        "import sys; from dsagent.cli.main import main\n"
        "for argv in (['--help'], ['web', '--help']):\n"
        "    try:\n        main(argv)\n    except SystemExit:\n        pass\n"
        "heavy = [m for m in ('pandas', 'langchain_core', 'langgraph', 'sqlalchemy', 'numpy', 'llama_cpp',"
        " 'streamlit', 'plotly') if m in sys.modules]\n"
        "assert not heavy, heavy"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "ask" in out.stdout and "runs" in out.stdout and "models" in out.stdout
    assert "web" in out.stdout and "--port" in out.stdout


def test_ask_json(script_file, sales_csv, capsys):
    spec = script_file([PLAN, "result = int(df['units'].sum())", "Total units computed."])
    assert main(["ask", str(sales_csv), "How many units in total?", "--model", spec, "--json"]) == 0
    captured = capsys.readouterr()
    payload = json.loads(captured.out)
    for key in ("explanation", "evaluation", "code", "plan", "output_type", "figures", "result_str", "failed_attempts", "run_id", "attempts", "report_path"):
        assert key in payload
    import pandas as pd

    assert int(payload["result_str"]) == int(pd.read_csv(sales_csv)["units"].sum())
    assert "▸ plan" in captured.err and "✓ code" in captured.err  # live progress on stderr


def test_ask_prints_each_nodes_detail(script_file, sales_csv, capsys):
    """The progress contract: a node_end's detail is in ProgressEvent.message, and `dsagent ask` prints it."""
    spec = script_file([PLAN, "result = int(df['units'].sum())", "Total units computed."])
    assert main(["ask", str(sales_csv), "How many units in total?", "--model", spec]) == 0
    err = capsys.readouterr().err
    plan_line = next(line for line in err.splitlines() if "✓ plan" in line)
    assert " — needs_code=True needs_evaluation=False" in plan_line, err


def test_ask_human_output_and_runs(script_file, sales_csv, capsys):
    spec = script_file([PLAN, "result = 2 if len(df) else 0", "Two."])
    assert main(["ask", str(sales_csv), "two?", "--model", spec]) == 0
    out = capsys.readouterr().out
    assert "Two." in out and "Code:" in out and "Report:" in out
    assert main(["runs"]) == 0
    assert "two?" in capsys.readouterr().out


def test_errors_are_one_clean_line(tmp_path, capsys, script_file):
    spec = script_file([])
    assert main(["ask", str(tmp_path / "nope.csv"), "q?", "--model", spec]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("dsagent: error:") and "nope.csv" in err[0]
    assert main(["ask", "only-a-question"]) == 2
    assert main(["ask", str(tmp_path / "x.csv"), "q", "--model", "bogus:x"]) == 2


def test_debug_shows_the_traceback_before_or_after_the_subcommand(tmp_path, capsys, script_file):
    spec = script_file([])
    for argv in (["--debug", "ask"], ["ask", "--debug"]):
        assert main([*argv, str(tmp_path / "nope.csv"), "q?", "--model", spec]) == 2
        assert "Traceback (most recent call last)" in capsys.readouterr().err, argv


def test_out_of_replies_is_a_provider_error(script_file, sales_csv, capsys):
    spec = script_file([PLAN])
    assert main(["ask", str(sales_csv), "q?", "--model", spec]) == 3
    assert "ran out of replies" in capsys.readouterr().err


def test_models_status(capsys):
    assert main(["models"]) == 0
    out = capsys.readouterr().out
    assert "configured model: local" in out and "not installed" in out


def test_ask_shows_whether_the_answer_is_verified(script_file, sales_csv, capsys, monkeypatch):
    monkeypatch.setenv("DSAGENT_VERIFY", "1")  # the last two replies are the independent checks (common.verify)
    spec = script_file([PLAN, "result = int(df['units'].sum())", "Total units computed.", "result = df.units.sum()", "result = int(df['units'].agg('sum'))"])
    assert main(["ask", str(sales_csv), "How many units in total?", "--model", spec]) == 0
    assert "✓ Verified: two independent computations of the question give the same result" in capsys.readouterr().out
    spec = script_file([PLAN, "result = int(df['units'].sum())", "Total units computed.", "result = df.units.sum()", "result = int(df['units'].agg('sum'))"])
    assert main(["ask", str(sales_csv), "How many units in total?", "--model", spec, "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["verified"] is True and payload["verification"].startswith("verified:")
    assert payload["verification_checks"][0]["code"].strip() == "result = df.units.sum()"


def test_json_says_why_an_answer_was_not_checked(script_file, sales_csv, capsys):
    spec = script_file([PLAN, "result = int(df['units'].sum())", "Total units computed."])  # verify off (script_file)
    assert main(["ask", str(sales_csv), "How many units in total?", "--model", spec, "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["verified"] is False and payload["verification"] == "not checked: the setting verify is off"


def test_a_not_checked_answer_prints_no_empty_mark_line(script_file, sales_csv, capsys):
    # verify off (script_file): the mark is "not checked", whose line is empty, so nothing is printed for it
    spec = script_file([PLAN, "result = int(df['units'].sum())", "Total units computed."])
    assert main(["ask", str(sales_csv), "How many units in total?", "--model", spec]) == 0
    out = capsys.readouterr().out
    assert "Verified" not in out and "\n\n\nResult:" not in out
    assert "\n\nResult:\n" in out  # the result follows the explanation after one blank line
