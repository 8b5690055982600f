from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest

from dsagent.sandbox import Limits, Sandbox

SECRET = "sk-test-must-not-leak-0123456789"
TEST_LIMITS = Limits(wall_s=3.0, memory_mb=300, output_kb=16, file_mb=16)


@pytest.fixture(scope="module")
def source_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("user_data") / "sales.csv"
    path.write_text("region,amount\nnorth,10\nsouth,20\n")
    return path


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory, source_file: Path) -> Iterator[Sandbox]:
    """One warm Sandbox per module: a cold start costs ~1–2 s on two cores."""
    if sys.platform != "linux":
        pytest.skip("the sandbox tests exercise Linux confinement")
    home = tmp_path_factory.mktemp("home")
    saved = {k: os.environ.get(k) for k in ("OPENAI_API_KEY", "DSAGENT_HOME")}
    os.environ["OPENAI_API_KEY"] = SECRET  # the worker must never see it
    os.environ["DSAGENT_HOME"] = str(home)
    frame = pd.DataFrame({"region": ["north", "south", "east"], "amount": [10, 20, 30]})
    sb = Sandbox(home / "workspace", {"sales": frame}, TEST_LIMITS, source_files=[source_file],
                 file_names={"sales": (source_file.name, None)})
    try:
        sb.start()
        yield sb
    finally:
        sb.close()
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def assert_recovers(sb: Sandbox) -> None:
    """After any failure the same Sandbox must still answer."""
    res = sb.run("result = 1+1")
    assert res.success, res.error
    assert res.result == "2"


def require(sb: Sandbox, feature: str) -> None:
    if not sb.isolation.features.get(feature):
        pytest.skip(f"{feature} is not available on this machine: {sb.isolation.notes}")
