"""The tools on their own: readable strings with a next step, errors as strings, data/raw untouched."""

from __future__ import annotations

import sys
import types
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from dsagent.workflows.assistant import tools as T
from dsagent.workflows.assistant.graph import recursion_limit, run_config

from .conftest import raw_digest


def call(tool, project: Path, spec: str = "scripted:none.json", **args):
    return tool.func(**args, state={"project_dir": str(project)}, config={"configurable": {"agent_llm": {"model": spec}}})


def test_every_tool_has_a_schema_and_the_seed_names():
    names = [t.name for t in T.get_all_tools()]
    assert names[:8] == ["list_data_files", "view_summary", "view_tasks", "view_results", "summarize_data",
                         "suggest_tasks", "plan_analysis", "execute_analysis"]
    assert names[8:] == ["answer_question", "clean_data"]
    for tool in T.get_all_tools():
        schema = tool.tool_call_schema.model_json_schema()
        assert "state" not in schema.get("properties", {}) and tool.description


def test_results_end_with_a_next_step_and_errors_are_strings(project: Path):
    before = raw_digest(project)
    for tool, args in [(T.view_summary, {}), (T.view_tasks, {}), (T.view_results, {}), (T.plan_analysis, {"task_id": "T1"}),
                       (T.execute_analysis, {"task_id": "T1"}), (T.suggest_tasks, {}), (T.summarize_data, {"file_names": ["nope.csv"]})]:
        text = call(tool, project, **args)
        assert text.startswith("Error:") and "Next step:" in text, (tool.name, text)
    assert "Next step: summarize_data" in call(T.list_data_files, project)
    assert "✓ Summarized 2 file(s)" in call(T.summarize_data, project)
    assert "T1:" in call(T.suggest_tasks, project) and "Next step: execute_analysis T1" in call(T.suggest_tasks, project)
    assert "there is no task 'T99'" in call(T.plan_analysis, project, task_id="t99")
    assert "petal_length" in call(T.view_summary, project, file_name="iris")
    assert raw_digest(project) == before


def test_an_unexpected_exception_is_returned_not_raised(project: Path, monkeypatch):
    from dsagent.workflows.assistant import stages

    monkeypatch.setattr(stages, "summarize", lambda *a, **k: 1 / 0)
    text = call(T.summarize_data, project)
    assert text.startswith("Error: ZeroDivisionError") and "Next step" in text


def test_nothing_is_written_into_data_raw(project: Path):
    from dsagent.workflows.assistant.project import Project

    p = Project.at(project)
    with pytest.raises(PermissionError):
        p.write_text(p.raw / "x.csv", "a")
    with pytest.raises(PermissionError):
        p.write_text(project / "outside.txt", "a")


@pytest.mark.parametrize("setting", [None, "robust"])
def test_answer_question_runs_the_workflow_ask_uses(setting, project: Path, monkeypatch, script_file):
    """The same workflow as `dsagent ask` (the setting `workflow`, quick unless set): one question, one answer through every door."""
    from dsagent.session import AnalysisResult, Session

    asked = {}
    if setting:
        monkeypatch.setenv("DSAGENT_WORKFLOW", setting)

    def fake_ask(self, question, workflow=None):
        asked.update(question=question, workflow=workflow or self.settings.workflow, datasets=sorted(self.datasets))
        return AnalysisResult(explanation="The mean tip is 3.00.", result_str="3.0", report_path="/tmp/r.md", output_type="analysis")

    monkeypatch.setattr(Session, "ask", fake_ask)
    text, artifact = call(T.answer_question, project, script_file([]), question="What is the mean tip?")
    assert asked == {"question": "What is the mean tip?", "workflow": setting or "quick", "datasets": ["iris", "tips"]}
    assert "The mean tip is 3.00." in text and "Next step:" in text
    assert artifact["result_str"] == "3.0"  # the whole result, kept beside the message the model reads


@dataclass
class FakeOutcome:
    thread_id: str
    status: str
    recommended_steps: str = ""
    cleaned_files: list = field(default_factory=list)
    function_path: str = ""
    report_path: str = ""
    error: str = ""
    review_text: str = ""  # the real CleanOutcome: the steps and the code under review


def test_clean_data_review_then_resume(project: Path, monkeypatch):
    calls = []

    def clean(paths, instructions="", *, yes=False, model=None, settings=None, on_progress=None, thread_id=None):
        calls.append(("clean", [Path(p).name for p in paths], instructions))
        return FakeOutcome("th1", "needs_review", recommended_steps="1. drop duplicate rows",
                           review_text="1. drop duplicate rows\n\n```python\ndef data_cleaner(data_raw):\n    return data_raw.drop_duplicates()\n```")

    def resume(thread_id, answer, *, model=None, settings=None, on_progress=None):
        calls.append(("resume", thread_id, answer))
        return FakeOutcome(thread_id, "done", cleaned_files=["/out/tips_clean.csv"], function_path="/out/clean.py", report_path="/out/r.md")

    module = types.ModuleType("dsagent.workflows.clean.api")
    module.clean, module.resume = clean, resume
    monkeypatch.setitem(sys.modules, "dsagent.workflows.clean", types.ModuleType("dsagent.workflows.clean"))
    monkeypatch.setitem(sys.modules, "dsagent.workflows.clean.api", module)

    first = call(T.clean_data, project, file_names=["tips.csv"], instructions="drop duplicates")
    assert "drop duplicate rows" in first and "answer yes" in first
    assert "return data_raw.drop_duplicates()" in first  # the code a yes runs and saves, shown in full (issue 38, finding 7)
    from dsagent.workflows.assistant.project import Project

    assert T.pending_review(Project.at(project))["thread_id"] == "th1"
    second = call(T.clean_data, project, answer="yes")
    assert calls == [("clean", ["tips.csv"], "drop duplicates"), ("resume", "th1", "yes")]
    assert "tips_clean.csv" in second and T.pending_review(Project.at(project)) is None


def test_clean_data_without_the_clean_workflow_is_an_error_string(project: Path, monkeypatch):
    monkeypatch.setitem(sys.modules, "dsagent.workflows.clean.api", None)
    text = call(T.clean_data, project)
    assert text.startswith("Error:") and "Next step" in text


def test_recursion_limit_follows_max_tool_iterations():
    from dsagent.workflows.assistant import Configuration

    assert run_config(Configuration(max_tool_iterations=4))["recursion_limit"] == recursion_limit(4) > 2 * 4


def test_langsmith_tracer_is_wired_when_its_variables_are_set(monkeypatch):
    from unittest.mock import MagicMock

    import langchain_core.tracers.langchain as tracing
    from langchain_core.tracers.langchain import LangChainTracer

    monkeypatch.setattr(tracing, "get_client", lambda: MagicMock())  # no LangSmith client, no network

    monkeypatch.delenv("LANGSMITH_TRACING", raising=False)
    monkeypatch.delenv("LANGCHAIN_TRACING_V2", raising=False)
    assert "callbacks" not in run_config()
    monkeypatch.setenv("LANGCHAIN_TRACING_V2", "true")
    monkeypatch.setenv("LANGCHAIN_API_KEY", "test-key")
    monkeypatch.setenv("LANGCHAIN_PROJECT", "my-project")
    tracers = [c for c in run_config()["callbacks"] if isinstance(c, LangChainTracer)]
    assert len(tracers) == 1 and tracers[0].project_name == "my-project"


def test_clean_data_runs_the_real_clean_workflow_review_then_yes(project: Path, script_file):
    """clean_data through clean's own API (real graph, checkpointer and sandbox; scripted model)."""
    import json as _json

    import pandas as pd

    from dsagent.workflows.assistant.project import Project

    raw = project / "data" / "raw"
    rows = ["id,city,price"] + [f"{i},{['Lisbon', 'Porto'][i % 2]},{3 + i % 5}.50" for i in range(1, 41)]
    rows[7] = "7,  porto ,n.a."
    rows.append(rows[12])  # a duplicate row
    (raw / "shops.csv").write_text("\n".join(rows) + "\n")
    before = raw_digest(project)
    decision = {"reasoning": "Fix types and spellings; drop the duplicate.", "drop_sparse_columns": True, "impute_missing": True,
                "fix_types": True, "drop_duplicates": True, "drop_missing_rows": True, "drop_outliers": False,
                "skip_findings": [], "extra_steps": []}
    spec = script_file([_json.dumps(decision)])

    first = call(T.clean_data, project, spec, file_names=["shops.csv"], instructions="fix the prices")
    assert first.startswith("clean_data proposes these steps") and "Remove duplicate rows" in first, first
    assert T.pending_review(Project.at(project))["thread_id"]

    done = call(T.clean_data, project, spec, answer="yes")
    assert done.startswith("✓ Cleaned"), done
    assert T.pending_review(Project.at(project)) is None
    cleaned = next(line[2:] for line in done.splitlines() if line.startswith("- ") and line.endswith(".csv"))
    out = pd.read_csv(cleaned)
    assert len(out) == 40 and pd.api.types.is_numeric_dtype(out["price"]) and set(out["city"]) == {"Lisbon", "Porto"}
    assert raw_digest(project) == before  # data/raw is never written
