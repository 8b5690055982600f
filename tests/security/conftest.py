"""Attacks on the sandbox through dsagent itself (issue 23): code served directly through the
sandbox API or through the scripted model driving a real workflow. Every test here failed on the
code before the fix."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from dsagent.sandbox import Limits, Sandbox

ATTACK_LIMITS = Limits(wall_s=4.0, memory_mb=300, output_kb=16, file_mb=16)

# Finds the directories the code could reach: its own working directory and the one above it
# (the workspace root when the code runs in a sub-directory of it).
BASES = "import os\nbases = list(dict.fromkeys([os.getcwd(), os.path.dirname(os.getcwd())]))\n"


@pytest.fixture(autouse=True)
def linux_only() -> None:
    if sys.platform != "linux":
        pytest.skip("the attack suite exercises Linux confinement")


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A folder of the user's outside any workspace."""
    folder = tmp_path / "user_files"
    folder.mkdir()
    return folder


@pytest.fixture(scope="session")
def mpl_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cache")


@pytest.fixture
def make_sandbox(tmp_path: Path, mpl_cache: Path) -> Iterator:
    boxes: list[Sandbox] = []

    def make(limits: Limits = ATTACK_LIMITS, **kwargs) -> Sandbox:
        frame = pd.DataFrame({"region": ["north", "south"], "amount": [10, 20]})
        box = Sandbox(tmp_path / f"ws{len(boxes)}", {"sales": frame}, limits, cache_dir=mpl_cache, **kwargs)
        boxes.append(box)
        box.start()
        return box

    yield make
    for box in boxes:
        box.close()
