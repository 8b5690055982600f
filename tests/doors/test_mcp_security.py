"""The MCP door keeps to what its client may reach (issue 38, findings 4, 5 and 10): runs, reports
and clean threads it made itself, on files under its roots; column notes never through a link.

Each test calls ``Tools`` directly with the scripted model, a real sandbox, run log and (for
clean) the real clean workflow and its checkpoints. The run log and checkpoints are shared with
the CLI, as they are when a user runs both from the same dsagent home."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dsagent.config import load_settings
from dsagent.doors.mcp_server import Tools
from dsagent.errors import UserError
from dsagent.session import Session
from dsagent.store import RunLog

PLAN = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "compute it"}
SECRET = "TOPSECRET-4711"
DECISION = {"reasoning": "Fix the types found; keep every record.", "drop_sparse_columns": True, "impute_missing": True,
            "fix_types": True, "drop_duplicates": True, "drop_missing_rows": True, "drop_outliers": True, "skip_findings": [], "extra_steps": []}


@pytest.fixture
def roots(tmp_path: Path, sales_csv: Path) -> dict[str, Path]:
    """``data/`` is the server's one root; ``private/`` is the user's, outside it."""
    data, private = tmp_path / "data", tmp_path / "private"
    data.mkdir()
    private.mkdir()
    (data / "sales.csv").write_text(sales_csv.read_text())
    (data / "other.csv").write_text(sales_csv.read_text())
    rows = [f"{SECRET},91234"] + [f"Person {i},{40000 + 731 * i}" for i in range(40)]
    (private / "payroll.csv").write_text("name,salary\n" + "\n".join(rows) + "\n")
    return {"data": data, "private": private}


def _tools(spec: str, root: Path) -> Tools:
    return Tools(load_settings(model=spec, allowed_roots=[root]))


def _answer(spec_replies, script_file, root: Path, path: Path) -> tuple[Tools, str]:  # type: ignore[no-untyped-def]
    tools = _tools(script_file(spec_replies), root)
    text = tools.ask([str(path)], "What is the average number of units?")
    return tools, text.split("\nRun ")[1].split(" ")[0]


# --- finding 4: get_report ------------------------------------------------------------------


def test_get_report_refuses_a_cli_run_on_files_outside_the_roots(roots, script_file):
    spec = script_file([PLAN, "result = df.loc[df['salary'].idxmax(), 'name']", "The top earner is listed."])
    with Session([roots["private"] / "payroll.csv"], model=spec) as session:  # the user at the CLI
        cli_run = session.ask("Who earns most?")
    workspace = Path(cli_run.workspace)
    before = sorted(p.name for p in workspace.iterdir())
    tools = _tools(spec, roots["data"])
    for fmt in ("md", "html", "ipynb"):
        with pytest.raises(UserError, match="made by this server") as refused:
            tools.get_report(cli_run.run_id, fmt)
        assert SECRET not in str(refused.value)
    assert sorted(p.name for p in workspace.iterdir()) == before  # nothing written into the CLI run's workspace
    # The same words for a run that does not exist: the refusal does not tell which ids are real.
    with pytest.raises(UserError) as unknown:
        tools.get_report("0123456789ab")
    assert str(unknown.value).replace("0123456789ab", "ID") == str(refused.value).replace(cli_run.run_id, "ID")


def test_get_report_needs_the_full_id_of_a_run_this_server_made(roots, script_file):
    tools, run_id = _answer([PLAN, "result = df['units'].mean()", "About 21 units."], script_file, roots["data"], roots["data"] / "sales.csv")
    for prefix in (run_id[:1], run_id[:6], run_id[:-1]):
        with pytest.raises(UserError, match="made by this server"):
            tools.get_report(prefix)
    md = tools.get_report(run_id, "md")
    assert "What is the average number of units?" in md
    html = Path(tools.get_report(run_id, "html").rsplit(" ", 1)[1])
    run = RunLog(tools.settings.db_url).get_run(run_id)
    assert html.is_file() and html.parent == Path(run["workspace"])
    assert run["door"] == "mcp" and json.loads(run["door_files"]) == [str((roots["data"] / "sales.csv").resolve())]


def test_a_run_is_served_after_a_restart_and_not_once_its_files_leave_the_roots(roots, script_file, tmp_path):
    _tools_first, run_id = _answer([PLAN, "result = df['units'].mean()", "About 21 units."], script_file, roots["data"],
                                   roots["data"] / "sales.csv")
    restarted = _tools("scripted:/nonexistent.json", roots["data"])  # a new server process: the record is in the run log
    assert "What is the average number of units?" in restarted.get_report(run_id)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    narrowed = _tools("scripted:/nonexistent.json", elsewhere)  # restarted with another root
    with pytest.raises(UserError, match="made by this server"):
        narrowed.get_report(run_id)


def test_get_report_refuses_a_run_whose_workspace_is_not_under_workspace_root(roots, script_file, tmp_path):
    tools, run_id = _answer([PLAN, "result = df['units'].mean()", "About 21 units."], script_file, roots["data"], roots["data"] / "sales.csv")
    log = RunLog(tools.settings.db_url)
    log._write("UPDATE runs SET workspace = :w WHERE id = :id", w=str(roots["private"]), id=run_id)  # a run made with another workspace_root
    with pytest.raises(UserError, match="made by this server"):
        tools.get_report(run_id, "html")
    assert sorted(p.name for p in roots["private"].iterdir()) == ["payroll.csv"]


# --- finding 5: clean_data's thread_id --------------------------------------------------------


def _clean_cli(path: Path, script_file) -> str:  # type: ignore[no-untyped-def]
    from dsagent.workflows.clean.api import clean

    first = clean(path, "Clean it; keep every record.", model=script_file([DECISION]))
    assert first.status == "needs_review"
    return first.thread_id


def test_clean_data_refuses_a_thread_the_cli_made_on_files_outside_the_roots(roots, script_file):
    thread = _clean_cli(roots["private"] / "payroll.csv", script_file)
    from dsagent.workflows.clean.api import saved_state

    workspace = Path(saved_state(thread, load_settings())["workspace"])
    before = sorted(str(p) for p in workspace.rglob("*"))
    tools = _tools(script_file([]), roots["data"])
    for answer in ("yes", None):
        with pytest.raises(UserError, match="no clean thread") as refused:
            tools.clean_data([str(roots["data"] / "sales.csv")], answer=answer, thread_id=thread)
        assert SECRET not in str(refused.value) and "payroll" not in str(refused.value)
    assert sorted(str(p) for p in workspace.rglob("*")) == before  # the CLI's workspace is untouched


def test_clean_data_checks_the_threads_saved_files_not_only_its_record(roots, script_file):
    """A record that names files under the roots is not enough: the thread's checkpoint must name
    the same files (here a CLI thread on a private file, recorded as the door's by a stray write)."""
    thread = _clean_cli(roots["private"] / "payroll.csv", script_file)
    sales = str((roots["data"] / "sales.csv").resolve())
    tools = _tools(script_file([]), roots["data"])
    RunLog(tools.settings.db_url).record_thread(thread, "mcp", [sales])
    with pytest.raises(UserError, match="no clean thread"):
        tools.clean_data([sales], answer="yes", thread_id=thread)


def test_clean_data_thread_serves_only_its_own_files_and_survives_a_restart(roots, script_file):
    tools = _tools(script_file([DECISION]), roots["data"])
    first = tools.clean_data([str(roots["data"] / "sales.csv")], "Clean it; keep every record.")
    thread = first.split("(thread ")[1].split(")")[0]
    with pytest.raises(UserError, match="no clean thread"):
        tools.clean_data([str(roots["data"] / "other.csv")], "Clean it; keep every record.", answer="yes", thread_id=thread)
    with pytest.raises(UserError, match="no clean thread"):
        tools.clean_data([str(roots["data"] / "sales.csv")], answer="yes", thread_id="0123456789ab")  # an id no one made here
    restarted = _tools(script_file([]), roots["data"])  # a new process: no pending thread in memory
    done = restarted.clean_data([str(roots["data"] / "sales.csv")], "Clean it; keep every record.", answer="yes", thread_id=thread)
    assert "Cleaning done" in done and "Cleaned file: " in done
    cleaned = Path(done.split("Cleaned file: ")[1].splitlines()[0])
    assert cleaned.is_relative_to(Path(restarted.settings.workspace_root).resolve())


# --- finding 10: column notes through a link ----------------------------------------------------


@pytest.fixture
def linked_notes(roots: dict[str, Path]) -> Path:
    """``data/sales.notes.yaml`` is a link to a YAML file in ``private/``."""
    secret = roots["private"] / "keys.yaml"
    secret.write_text(f"table: {SECRET} the operator's keys\ncolumns:\n  units: {SECRET}\n")
    (roots["data"] / "sales.notes.yaml").symlink_to(secret)
    return roots["data"] / "sales.csv"


def test_profile_data_does_not_follow_a_notes_link_out_of_the_roots(linked_notes, roots, script_file):
    text = _tools(script_file([]), roots["data"]).profile_data([str(linked_notes)])
    assert SECRET not in text
    assert "sales.notes.yaml is a symbolic link, not read" in text and '"units" int64' in text


def test_ask_sends_no_linked_notes_to_the_model_nor_the_report(linked_notes, roots, script_file):
    """The Session path that every door shares (MCP ask, the LangGraph graphs)."""
    tools, run_id = _answer([PLAN, "result = df['units'].mean()", "About 21 units."], script_file, roots["data"], linked_notes)
    log = RunLog(tools.settings.db_url)
    prompts = [row["prompt"] or "" for row in log.llm_calls(run_id)]
    assert prompts and not any(SECRET in p for p in prompts)
    report = tools.get_report(run_id)
    assert SECRET not in report and "symbolic link, not read" in report


def test_notes_beside_the_data_are_held_to_the_roots(tmp_path, roots):
    from dsagent.data.sharing import read_beside

    plain = roots["private"] / "payroll.notes.yaml"
    plain.write_text("table: payroll\n")
    assert read_beside(plain) == ("table: payroll\n", None)  # the CLI: no roots, a regular file is read
    text, why = read_beside(plain, roots=[roots["data"]])
    assert text is None and "outside the allowed folders" in why
    fifo = roots["data"] / "sales.notes.yaml"
    import os

    os.mkfifo(fifo)
    text, why = read_beside(fifo, roots=[roots["data"]])  # never blocks on a pipe planted there
    assert text is None and "not a regular file" in why


def test_a_run_on_a_database_keeps_no_password_in_the_log():
    from dsagent.doors.owned import _files_allowed, recorded

    url = "postgresql://reader:s3cret-pw@db.example/shop"
    kept = recorded(["/data/sales.csv", url, "env:SHOP_URL"])
    assert "s3cret-pw" not in json.dumps(kept) and kept[0] == "/data/sales.csv" and kept[2] == "env:SHOP_URL"
    allowed = load_settings(allowed_roots=["/data"], allowed_sources=[url, "env:SHOP_URL"])
    assert _files_allowed(kept, allowed)
    assert not _files_allowed(kept, load_settings(allowed_roots=["/data"], allowed_sources=["env:SHOP_URL"]))
