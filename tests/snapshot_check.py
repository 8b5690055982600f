"""Prompt snapshots: compare rendered prompts with the files in tests/snapshots/.

Regenerate after an intended change with UPDATE_SNAPSHOTS=1.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from langchain_core.messages import BaseMessage

SNAPSHOTS = Path(__file__).parent / "snapshots"


def render(messages: list[BaseMessage]) -> str:
    return "\n\n".join(f"=== {m.type} ===\n{m.content}" for m in messages)


def check_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / f"{name}.txt"
    updating = os.environ.get("UPDATE_SNAPSHOTS") == "1"
    if updating or not path.exists():
        path.write_text(text)
        if not updating:
            pytest.fail(f"snapshot {path.name} was missing and has been written; review and commit it")
    assert text == path.read_text(), f"prompt {name} changed; if intended, regenerate with UPDATE_SNAPSHOTS=1"
