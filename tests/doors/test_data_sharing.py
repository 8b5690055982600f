"""What the model is shown: data_sharing, prompts in the run log, `runs show --prompts`, column
notes, the usage line and the hosted-provider notice."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from dsagent.cli.main import main
from dsagent.config import load_settings
from dsagent.session import Session
from dsagent.store import RunLog

PLAN_EVAL = {"needs_code": True, "needs_evaluation": True, "needs_explanation": True, "reasoning": "sum per group"}
CODE = "print(df.head(8))\nprint(df.sort_values('amount').tail(3))\nresult = df.groupby('city')['amount'].sum()"


@pytest.fixture
def orders_csv(tmp_path: Path) -> Path:
    cities = ["Amsterdam", "Bordeaux", "Cardiff", "Dresden"]
    rows = ["order_id,city,customer,amount,placed"]
    for i in range(24):
        rows.append(f"SKU-{88230 + i},{cities[i % 4]},Customer {chr(65 + i)}{chr(75 + i % 9)},{1234.56 + 17.31 * i:.2f},2023-07-{i + 1:02d}")
    path = tmp_path / "orders.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def cell_values(path: Path) -> set[str]:
    """Every cell value as text, except 1–2 character numbers (the redactor leaves those: they are counts and indices too)."""
    frame = pd.read_csv(path, dtype=str)
    values = {v.strip() for v in frame.to_numpy().ravel() if isinstance(v, str)}
    return {v for v in values if len(v) >= 2 and not (v.replace(".", "").isdigit() and len(v) < 3)}


def prompts_of(run_id: str) -> list[str]:
    """Each call's messages as sent, as text (the run log stores them as JSON)."""
    rows = RunLog(load_settings().db_url).llm_calls(run_id)
    return ["\n".join(m["content"] for m in json.loads(row["prompt"])) if row["prompt"] else "" for row in rows]


def run_quick(spec: str, orders_csv: Path, sharing: str):  # type: ignore[no-untyped-def]
    with Session([orders_csv], model=spec, data_sharing=sharing) as session:
        return session.ask("What is the total amount per city?")


def test_schema_shows_no_cell_value_in_any_prompt(script_file, orders_csv):
    spec = script_file([PLAN_EVAL, CODE, "The sums look right.", "Each city's total is shown."])
    result = run_quick(spec, orders_csv, "schema")
    prompts = prompts_of(result.run_id)
    assert len(prompts) == 4 and all(prompts)
    values = cell_values(orders_csv)
    raw = [row["prompt"] for row in RunLog(load_settings().db_url).llm_calls(result.run_id)]  # the stored JSON too
    leaked = sorted(v for v in values if any(v in p for p in prompts + raw))
    assert leaked == [], f"cell values in prompts: {leaked[:10]}"
    # The run still computed on the real data; the user sees real values.
    assert "Amsterdam" in result.result_str
    joined = "\n".join(prompts)
    assert ('"city" str u=4' in joined or '"city" object u=4' in joined) and "schema only" in joined and "‹value›" in joined
    # The question and the column names reach the model untouched.
    assert "What is the total amount per city?" in joined and "'amount'" in joined


def test_full_shows_the_values_the_schema_run_hides(script_file, orders_csv):
    spec = script_file([PLAN_EVAL, CODE, "The sums look right.", "Each city's total is shown."])
    prompts = prompts_of(run_quick(spec, orders_csv, "full").run_id)
    shown = {v for v in cell_values(orders_csv) if any(v in p for p in prompts)}
    assert {"Amsterdam", "SKU-88230", "1234.56"} <= shown


def test_sample_cuts_printed_results(script_file, orders_csv):
    spec = script_file([PLAN_EVAL, CODE, "The sums look right.", "Each city's total is shown."])
    prompts = prompts_of(run_quick(spec, orders_csv, "sample").run_id)
    assert "more lines not shown to the model: data_sharing = sample" in prompts[2]
    assert "Customer A" in prompts[0]  # the profile keeps its example values


def test_runs_show_prompts_prints_what_was_sent_and_received(script_file, sales_csv, capsys):
    spec = script_file([PLAN_EVAL, "result = df['units'].mean()", "Plausible.", "About 21 units."])
    with Session([sales_csv], model=spec) as session:
        result = session.ask("What is the average of units?")
    capsys.readouterr()
    assert main(["runs", "show", result.run_id[:6], "--prompts"]) == 0
    out = capsys.readouterr().out
    assert out.count("----- sent · system") == 4 and out.count("----- received") == 4
    assert "datasets['sales']" in out and "About 21 units." in out and "result = df['units'].mean()" in out
    assert "4 model calls" in out
    assert main(["runs", "show"]) == 2
    assert "give a run id" in capsys.readouterr().err


def test_old_rows_without_prompts_say_so(tmp_path, capsys):
    log = RunLog(load_settings().db_url)
    run_id = log.start_run(workflow="quick", model="m", question="q", datasets=[], workspace=str(tmp_path))
    log.record_llm_call(run_id, node="plan", model="m", prompt_tokens=1, completion_tokens=1, latency_s=0.1)
    assert main(["runs", "show", run_id, "--prompts"]) == 0
    assert "not recorded" in capsys.readouterr().out


def test_notes_reach_the_prompt_and_the_report(script_file, orders_csv, tmp_path):
    (tmp_path / "orders.notes.yaml").write_text(
        "table: One row per order line.\ncolumns:\n  amount: {description: order total, unit: cents}\n  placed: order date\n  ghost: not a column\n")
    spec = script_file([PLAN_EVAL, "result = df['amount'].sum()", "ok", "The total is in cents."])
    with Session([orders_csv], model=spec) as session:
        result = session.ask("What is the total amount?")
    prompts = prompts_of(result.run_id)
    assert all('- "amount": order total [unit: cents]' in p and "table: One row per order line." in p for p in prompts)
    assert "ghost" not in prompts[0]
    report = Path(result.report_path).read_text()
    assert "## Column notes — orders.csv" in report and '"amount": order total [unit: cents]' in report
    assert "Model: scripted:" in report and "4 model calls" in report
    assert "Column notes" in Path(result.report_path).with_suffix(".html").read_text()


def test_notes_flag_and_bad_notes(script_file, sales_csv, tmp_path, capsys):
    notes = tmp_path / "dictionary.yaml"
    notes.write_text("columns:\n  units: {description: items sold, unit: pieces}\n")
    spec = script_file([PLAN_EVAL, "result = df['units'].sum()", "ok", "Total pieces."])
    assert main(["ask", str(sales_csv), "How many units?", "--model", spec, "--notes", str(notes)]) == 0
    out = capsys.readouterr().out
    run_id = out.split("Run: ")[1].split(" ")[0]
    assert "[unit: pieces]" in prompts_of(run_id)[0]
    assert "4 model calls" in out and "tokens" in out
    notes.write_text("columns: [a, b]\n")
    assert main(["ask", str(sales_csv), "How many units?", "--model", spec, "--notes", str(notes)]) == 2
    assert "write `table: <description>`" in capsys.readouterr().err
    assert main(["ask", str(sales_csv), "How many units?", "--model", spec, "--notes", "missing.yaml"]) == 2


def test_notes_keep_to_their_budget(tmp_path):
    from dsagent.data.sharing import notes_text

    notes = {"columns": {f"c{i}": "a long description of this column " * 3 for i in range(60)}}
    text = notes_text(notes, [f"c{i}" for i in range(60)], budget=200)
    from dsagent.data.tokens import count_tokens

    assert count_tokens(text) <= 220 and "more column notes not shown" in text


def test_usage_line_and_hosted_notice(monkeypatch):
    from dsagent.doors.text import sharing_notice, usage_line

    local = load_settings(model="local")
    assert sharing_notice(local) is None
    assert usage_line(3, 1204, 85, 12.34, local) == "3 model calls · 1,204 + 85 tokens · 12.3 s"
    hosted = load_settings(model="openai:gpt-4.1-mini", data_sharing="schema", price_input_per_mtok=0.4, price_output_per_mtok=1.6)
    assert usage_line(3, 1_000_000, 500_000, 1.0, hosted).endswith("· $1.2000")
    notice = sharing_notice(hosted)
    assert notice.startswith("openai receives your questions") and "cell values are masked" in notice
    assert "$" not in usage_line(1, 10, 10, 1.0, load_settings(model="openai:gpt-4.1-mini"))


def test_data_sharing_setting_is_checked(monkeypatch, sales_csv, capsys):
    monkeypatch.setenv("DSAGENT_DATA_SHARING", "everything")
    assert main(["ask", str(sales_csv), "How many?"]) != 0
    assert "data_sharing" in capsys.readouterr().err


def test_schema_holds_in_robust_and_react(script_file, orders_csv):
    """The same scan over robust (node 2 profiles the data itself) and react (structured calls)."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from robust_script import ALIGNED, DATA_WORK

    req = {"reasoning": "a sum per group", "variables_needed": ["city", "amount"], "constraints": [],
           "analysis_type": "descriptive", "success_criteria": "the sum per city"}
    profile = {"reasoning": "ok", "available_columns": ["city", "amount"], "missing_columns": [],
               "data_quality": {}, "limitations": [], "is_suitable": True}
    robust = script_file([DATA_WORK, req, profile, ALIGNED, CODE, "result = df.groupby('city')['amount'].sum()", "Totals per city."])
    react = script_file([
        {"rationale": "sum it", "next_action": "act", "instruction": "sum amount per city", "question": None, "assumption": None},
        CODE,
        {"rationale": "done", "next_action": "finalize", "instruction": None, "question": None, "assumption": None},
        {"title": "Totals", "sections": [{"section_type": "text", "content": "Totals per city."}], "suggestions": []},
    ])
    values = cell_values(orders_csv)
    for spec, workflow in ((robust, "robust"), (react, "react")):
        with Session([orders_csv], model=spec, data_sharing="schema", workflow=workflow) as session:
            result = session.ask("What is the total amount per city?")
        prompts = prompts_of(result.run_id)
        assert len(prompts) >= 4, workflow
        leaked = sorted(v for v in values if any(v in p for p in prompts))
        assert leaked == [], f"{workflow}: cell values in prompts: {leaked[:10]}"
