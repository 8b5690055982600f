"""The clean workflow end to end with the scripted model: review loop, fix loop, guards, flags."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pandas as pd

from dsagent.config import load_settings
from dsagent.workflows.clean.api import clean, resume, saved_state

from .conftest import decision

KEEP = "Clean it; keep id and every genuine record."
FAILING = "```python\ndef custom_steps(df):\n    raise ValueError('boom in custom step')\n```"
HALVING = "```python\ndef custom_steps(df):\n    df['flag'] = 1\n    return df.iloc[: len(df) // 2]\n```"
FIXED = "```python\ndef custom_steps(df):\n    df['flag'] = 1\n    return df\n```"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_review_loop_edit_once_then_yes(dirty_csv, script_file):
    before = digest(dirty_csv)
    first = clean(dirty_csv, KEEP, model=script_file([decision()]))
    assert first.status == "needs_review" and first.cleaned_files == []
    assert "Remove duplicate rows" in first.recommended_steps
    review = first.review
    assert review["action_request"]["action"] == "review_cleaning_steps"
    assert review["action_request"]["args"]["recommended_steps"] == first.recommended_steps
    assert review["config"] == {"allow_accept": True, "allow_edit": True, "allow_respond": True, "allow_ignore": False}
    json.dumps(review)  # a plain JSON-able dict

    second = resume(first.thread_id, "do not remove duplicates", model=script_file([decision(drop_duplicates=False)]))
    assert second.status == "needs_review" and second.thread_id == first.thread_id
    assert "Remove duplicate rows" not in second.recommended_steps
    state = saved_state(first.thread_id, load_settings())
    assert state["user_instructions"].endswith("Added instructions: do not remove duplicates")
    assert state["review_rounds"] == 1

    done = resume(first.thread_id, [{"type": "accept", "args": None}], model=script_file([]))
    assert done.status == "done", done.error
    csv, parquet = done.cleaned_files
    assert csv.endswith(".csv") and parquet.endswith(".parquet")
    out = pd.read_csv(csv)
    assert len(out) == 61  # the duplicate stays, as the reviewer asked
    assert pd.api.types.is_numeric_dtype(out["price"]) and set(out["city"]) == {"Lisbon", "Porto", "Braga"}
    assert Path(done.function_path).read_text().count("def data_cleaner(data_raw)") == 1
    assert Path(done.report_path).exists() and Path(done.report_path).with_suffix(".html").exists()
    assert digest(dirty_csv) == before  # the source file is never written


def test_fix_loop_stops_at_max_retries(dirty_csv, script_file, monkeypatch):
    monkeypatch.setenv("DSAGENT_CLEAN_MAX_RETRIES", "2")
    script = script_file([decision(extra_steps=["add a column named flag set to 1"]), *[FAILING] * 5])
    out = clean(dirty_csv, KEEP + " Also add a flag column.", yes=True, model=script)
    assert out.status == "error"
    assert "boom in custom step" in out.error
    state = saved_state(out.thread_id, load_settings())
    assert state["retry_count"] == 2
    # recommend, custom code, two fixes: each repeats the failing code, so it is asked once more,
    # warmer (common.code.write_code), as every workflow's code step does
    assert out.llm_calls == 6
    assert out.report_path and "did not pass" in Path(out.report_path).read_text()


def test_guard_sends_an_unannounced_drop_back_to_fixing(dirty_csv, script_file):
    script = script_file([decision(extra_steps=["add a column named flag set to 1"]), HALVING, FIXED])
    out = clean(dirty_csv, KEEP + " Also add a flag column.", yes=True, model=script)
    assert out.status == "done", out.error
    assert out.llm_calls == 3
    assert len(pd.read_csv(out.cleaned_files[0])) == 60
    saved = Path(out.function_path).read_text()
    assert "df['flag'] = 1" in saved and "len(df) // 2" not in saved  # the fixed custom_steps is what was saved


def test_yes_runs_unattended_with_one_model_call(dirty_csv, script_file):
    out = clean(dirty_csv, KEEP, yes=True, model=script_file([decision()]))
    assert out.status == "done" and out.llm_calls == 1
    assert len(pd.read_csv(out.cleaned_files[0])) == 60


def test_bypass_recommended_steps_needs_no_model(dirty_csv, script_file):
    out = clean(dirty_csv, KEEP, bypass_recommended_steps=True, model=script_file([]))
    assert out.status == "done" and out.llm_calls == 0
    assert "Parse 'price' as numbers" in out.recommended_steps


def test_bypass_explain_code_ends_without_report(dirty_csv, script_file):
    out = clean(dirty_csv, KEEP, yes=True, bypass_explain_code=True, model=script_file([decision()]))
    assert out.status == "done" and out.report_path is None
    assert Path(out.cleaned_files[1]).exists()


def test_default_policy_without_instructions_drops_rows_it_announces(dirty_csv, script_file):
    out = clean(dirty_csv, "", yes=True, model=script_file([decision(drop_missing_rows=False)]))
    assert out.status == "done"
    assert "Remove rows that still have missing values" in out.recommended_steps  # no instruction: the model cannot switch it off


def test_graph_served_without_a_context_interrupts_and_resumes(dirty_csv, script_file, monkeypatch):
    """As a LangGraph server runs it: build_graph() alone, state in, interrupt out, Command(resume=...) back."""
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.types import Command

    from dsagent.workflows.clean.graph import build_graph

    monkeypatch.setenv("DSAGENT_MODEL", script_file([decision()]))
    graph = build_graph(InMemorySaver())
    config = {"configurable": {"thread_id": "served"}}
    first = graph.invoke({"data_raw": {"shops": {"path": str(dirty_csv)}}, "user_instructions": KEEP, "max_retries": 2}, config)
    (pending,) = first["__interrupt__"]
    assert pending.value["action_request"]["action"] == "review_cleaning_steps"
    json.dumps(pending.value)
    done = graph.invoke(Command(resume=[{"type": "accept", "args": None}]), config)
    assert done["data_cleaner_error"] is None
    assert Path(done["data_cleaned"]["shops"]["csv"]).exists() and Path(done["report_path"]).exists()
