"""Issue 38, findings 3 and 7: what a client of the served clean graph may choose, and the saved cleaner.

- Finding 3: the graph served by the LangGraph server takes its workspace from the operator's
  settings (``workspace_root``), one per thread, never from the client's state or configuration;
  its data paths are held to ``allowed_roots``; two threads never share a session.
- Finding 7: ``data_cleaner.py`` holds exactly the code that was reviewed (or accepted with
  ``--yes``) and ran in the sandbox, shown in full in the review and the report; ``python
  data_cleaner.py`` refuses to run, and ``dsagent clean --rerun`` runs it in the sandbox.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from dsagent.workflows.clean.api import clean, resume

from .conftest import decision

KEEP = "Clean it; keep id and every genuine record."
FLAG = KEEP + " Also add a flag column."
HALVING = "```python\ndef custom_steps(df):\n    df['flag'] = 1\n    return df.iloc[: len(df) // 2]\n```"
FIXED = "```python\ndef custom_steps(df):\n    df['flag'] = 1\n    return df\n```"


def served_graph():  # type: ignore[no-untyped-def]
    """The graph the LangGraph server serves, compiled with a checkpointer as the server does."""
    from langgraph.checkpoint.memory import InMemorySaver

    from dsagent.doors.langgraph_app import clean as door

    return door().builder.compile(checkpointer=InMemorySaver())


def files_under(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file()] if folder.exists() else []


# --- finding 3: the served graph's workspace and paths come from the operator -----------------------------------------


def test_served_graph_never_writes_where_the_client_says(dirty_csv, script_file, monkeypatch, tmp_path):
    from langgraph.types import Command

    monkeypatch.setenv("DSAGENT_MODEL", script_file([decision()]))
    monkeypatch.setenv("DSAGENT_ALLOWED_ROOTS", json.dumps([str(tmp_path)]))
    elsewhere = tmp_path / "tmp" / "elsewhere"
    graph = served_graph()
    config = {"configurable": {"thread_id": "t-3", "workspace": str(elsewhere)}}
    first = graph.invoke({"data_raw": {"shops": {"path": str(dirty_csv)}}, "user_instructions": KEEP, "max_retries": 1,
                          "workspace": str(elsewhere)}, config)
    assert first["__interrupt__"]
    graph.update_state(config, {"workspace": str(elsewhere)})  # the server's API lets a client write state too
    done = graph.invoke(Command(resume="yes"), config)
    assert done["data_cleaner_error"] is None
    assert not elsewhere.exists() and not files_under(tmp_path / "tmp")
    root = Path(os.environ["DSAGENT_WORKSPACE_ROOT"]).resolve()
    written = [done["data_cleaned"]["shops"]["csv"], done["data_cleaned"]["shops"]["parquet"], done["report_path"],
               done["data_cleaner_function_path"], done["workspace"]]
    assert all(Path(p).resolve().is_relative_to(root) for p in written), written


def test_served_graph_refuses_a_path_outside_the_allowed_roots(dirty_csv, script_file, monkeypatch, tmp_path):
    monkeypatch.setenv("DSAGENT_MODEL", script_file([decision()]))
    data = tmp_path / "data"
    data.mkdir()
    (data / "link.csv").symlink_to(dirty_csv)  # a link inside the root to a file outside it
    monkeypatch.setenv("DSAGENT_ALLOWED_ROOTS", json.dumps([str(data)]))
    graph = served_graph()
    for path in (str(dirty_csv), "/etc/passwd", str(data / "link.csv"), str(data / ".." / dirty_csv.name)):
        with pytest.raises(Exception, match="outside the allowed folders"):
            graph.invoke({"data_raw": {"x": {"path": path}}, "user_instructions": KEEP}, {"configurable": {"thread_id": f"t-{path}"}})
    assert not files_under(Path(os.environ["DSAGENT_WORKSPACE_ROOT"]))  # nothing was written for a refused run


def test_two_threads_of_one_served_graph_clean_their_own_files(dirty_csv, script_file, monkeypatch, tmp_path):
    monkeypatch.setenv("DSAGENT_MODEL", script_file([decision(), decision()]))
    monkeypatch.setenv("DSAGENT_ALLOWED_ROOTS", json.dumps([str(tmp_path)]))
    other = tmp_path / "other.csv"
    other.write_text("code,amount\n" + "".join(f"c{i},{i}\n" for i in range(30)))
    graph = served_graph()
    a = graph.invoke({"data_raw": {"shops": {"path": str(dirty_csv)}}, "user_instructions": KEEP}, {"configurable": {"thread_id": "a"}})
    b = graph.invoke({"data_raw": {"other": {"path": str(other)}}, "user_instructions": KEEP}, {"configurable": {"thread_id": "b"}})
    assert "price" in a["recommended_steps"] and "price" not in b["recommended_steps"]
    assert a["workspace"] != b["workspace"]


# --- finding 7: the saved cleaner is the reviewed code that ran -------------------------------------------------------


@pytest.fixture
def ran(monkeypatch):  # type: ignore[no-untyped-def]
    """Every cell the sandbox ran, in order."""
    from dsagent.sandbox.manager import Sandbox

    cells: list[str] = []
    original = Sandbox.run

    def run(self, code, *args, **kwargs):  # type: ignore[no-untyped-def]
        cells.append(code)
        return original(self, code, *args, **kwargs)

    monkeypatch.setattr(Sandbox, "run", run)
    return cells


def saved_code(path: str) -> str:
    from dsagent.workflows.clean.cleaner_file import code_of

    return code_of(Path(path).read_text())


def writes(cell: str) -> bool:
    """A cleaning cell that writes its output (the preview before the review does not)."""
    return "CLEAN_INFO" in cell and "if True:\n    _out.to_csv" in cell


def assert_ran(code: str, cells: list[str]) -> None:
    """``code`` is what the last cleaning cell ran (dsagent's own trace lines aside)."""
    from dsagent.workflows.clean.snippets import untraced

    last = [c for c in cells if writes(c)][-1]
    assert code in untraced(last)


def test_the_review_shows_the_full_code_that_runs_and_is_saved(dirty_csv, script_file, ran):
    first = clean(dirty_csv, FLAG, model=script_file([decision(extra_steps=["add a column named flag set to 1"]), FIXED]))
    assert first.status == "needs_review"
    shown = first.review["action_request"]["args"]["code"]
    assert list(shown) == ["data_cleaner.py"] and "df['flag'] = 1" in shown["data_cleaner.py"]
    assert shown["data_cleaner.py"] in first.review["description"] and shown["data_cleaner.py"] in first.review_text
    assert not any(writes(c) or "custom_steps" in c for c in ran)  # only the preview of the vetted steps ran before the review
    done = resume(first.thread_id, "yes", model=script_file([]))
    assert done.status == "done", done.error
    assert saved_code(done.function_path) == shown["data_cleaner.py"] == done.code["data_cleaner.py"]
    assert_ran(shown["data_cleaner.py"], ran)
    assert shown["data_cleaner.py"] in Path(done.report_path).read_text()  # the report shows it in full


def test_code_the_fix_rewrote_is_reviewed_before_it_runs_and_is_saved(dirty_csv, script_file, ran):
    first = clean(dirty_csv, FLAG, model=script_file([decision(extra_steps=["add a column named flag set to 1"]), HALVING]))
    halving = first.review["action_request"]["args"]["code"]["data_cleaner.py"]
    assert "len(df) // 2" in halving
    second = resume(first.thread_id, "yes", model=script_file([FIXED]))
    # The halving cleaner ran (in the sandbox), the guard sent it back, the model rewrote it: asked again.
    assert second.status == "needs_review", second.error
    fixed = second.review["action_request"]["args"]["code"]["data_cleaner.py"]
    assert "len(df) // 2" not in fixed and "df['flag'] = 1" in fixed and fixed in second.review_text
    assert "guard" in second.review["description"]  # why it was rewritten
    assert saved_code(second.function_path) == halving  # the unreviewed rewrite is not saved
    done = resume(first.thread_id, "yes", model=script_file([]))
    assert done.status == "done", done.error
    assert saved_code(done.function_path) == fixed
    assert_ran(fixed, ran)
    assert fixed in Path(done.report_path).read_text()


def test_with_yes_the_saved_code_is_the_code_that_ran_and_the_report_shows_it(dirty_csv, script_file, ran):
    out = clean(dirty_csv, FLAG, yes=True, model=script_file([decision(extra_steps=["add a column named flag set to 1"]), HALVING, FIXED]))
    assert out.status == "done", out.error
    code = saved_code(out.function_path)
    assert "len(df) // 2" not in code and "df['flag'] = 1" in code and out.code["data_cleaner.py"] == code
    assert_ran(code, ran)
    assert code in Path(out.report_path).read_text()


def test_python_data_cleaner_py_refuses_and_says_how_to_rerun(dirty_csv, script_file, tmp_path):
    out = clean(dirty_csv, KEEP, yes=True, model=script_file([decision()]))
    run = subprocess.run([sys.executable, out.function_path, str(tmp_path / "out.csv")], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode != 0 and "dsagent clean --rerun" in run.stderr
    assert not (tmp_path / "out.csv").exists()


def test_rerun_cleans_a_new_file_in_the_sandbox_like_the_run(dirty_csv, script_file, tmp_path):
    from dsagent.workflows.clean.rerun import rerun

    out = clean(dirty_csv, KEEP, yes=True, model=script_file([decision()]))
    new = tmp_path / "new" / "shops.csv"
    new.parent.mkdir()
    new.write_bytes(dirty_csv.read_bytes())
    before = new.read_bytes()
    again = rerun(out.function_path, [str(new)])
    assert again.status == "done", again.error
    assert Path(again.cleaned_files[0]).read_text() == Path(out.cleaned_files[0]).read_text()
    assert Path(again.workspace) != Path(out.workspace) and Path(again.workspace).is_relative_to(Path(os.environ["DSAGENT_WORKSPACE_ROOT"]).resolve())
    assert new.read_bytes() == before and sorted(p.name for p in new.parent.iterdir()) == ["shops.csv"]


def _landlock() -> bool:
    from dsagent.sandbox import landlock

    return bool(getattr(landlock, "abi_version", lambda: 0)())


HOSTILE = {
    "write_outside": "open({outside!r}, 'w').write('pwned')",
    "write_the_input": "open({new!r}, 'a').write('pwned')",
    "read_passwd": "data_raw['x'] = open('/etc/passwd').read()[:20]",
    "socket": "import socket\n    socket.create_connection(('127.0.0.1', 22), timeout=2)",
    "os_system": "import os\n    assert os.system('touch {outside}') == 0",
}


@pytest.mark.parametrize("attempt", sorted(HOSTILE))
def test_rerun_confines_a_hostile_cleaner(attempt, dirty_csv, tmp_path, capsys):
    from dsagent.cli.main import main

    if attempt in ("write_outside", "read_passwd", "write_the_input") and not _landlock():
        pytest.skip("no Landlock on this kernel: the sandbox cannot confine file access here (docs/sandbox.md)")
    outside = tmp_path / "outside.txt"
    new = tmp_path / "new.csv"
    new.write_bytes(dirty_csv.read_bytes())
    before = new.read_bytes()
    body = HOSTILE[attempt].format(outside=str(outside), new=str(new))
    cleaner = tmp_path / "data_cleaner.py"
    cleaner.write_text(f"def data_cleaner(data_raw):\n    {body}\n    return data_raw\n")
    code = main(["clean", "--rerun", str(cleaner), str(new), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 4 and out["status"] == "error" and out["error"], out
    assert not outside.exists() and new.read_bytes() == before
    assert pd.read_csv(new).shape == pd.read_csv(dirty_csv).shape
