"""Held-out batch J (benchmarks/heldout_j) is well formed: ids unique and contiguous, every question
has its fields and a label with the names its format asks for, every table it names is built from
the data installed packages ship; the labels compute again from freshly built tables, and the second,
independent solution agrees with them. Only the layout and the labels are checked here: no question
text or value is asserted."""

from __future__ import annotations

import json
import runpy
import sys
from collections import Counter
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
BATCH = BENCH / "heldout_j"
sys.path.insert(0, str(BENCH))
from dabench_scoring import expected_names  # noqa: E402

KEYS = {"id", "question", "concepts", "constraints", "format", "file_name", "level"}
FIRST_ID = 9901


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _answers(name: str) -> dict[int, list[list[str]]]:
    return {row["id"]: row["common_answers"] for row in _rows(BATCH / name)}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("heldout_j_tables")
    runpy.run_path(str(BATCH / "make_tables.py"))["build"](folder)
    return folder


def test_batch_j_layout_matches_its_labels_one_to_one() -> None:
    questions, labels = _rows(BATCH / "questions.jsonl"), _rows(BATCH / "labels.jsonl")
    tables = runpy.run_path(str(BATCH / "make_tables.py"))["TABLES"]
    ids = [q["id"] for q in questions]
    assert len(set(ids)) == len(ids)
    assert ids == list(range(FIRST_ID, FIRST_ID + len(ids))) and len(ids) == 40
    assert ids == [a["id"] for a in labels]
    answers = {a["id"]: a["common_answers"] for a in labels}
    for q in questions:
        assert set(q) == KEYS, q["id"]
        assert all(isinstance(q[k], str) and q[k].strip() for k in KEYS - {"id", "concepts"}), q["id"]
        assert isinstance(q["concepts"], list) and q["concepts"], q["id"]
        assert q["level"] in {"easy", "medium", "hard"}, q["id"]
        assert q["file_name"] in tables, q["id"]
        names = expected_names(q["format"])
        assert names and names == [name for name, _ in answers[q["id"]]], q["id"]
        assert all(isinstance(value, str) and value for _, value in answers[q["id"]]), q["id"]
    assert Counter(q["level"] for q in questions) == {"easy": 10, "medium": 16, "hard": 14}
    assert sum(len(expected_names(q["format"])) > 1 for q in questions) <= 8
    assert len({q["file_name"] for q in questions}) >= 8


def test_batch_j_ids_do_not_collide_with_other_batches() -> None:
    ours = {q["id"] for q in _rows(BATCH / "questions.jsonl")}
    for other in BENCH.glob("heldout*/questions.jsonl"):
        if other.parent != BATCH:
            assert not ours & {q["id"] for q in _rows(other)}, other


def test_batch_j_tables_build_for_every_question(built: Path) -> None:
    for q in _rows(BATCH / "questions.jsonl"):
        assert (built / q["file_name"]).is_file(), q["id"]


def test_batch_j_labels_compute_again_from_freshly_built_tables(built: Path) -> None:
    computed = runpy.run_path(str(BATCH / "make_labels.py"))["computed"]
    assert computed(built) == _answers("labels.jsonl")


def test_batch_j_independent_solution_agrees_with_the_labels(built: Path) -> None:
    stored = _answers("independent_answers.jsonl")
    assert stored == _answers("labels.jsonl")
    pytest.importorskip("duckdb")
    solver = runpy.run_path(str(BATCH / "solve_independent.py"))
    assert solver["solve"](solver["Tables"](built)) == stored


def test_batch_j_tables_are_the_shipped_data(built: Path) -> None:
    """Five tables are the packages' CSV files byte for byte; the four written from binary files
    (three Stata .dta files, one numpy .npz archive) hold the shipped values unchanged."""
    import numpy as np
    import pandas as pd

    for package in ("statsmodels", "matplotlib"):
        pytest.importorskip(package)
    make_tables = runpy.run_path(str(BATCH / "make_tables.py"))
    sources, shipped_path = make_tables["SOURCES"], make_tables["shipped_path"]
    assert set(make_tables["TABLES"]) == set(sources)
    assert set(make_tables["SHIPPED"]) | set(make_tables["CONVERTED"]) == set(sources)
    assert not set(make_tables["SHIPPED"]) & set(make_tables["CONVERTED"])
    assert {package for package, _ in sources.values()} == {"statsmodels", "matplotlib"}
    for name in make_tables["SHIPPED"]:
        assert shipped_path(name).suffix == ".csv", name
        assert (built / name).read_bytes() == shipped_path(name).read_bytes(), name
    assert set(make_tables["CONVERTED"]) == {"google_prices.csv", "german_macro.csv", "manufacturing.csv",
                                             "young_men_wages.csv"}

    ours = pd.read_csv(built / "google_prices.csv")
    with np.load(shipped_path("google_prices.csv")) as archive:
        records = archive["price_data"]
    assert list(ours.columns) == list(records.dtype.names) and len(ours) == len(records)
    assert (pd.to_datetime(ours["date"]).to_numpy() == records["date"].astype("datetime64[ns]")).all()
    for column in ("open", "high", "low", "close", "volume", "adj_close"):
        assert (ours[column].to_numpy() == records[column]).all(), column

    periods = {  # date column, how it is written, months per period
        "german_macro.csv": ("qtr", r"^(\d{4})q([1-4])$", 3),
        "manufacturing.csv": ("month", r"^(\d{4})m(\d{1,2})$", 1),
    }
    for name in ("german_macro.csv", "manufacturing.csv", "young_men_wages.csv"):
        ours = pd.read_csv(built / name)
        theirs = pd.read_stata(shipped_path(name))
        assert list(ours.columns) == list(theirs.columns) and len(ours) == len(theirs), name
        for column in theirs.columns:
            if name in periods and column == periods[name][0]:
                parts = ours[column].str.extract(periods[name][1]).astype(int)
                months = (parts[1] - 1) * periods[name][2] + 1
                starts = pd.to_datetime({"year": parts[0], "month": months, "day": 1})
                assert (starts.to_numpy() == theirs[column].to_numpy()).all(), (name, column)
                continue
            stored = theirs[column].to_numpy()
            kind = stored.dtype if stored.dtype.kind == "f" else float
            written = ours[column].to_numpy(dtype=float).astype(kind)
            same = (written == stored) | (np.isnan(written) & np.isnan(stored.astype(float)))
            assert same.all(), (name, column)
