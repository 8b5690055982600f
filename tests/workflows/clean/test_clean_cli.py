"""`dsagent clean` on the command line: JSON, resume in a new process, bad input exits 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dsagent.cli.main import main

from .conftest import decision

KEYS = {"thread_id", "status", "recommended_steps", "cleaned_files", "function_path", "report_path", "error"}


def cli(*args: str) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).with_name("dsagent")
    return subprocess.run([str(exe), *args], capture_output=True, text=True, env=dict(os.environ), stdin=subprocess.DEVNULL, timeout=300)


def test_resume_in_a_new_process_after_the_first_exited(dirty_csv, script_file):
    first = cli("clean", str(dirty_csv), "keep id and every genuine record", "--json", "--model", script_file([decision()]))
    assert first.returncode == 0, first.stderr
    out = json.loads(first.stdout)
    assert KEYS <= set(out) and out["status"] == "needs_review" and out["cleaned_files"] == []
    assert "Parse 'price' as numbers" in out["recommended_steps"]
    second = cli("clean", "--resume", out["thread_id"], "yes", "--json", "--model", script_file([]))
    assert second.returncode == 0, second.stderr
    done = json.loads(second.stdout)
    assert done["status"] == "done" and done["thread_id"] == out["thread_id"]
    assert done["cleaned_files"][0].endswith("shops_cleaned.csv") and done["cleaned_files"][1].endswith(".parquet")
    assert Path(done["report_path"]).exists()
    rerun = cli("clean", "--rerun", done["function_path"], str(dirty_csv), "--json")  # re-run in the sandbox, not with python
    assert rerun.returncode == 0, rerun.stderr
    again = json.loads(rerun.stdout)
    assert again["status"] == "done" and Path(again["cleaned_files"][0]).read_text() == Path(done["cleaned_files"][0]).read_text()


def test_without_a_terminal_it_exits_waiting_for_review(dirty_csv, script_file):
    run = cli("clean", str(dirty_csv), "--model", script_file([decision()]))
    assert run.returncode == 0, run.stderr
    assert "waits for your review: dsagent clean --resume" in run.stdout


def test_yes_json_prints_one_object(dirty_csv, script_file, capsys):
    assert main(["clean", str(dirty_csv), "keep every record", "--yes", "--json", "--model", script_file([decision()])]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["status"] == "done" and KEYS <= set(out)


def written(path: Path, content: bytes) -> Path:
    path.write_bytes(content)
    return path


@pytest.mark.parametrize("make,words", [
    (lambda d: d / "missing.csv", "file not found"),
    (lambda d: written(d / "empty.csv", b""), "empty"),
    (lambda d: written(d / "header.csv", b"a,b\n"), "no data rows"),
    (lambda d: written(d / "pic.png", b"\x89PNG"), "unsupported file type"),
    (lambda d: d, "is a directory"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, capsys, make, words):
    path = make(tmp_path)
    assert main(["clean", str(path), "--yes", "--model", "scripted:none.json"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and words in err


def test_resume_errors_exit_2(capsys, dirty_csv):
    assert main(["clean", "--resume", "nosuchthread", "yes"]) == 2
    assert "no clean thread" in capsys.readouterr().err
    assert main(["clean"]) == 2
