"""A file above big_file_mb is cleaned chunk by chunk in the sandbox: same output as the pandas path.

The tables are small and ``big_file_mb`` tiny, so the same file goes down both paths; a chunk of a
few rows puts duplicates and the rows a table-wide figure depends on in different chunks.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pandas as pd
import pytest

from dsagent.config import load_settings
from dsagent.workflows.clean.api import clean

from .conftest import decision

SMALL = {"big_file_mb": 200.0}
BIG = {"big_file_mb": 0.0001, "clean_chunk_rows": 7}


@pytest.fixture
def messy_csv(tmp_path: Path) -> Path:
    """Every default step has work: a sparse column, missing values to impute (numbers and text),
    text numbers, placeholders, spellings, a negative code, outliers, and duplicates far apart."""
    rows = ["id,shop,city,price,units,note,score"]
    cities = ["Lisbon", "Porto", "Braga", "Faro"]
    for i in range(80):
        price = f"{3.5 + (i * 7) % 11:.2f}" if i % 9 else "n.a."
        city = cities[i % 4] if i % 13 else " porto "
        units = str(1 + i % 6) if i % 17 else ""
        note = "checked" if i % 3 == 0 else ""
        score = str(40 + (i * 5) % 23) if i != 33 else "900"
        rows.append(f"{i + 1},S{i % 12:02d},{city},{price},{units},{note},{score}")
    rows[6] = "6,S05,Lisbin,\"$1,004.50\",2,,44"
    rows[11] = "11,S10,Porto,5.25,-1,,47"
    rows.append(rows[2])   # a duplicate of a row in the first chunk, far from it
    rows.append(rows[40])
    rows.insert(30, rows[29])  # and one right after its original (maybe across a chunk boundary)
    path = tmp_path / "shops.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def _clean(path: Path, script_file, instructions: str = "", **settings):
    return clean([path], instructions, yes=True, settings=load_settings(model=script_file([decision()]), **settings))


def test_the_big_path_gives_the_pandas_path_s_cleaned_table(messy_csv: Path, script_file) -> None:
    before = hashlib.sha256(messy_csv.read_bytes()).hexdigest()
    small = _clean(messy_csv, script_file, **SMALL)
    big = _clean(messy_csv, script_file, **BIG)
    assert small.status == "done", small.error
    assert big.status == "done", big.error
    assert "sample" not in small.recommended_steps and "cleaned in chunks" in big.recommended_steps
    assert Path(big.cleaned_files[0]).read_bytes() == Path(small.cleaned_files[0]).read_bytes()  # the same CSV, byte for byte
    csv_small, csv_big = (pd.read_csv(o.cleaned_files[0]) for o in (small, big))
    pd.testing.assert_frame_equal(csv_big, csv_small, check_exact=False, rtol=1e-12)
    parquet_small, parquet_big = (pd.read_parquet(o.cleaned_files[1]) for o in (small, big))
    pd.testing.assert_frame_equal(parquet_big, parquet_small, check_exact=False, rtol=1e-12, check_dtype=False)
    assert hashlib.sha256(messy_csv.read_bytes()).hexdigest() == before  # the user's file is never written
    assert len(csv_big) < 83  # duplicates dropped, across chunks


def test_duplicates_in_different_chunks_are_dropped(tmp_path: Path, script_file) -> None:
    rows = ["k,v"] + [f"{i},{i % 5}" for i in range(30)] + ["3,3", "17,2", "3,3"]
    path = tmp_path / "dups.csv"
    path.write_text("\n".join(rows) + "\n")
    out = _clean(path, script_file, "keep every record; drop duplicates", big_file_mb=0.0001, clean_chunk_rows=4)
    assert out.status == "done", out.error
    cleaned = pd.read_csv(out.cleaned_files[0])
    assert len(cleaned) == 30 and not cleaned.duplicated().any()
    assert list(cleaned["k"]) == list(range(30))  # the first of each, in the file's order




def test_the_caps_grow_with_a_big_input_and_only_then(messy_csv: Path) -> None:
    from dsagent.workflows.clean.bigpath import big_limits

    small = load_settings(big_file_mb=200.0)
    assert big_limits(small, [messy_csv]) is small  # no big file: the sandbox keeps its caps
    settings = load_settings(big_file_mb=0.0001, sandbox_file_mb=1, sandbox_workspace_mb=1)
    raised = big_limits(settings, [messy_csv])
    size_mb = messy_csv.stat().st_size / 2**20
    assert raised.sandbox_file_mb >= 2 * size_mb and raised.sandbox_workspace_mb >= 4 * size_mb
    assert raised.sandbox_memory_mb == settings.sandbox_memory_mb  # the memory limit never moves


def test_a_disk_too_small_for_the_cleaned_copies_is_a_user_error(messy_csv: Path, monkeypatch) -> None:
    import shutil
    from collections import namedtuple

    from dsagent.errors import UserError
    from dsagent.workflows.clean import bigpath

    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda _p: usage(10**9, 10**9, 1024))
    with pytest.raises(UserError) as info:
        bigpath.big_limits(load_settings(big_file_mb=0.0001), [messy_csv])
    assert "GB free" in str(info.value) and "workspace_root" in str(info.value)


def test_a_big_json_file_says_how_to_clean_it(tmp_path: Path, script_file) -> None:
    from dsagent.errors import UserError

    path = tmp_path / "rows.jsonl"
    path.write_text("".join(f'{{"a": {i}, "b": "x{i % 3}"}}\n' for i in range(50)))
    with pytest.raises(UserError) as info:
        _clean(path, script_file, big_file_mb=0.0001)
    assert "Parquet" in str(info.value) and "rows.jsonl" in str(info.value)


def test_a_big_parquet_file_takes_the_same_path(messy_csv: Path, script_file) -> None:
    path = messy_csv.with_suffix(".parquet")
    pd.read_csv(messy_csv).to_parquet(path, index=False)
    small = _clean(path, script_file, **SMALL)
    big = _clean(path, script_file, **BIG)
    assert small.status == "done" and big.status == "done", (small.error, big.error)
    assert "cleaned in chunks" in big.recommended_steps
    assert Path(big.cleaned_files[0]).read_bytes() == Path(small.cleaned_files[0]).read_bytes()
