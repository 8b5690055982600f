"""The run log: migrations, rows written as the run goes, reading back."""

from sqlalchemy import text

from dsagent.store import RunLog
from dsagent.store.migrations import MIGRATIONS


def test_migrations_are_named_and_applied_once(tmp_path):
    url = f"sqlite:///{tmp_path / 'log.db'}"
    log = RunLog(url)
    RunLog(url)  # reopening applies nothing new
    with log.engine.connect() as conn:
        names = [r[0] for r in conn.execute(text("SELECT name FROM schema_migrations"))]
    assert names == [name for name, _ in MIGRATIONS]


def test_rows_are_visible_before_the_run_finishes(tmp_path):
    url = f"sqlite:///{tmp_path / 'log.db'}"
    log = RunLog(url)
    run_id = log.start_run(workflow="quick", model="scripted:x", question="q?", datasets=["a.csv"], workspace="/w")
    step = log.start_step(run_id, "plan")
    log.record_llm_call(run_id, node="plan", model="scripted:x", prompt_tokens=10, completion_tokens=5, latency_s=0.1)
    # A second connection (as after a crash) already sees everything written so far.
    other = RunLog(url)
    assert other.get_run(run_id)["status"] == "running"
    assert other.steps(run_id)[0]["node"] == "plan" and other.steps(run_id)[0]["ended_at"] is None
    assert other.llm_totals(run_id) == {"calls": 1, "prompt_tokens": 10, "completion_tokens": 5}
    log.finish_step(step, "ok", 0.2)
    log.add_artifact(run_id, "figure", "/w/figures/cell_1.json")
    log.finish_run(run_id, "ok", final_output={"explanation": "x"})
    run = other.get_run(run_id)
    assert run["status"] == "ok" and '"explanation"' in run["final_output"]
    assert other.artifacts(run_id)[0]["kind"] == "figure"
    assert other.recent_runs(5)[0]["id"] == run_id


def test_a_run_whose_process_died_reads_as_interrupted(tmp_path):
    import subprocess
    import sys

    url = f"sqlite:///{tmp_path / 'log.db'}"
    code = ("import os; from dsagent.store import RunLog; "
            f"log = RunLog({url!r}); print(log.start_run(workflow='quick', model='m', question='q', datasets=[], workspace='/w')); "
            "os._exit(9)")  # dies mid-run: no finish_run
    dead = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip()
    log = RunLog(url)
    alive = log.start_run(workflow="quick", model="m", question="q", datasets=[], workspace="/w")  # this process
    statuses = {r["id"]: r["status"] for r in log.recent_runs(5)}
    assert statuses == {dead: "interrupted", alive: "running"}
    run = log.get_run(dead)
    assert run["status"] == "interrupted" and "ended before the run finished" in run["error"]
