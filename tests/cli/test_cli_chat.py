"""``dsagent chat``: a conversation over one Session, fed on stdin, with the scripted model."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd

from dsagent.cli.main import main


def reason(action, instruction=None, question=None):
    return {"rationale": action, "next_action": action, "instruction": instruction, "question": question, "assumption": None}


REPORT = {"title": "Units in the South", "sections": [{"section_type": "text", "content": "The South sold {total} units."}], "suggestions": []}


def test_chat_asks_back_then_answers_then_exits(script_file, sales_csv, monkeypatch, capsys):
    total = int(pd.read_csv(sales_csv).query("region == 'South'")["units"].sum())
    report = json.loads(json.dumps(REPORT).replace("{total}", str(total)))
    spec = script_file([
        reason("ask", question="Do you mean the total units sold in the South (my guess)?"),
        reason("act", instruction="Sum of units where region is South"),
        "result = int(df.loc[df['region'] == 'South', 'units'].sum())",
        reason("finalize"),
        report,
    ])
    monkeypatch.setattr(sys, "stdin", io.StringIO("How did the South do?\n\nYes, the total units\nexit\nnever read\n"))
    assert main(["chat", str(sales_csv), "--model", spec]) == 0
    captured = capsys.readouterr()
    answers = [line for line in captured.out.splitlines() if line.startswith("dsagent> ")]
    assert answers == ["dsagent> Do you mean the total units sold in the South (my guess)?", f"dsagent> The South sold {total} units."]
    assert "Report: " in captured.out and captured.out.count("Report: ") == 1  # the question turn has none
    assert "workflow: react" in captured.err and "you> " in captured.err
    assert "▸ reason" in captured.err and "✓ code_exec" in captured.err  # live progress


def test_chat_ends_at_end_of_input_and_survives_a_failed_message(script_file, sales_csv, monkeypatch, capsys):
    spec = script_file([reason("act", instruction="count rows"), "result = len(df)", reason("finalize"),
                        {"title": "Rows", "sections": [{"section_type": "text", "content": "40 rows."}]}])
    monkeypatch.setattr(sys, "stdin", io.StringIO("How many rows?\nAnd now?\n"))
    assert main(["chat", str(sales_csv), "--model", spec]) == 0  # the second message runs out of replies
    captured = capsys.readouterr()
    assert "dsagent> 40 rows." in captured.out
    assert "dsagent: error: scripted model ran out of replies" in captured.err


def test_chat_on_real_stdin(script_file, sales_csv, tmp_path):
    spec = script_file([reason("act", instruction="count rows"), "result = len(df)", reason("finalize"),
                        {"title": "Rows", "sections": [{"section_type": "text", "content": "There are 40 rows."}]}])
    out = subprocess.run([sys.executable, "-m", "dsagent.cli.main", "chat", str(sales_csv), "--model", spec],
                         input="How many rows?\n", capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "dsagent> There are 40 rows." in out.stdout
    report = next(line for line in out.stdout.splitlines() if line.startswith("Report: "))
    assert Path(report.removeprefix("Report: ")).exists()


def test_ask_runs_react(script_file, sales_csv, capsys):
    spec = script_file([reason("act", instruction="count rows"), "result = len(df)", reason("finalize"),
                        {"title": "Rows", "sections": [{"section_type": "text", "content": "There are 40 rows."}]}])
    assert main(["ask", str(sales_csv), "How many rows?", "--workflow", "react", "--model", spec, "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["workflow"] == "react" and payload["output_type"] == "report"
    assert payload["result_str"] == "40" and payload["explanation"] == "There are 40 rows."
