"""Held-out batch I (benchmarks/heldout_i) is well formed: ids unique and contiguous, every question
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
BATCH = BENCH / "heldout_i"
sys.path.insert(0, str(BENCH))
from dabench_scoring import expected_names  # noqa: E402

KEYS = {"id", "question", "concepts", "constraints", "format", "file_name", "level"}
FIRST_ID = 9801


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _answers(name: str) -> dict[int, list[list[str]]]:
    return {row["id"]: row["common_answers"] for row in _rows(BATCH / name)}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("heldout_i_tables")
    runpy.run_path(str(BATCH / "make_tables.py"))["build"](folder)
    return folder


def test_batch_i_layout_matches_its_labels_one_to_one() -> None:
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


def test_batch_i_ids_do_not_collide_with_other_batches() -> None:
    ours = {q["id"] for q in _rows(BATCH / "questions.jsonl")}
    for other in BENCH.glob("heldout*/questions.jsonl"):
        if other.parent != BATCH:
            assert not ours & {q["id"] for q in _rows(other)}, other


def test_batch_i_tables_build_for_every_question(built: Path) -> None:
    for q in _rows(BATCH / "questions.jsonl"):
        assert (built / q["file_name"]).is_file(), q["id"]


def test_batch_i_labels_compute_again_from_freshly_built_tables(built: Path) -> None:
    computed = runpy.run_path(str(BATCH / "make_labels.py"))["computed"]
    assert computed(built) == _answers("labels.jsonl")


def test_batch_i_independent_solution_agrees_with_the_labels(built: Path) -> None:
    stored = _answers("independent_answers.jsonl")
    assert stored == _answers("labels.jsonl")
    pytest.importorskip("duckdb")
    solver = runpy.run_path(str(BATCH / "solve_independent.py"))
    assert solver["solve"](solver["Tables"](built)) == stored


def test_batch_i_tables_are_the_shipped_data(built: Path) -> None:
    """Every table is the statsmodels file byte for byte."""
    pytest.importorskip("statsmodels")
    make_tables = runpy.run_path(str(BATCH / "make_tables.py"))
    sources, shipped_path = make_tables["SOURCES"], make_tables["shipped_path"]
    assert set(make_tables["TABLES"]) == set(sources) == set(make_tables["SHIPPED"])
    assert {package for package, _ in sources.values()} == {"statsmodels"}
    for name in make_tables["SHIPPED"]:
        assert (built / name).read_bytes() == shipped_path(name).read_bytes(), name
