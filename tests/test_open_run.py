"""Session.open_run: the one way every workflow opens a run (row, context, sandbox, logging, end)."""

from __future__ import annotations

import pytest
from langchain_core.messages import HumanMessage


def _session(sales_csv, script_file, replies, **overrides):
    from dsagent.session import Session

    return Session([sales_csv], model=script_file(replies), **overrides)


def test_a_block_that_ends_finishes_the_run_ok_with_its_model_calls_logged(sales_csv, script_file):
    with _session(sales_csv, script_file, ["hello"]) as session:
        with session.open_run("clean", "tidy it") as ctx:
            assert ctx.llm([HumanMessage(content="hi")]) == "hello"
            assert ctx.sandbox.run("result = 1 + 1").success
        run = session.run_log.get_run(ctx.run_id)
        assert (run["status"], run["workflow"], run["question"]) == ("ok", "clean", "tidy it")
        calls = session.run_log.llm_calls(ctx.run_id)
        assert len(calls) == 1 and "hi" in calls[0]["prompt"] and calls[0]["reply"] == "hello"


def test_an_exception_finishes_the_run_failed_with_the_error(sales_csv, script_file):
    with _session(sales_csv, script_file, []) as session:
        with pytest.raises(ValueError):
            with session.open_run("assistant", "q") as ctx:
                raise ValueError("boom")
        run = session.run_log.get_run(ctx.run_id)
        assert run["status"] == "failed" and "ValueError: boom" in run["error"]


def test_a_run_finished_inside_the_block_keeps_its_status(sales_csv, script_file):
    with _session(sales_csv, script_file, []) as session:
        with session.open_run("clean", "q") as ctx:
            ctx.finish("needs_review", final_output={"a": 1})
        with session.open_run("assistant", "q") as other:  # finished through the run log itself
            other.run_log.finish_run(other.run_id, "error", error="no result")
        assert session.run_log.get_run(ctx.run_id)["status"] == "needs_review"
        assert session.run_log.get_run(other.run_id)["status"] == "error"


def test_data_sharing_schema_masks_cell_values_in_every_workflows_prompts(sales_csv, script_file):
    with _session(sales_csv, script_file, ["ok"], data_sharing="schema") as session:
        with session.open_run("clean", "q") as ctx:
            assert ctx.redact is not None
            sent = ctx.redact([HumanMessage(content="the region North sold")])
        assert "North" not in sent[0].content


def test_no_module_outside_the_session_reaches_for_its_private_sandbox():
    from pathlib import Path

    import dsagent

    src = Path(dsagent.__file__).parent
    users = [p for p in src.rglob("*.py") if "_LazySandbox" in p.read_text() and p.name != "session.py"]
    assert users == []


def test_a_model_that_fails_to_load_leaves_a_failed_run_in_the_log(sales_csv, tmp_path):
    from dsagent.errors import DsagentError
    from dsagent.session import Session

    with Session([sales_csv], model=f"scripted:{tmp_path / 'missing.json'}") as session:
        with pytest.raises(DsagentError):
            session.ask("How many rows?")
        runs = session.run_log.recent_runs()
        assert len(runs) == 1 and runs[0]["status"] == "failed" and runs[0]["workflow"] == "quick"
