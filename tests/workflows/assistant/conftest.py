"""A project folder whose data/raw holds two of the datasets plotly ships (read from disk, no network)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest


@pytest.fixture
def project(tmp_path: Path) -> Path:
    import plotly.data

    root = tmp_path / "project"
    raw = root / "data" / "raw"
    raw.mkdir(parents=True)
    plotly.data.iris().to_csv(raw / "iris.csv", index=False)
    plotly.data.tips().to_csv(raw / "tips.csv", index=False)
    return root


def raw_digest(project: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted((project / "data" / "raw").iterdir())}


def decide(tool: str) -> dict:
    """A scripted reply of the router's tool choice."""
    return {"tool": tool}


@pytest.fixture(autouse=True)
def _close_runtimes():
    yield
    from dsagent.workflows.assistant.runtime import close_all

    close_all()


def scripted_context(replies: list[str]):
    """A run context over a scripted model (its own run in the test's run log), for router calls."""
    from dsagent.config import load_settings
    from dsagent.llm.scripted import ScriptedChatModel
    from dsagent.runtime import RunContext
    from dsagent.store import RunLog

    settings = load_settings()
    log = RunLog(settings.db_url)
    run_id = log.start_run(workflow="assistant", model="scripted", question="test", datasets=[], workspace=".")
    return RunContext(settings, ScriptedChatModel(replies=replies), "scripted", None, log, run_id, Path("."))
