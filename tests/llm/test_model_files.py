"""Assembling the embedded model from chunk packages: verified, idempotent, loud on mismatch."""

import hashlib

import pytest

from dsagent.errors import UserError
from dsagent.llm import model_files


@pytest.fixture
def fake_parts(tmp_path, monkeypatch):
    parts = []
    for i in range(3):
        p = tmp_path / f"part{i:02d}.bin"
        p.write_bytes(bytes([i]) * 1000)
        parts.append(p)
    data = b"".join(p.read_bytes() for p in parts)
    monkeypatch.setattr(model_files, "find_parts", lambda: parts)
    monkeypatch.setattr(model_files, "PART_COUNT", 3)
    monkeypatch.setattr(model_files, "EXPECTED_SIZE", len(data))
    monkeypatch.setattr(model_files, "EXPECTED_SHA256", hashlib.sha256(data).hexdigest())
    return data


def test_install_assembles_and_verifies(tmp_path, fake_parts):
    messages = []
    path = model_files.install(tmp_path / "models", progress=messages.append)
    assert path.read_bytes() == fake_parts
    assert model_files.status(tmp_path / "models").installed
    assert any("part 3/3" in m for m in messages)
    model_files.install(tmp_path / "models", progress=messages.append)
    assert "already installed" in messages[-1]


def test_mismatch_is_an_error_and_leaves_nothing(tmp_path, fake_parts, monkeypatch):
    monkeypatch.setattr(model_files, "EXPECTED_SHA256", "0" * 64)
    with pytest.raises(UserError, match="does not verify"):
        model_files.install(tmp_path / "models")
    assert not model_files.model_path(tmp_path / "models").exists()
    with pytest.raises(UserError, match="not installed"):
        model_files.verified_model_path(tmp_path / "models")


def test_tampered_file_is_not_trusted(tmp_path, fake_parts):
    path = model_files.install(tmp_path / "models")
    path.write_bytes(b"x" * len(fake_parts))
    assert not model_files.status(tmp_path / "models").installed


def test_missing_parts_say_how_to_install(tmp_path, monkeypatch):
    monkeypatch.setattr(model_files, "find_parts", lambda: [None] * model_files.PART_COUNT)
    with pytest.raises(UserError, match="uv sync --extra local"):
        model_files.install(tmp_path / "models")
