"""fsafe.copy_file: a file out of the code's folder, streamed, never through a link, size-capped."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dsagent.sandbox import fsafe
from dsagent.sandbox.outputs import collect_file


def test_a_large_file_is_copied_whole_a_megabyte_at_a_time(tmp_path: Path) -> None:
    box, out = tmp_path / "box", tmp_path / "out"
    box.mkdir()
    out.mkdir()
    data = os.urandom(3 * (1 << 20) + 17)
    (box / "t.parquet").write_bytes(data)
    copied = fsafe.copy_file(box, "t.parquet", out, "cleaned/t.parquet", max_bytes=len(data))
    assert copied == out / "cleaned" / "t.parquet" and copied.read_bytes() == data


def test_a_link_or_a_file_over_the_cap_is_not_copied(tmp_path: Path) -> None:
    box, out = tmp_path / "box", tmp_path / "out"
    box.mkdir()
    out.mkdir()
    secret = tmp_path / "secret.txt"
    secret.write_text("not yours")
    os.symlink(secret, box / "link.csv")
    (box / "big.csv").write_bytes(b"x" * 2048)
    with pytest.raises(fsafe.UnsafePath):
        fsafe.copy_file(box, "link.csv", out, "cleaned/link.csv", max_bytes=1 << 20)
    with pytest.raises(fsafe.UnsafePath):
        fsafe.copy_file(box, "big.csv", out, "cleaned/big.csv", max_bytes=1024)
    assert collect_file(box, out, "link.csv", "cleaned") is None and collect_file(box, out, "big.csv", "cleaned", 1024) is None
    assert not list((out / "cleaned").glob("*")) if (out / "cleaned").exists() else True  # no partial copy left
