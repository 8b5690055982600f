"""Every test is hermetic: its own DSAGENT_HOME and workspace root, no API keys, no network."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest

_real_connect = socket.socket.connect
# Captured before any test moves DSAGENT_HOME: where `dsagent models install` put the real model.
REAL_HOME = Path(os.environ.get("DSAGENT_HOME") or Path.home() / ".dsagent").expanduser()


def _guarded_connect(self: socket.socket, address):  # type: ignore[no-untyped-def]
    host = address[0] if isinstance(address, tuple) else address
    if isinstance(host, str) and self.family in (socket.AF_INET, socket.AF_INET6) and host not in ("127.0.0.1", "::1", "localhost"):
        raise RuntimeError(f"tests must not reach the network (tried {address!r})")
    return _real_connect(self, address)


@pytest.fixture(autouse=True)
def hermetic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    home = tmp_path / "home"
    monkeypatch.setenv("DSAGENT_HOME", str(home))
    monkeypatch.setenv("DSAGENT_WORKSPACE_ROOT", str(tmp_path / "workspace"))
    for var in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "OPENAI_COMPATIBLE_API_KEY", "DSAGENT_MODEL", "DSAGENT_DATABASE_URL",
                "DSAGENT_ALLOWED_MODELS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)
    monkeypatch.chdir(tmp_path)
    from dsagent.llm.capabilities import forget_all

    forget_all()  # what servers refused (llm/capabilities.py) is learnt afresh by each test
    yield home
    from dsagent.access import stop_serving

    stop_serving()  # a test that served a door leaves a process that trusts its caller again


@pytest.fixture
def script_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Write a scripted model's replies; returns the `scripted:<file>` spec.

    A script holds a reply for every model node of seed 002, so robust's decisions by code
    (nodes 0, 2, 3: robust/by_code.py) are off here; tests of those pass
    ``decide_by_code=True`` (a Session override beats the environment). The independent check of
    an answer (common.verify) is off too; its tests pass ``verify=True``."""
    monkeypatch.setenv("DSAGENT_DECIDE_BY_CODE", "0")
    monkeypatch.setenv("DSAGENT_VERIFY", "0")  # no reply scripted for the independent check; tests of it pass verify=True

    def write(replies: list[str | dict]) -> str:
        path = tmp_path / f"script_{len(list(tmp_path.glob('script_*.json')))}.json"
        path.write_text(json.dumps([r if isinstance(r, str) else json.dumps(r) for r in replies]))
        return f"scripted:{path}"

    return write


@pytest.fixture
def sales_csv(tmp_path: Path) -> Path:
    path = tmp_path / "sales.csv"
    rows = ["region,month,units,price"]
    regions = ["North", "South", "East", "West"]
    for i in range(40):
        rows.append(f"{regions[i % 4]},2024-{i % 12 + 1:02d},{10 + (i * 7) % 23},{2.5 + (i % 5)}")
    path.write_text("\n".join(rows) + "\n")
    return path


@pytest.fixture(scope="module")
def local_spec() -> str:
    """The installed embedded model as a `local:<path>` spec; CI fails (not skips) without it."""
    from dsagent.llm import model_files

    status = model_files.status(REAL_HOME / "models")
    if not status.installed:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the real model test, but the model is not installed: {status.detail}")
        pytest.skip(f"embedded model not installed ({status.detail})")
    return f"local:{status.path}"
