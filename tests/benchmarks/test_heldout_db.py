"""Held-out database batch (benchmarks/heldout_db) is well formed: every question names the shipped
database and asks for exactly the names its labels give, in the DABench layout the harness reads;
the database has the foreign keys its generator declares and holds what the generator writes; and
both independent solutions (pandas and SQL), run again on a freshly built database, agree with
every stored label. Only the layout and the labels are checked here: no question text is asserted."""

from __future__ import annotations

import json
import runpy
import sqlite3
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
BATCH = BENCH / "heldout_db"
DB = BATCH / "tables" / "shop.sqlite"
sys.path.insert(0, str(BENCH))
from dabench_scoring import expected_names  # noqa: E402

KEYS = {"id", "question", "concepts", "constraints", "format", "file_name", "level"}
MAKE_DB = runpy.run_path(str(BATCH / "make_db.py"))


def _rows(folder: Path, name: str) -> list[dict]:
    return [json.loads(line) for line in (folder / name).read_text().splitlines() if line.strip()]


def test_batch_db_layout_matches_its_labels_one_to_one() -> None:
    questions, labels = _rows(BATCH, "questions.jsonl"), _rows(BATCH, "labels.jsonl")
    ids = [q["id"] for q in questions]
    assert ids == list(range(9201, 9215))
    assert ids == [a["id"] for a in labels]  # every question has a label, in the same order, ids unique
    answers = {a["id"]: a["common_answers"] for a in labels}
    for q in questions:
        assert set(q) == KEYS, q["id"]
        assert q["level"] in {"easy", "medium", "hard"}, q["id"]
        assert q["file_name"] == "shop.sqlite", q["id"]
        names = expected_names(q["format"])
        assert names and names == [name for name, _ in answers[q["id"]]], q["id"]
        assert all(isinstance(value, str) and value for _, value in answers[q["id"]]), q["id"]
    assert {q["level"] for q in questions} == {"easy", "medium", "hard"}
    assert sum(len(answers[i]) == 1 for i in ids) >= 10


def test_batch_db_ids_do_not_collide_with_the_other_held_out_batches() -> None:
    earlier = {q["id"] for folder in ("heldout", "heldout_c") for q in _rows(BENCH / folder, "questions.jsonl")}
    assert not earlier & {q["id"] for q in _rows(BATCH, "questions.jsonl")}


def test_the_shipped_database_has_its_foreign_keys_and_the_generated_rows() -> None:
    with sqlite3.connect(DB) as con:
        tables = {name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert tables == set(MAKE_DB["rows"]())
        for table in tables:
            keys = {(row[3], row[2], row[4]) for row in con.execute(f"PRAGMA foreign_key_list({table})")}
            assert keys == MAKE_DB["FOREIGN_KEYS"].get(table, set()), table
        assert not con.execute("PRAGMA foreign_key_check").fetchall()
        for table, generated in MAKE_DB["rows"]().items():
            assert con.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall() == generated, table


def test_batch_db_labels_are_what_both_solutions_compute_on_a_fresh_database(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    fresh = MAKE_DB["build"](tmp_path / "shop.sqlite")
    monkeypatch.syspath_prepend(str(BATCH))  # make_labels imports the two solutions beside it
    computed = runpy.run_path(str(BATCH / "make_labels.py"))["computed"]  # asserts that pandas and SQL agree
    stored = {a["id"]: a["common_answers"] for a in _rows(BATCH, "labels.jsonl")}
    assert computed(fresh) == stored
