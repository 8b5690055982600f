"""Held-out batch E (benchmarks/heldout_e) is well formed: every question names the batch's database
and asks for exactly the names its labels give, in the DABench layout the harness reads; a freshly
built database (in tmp_path, never in the repo) has the declared foreign keys its generator lists,
its by-name-only joins resolve, and it holds what the generator writes; and both independent
solutions (pandas and SQL) recompute every stored label. Only layout and labels are checked here:
no question text is asserted."""

from __future__ import annotations

import json
import runpy
import sqlite3
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
BATCH = BENCH / "heldout_e"
sys.path.insert(0, str(BENCH))
from dabench_scoring import expected_names  # noqa: E402

KEYS = {"id", "question", "concepts", "constraints", "format", "file_name", "level"}
MAKE_DB = runpy.run_path(str(BATCH / "make_db.py"))


def _rows(folder: Path, name: str) -> list[dict]:
    return [json.loads(line) for line in (folder / name).read_text().splitlines() if line.strip()]


@pytest.fixture(scope="module")
def fresh_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return MAKE_DB["build"](tmp_path_factory.mktemp("heldout_e") / "clinic.sqlite")


def test_batch_e_layout_matches_its_labels_one_to_one() -> None:
    questions, labels = _rows(BATCH, "questions.jsonl"), _rows(BATCH, "labels.jsonl")
    ids = [q["id"] for q in questions]
    assert ids == list(range(9401, 9417))
    assert len(set(ids)) == len(ids)
    assert ids == [a["id"] for a in labels]  # every question has a label, in the same order
    answers = {a["id"]: a["common_answers"] for a in labels}
    for q in questions:
        assert set(q) == KEYS, q["id"]
        assert q["file_name"] == "clinic.sqlite", q["id"]
        assert isinstance(q["concepts"], list) and q["concepts"], q["id"]
        assert all(isinstance(q[k], str) and q[k].strip() for k in ("question", "constraints", "format")), q["id"]
        names = expected_names(q["format"])
        assert names and names == [name for name, _ in answers[q["id"]]], q["id"]
        assert all(isinstance(value, str) and value for _, value in answers[q["id"]]), q["id"]
    levels = [q["level"] for q in questions]
    assert (levels.count("easy"), levels.count("medium"), levels.count("hard")) == (4, 7, 5)
    assert sum(len(answers[i]) > 1 for i in ids) <= 3
    assert all(len(answers[i]) <= 2 for i in ids)


def test_batch_e_ids_do_not_collide_with_the_other_held_out_batches() -> None:
    mine = {q["id"] for q in _rows(BATCH, "questions.jsonl")}
    for folder in sorted(BENCH.glob("heldout*")):  # ids only; another batch may be half-written, so skip bad lines
        if folder == BATCH or not (folder / "questions.jsonl").exists():
            continue
        theirs = set()
        for line in (folder / "questions.jsonl").read_text().splitlines():
            try:
                theirs.add(json.loads(line)["id"])
            except (ValueError, KeyError, TypeError):
                continue
        assert not mine & theirs, folder.name


def test_fresh_database_has_declared_keys_name_only_joins_and_generated_rows(fresh_db: Path) -> None:
    generated = MAKE_DB["rows"]()
    with sqlite3.connect(fresh_db) as con:
        tables = {name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert tables == set(generated) and 4 <= len(tables) <= 6
        for table in tables:
            keys = {(row[3], row[2], row[4]) for row in con.execute(f"PRAGMA foreign_key_list({table})")}
            assert keys == MAKE_DB["FOREIGN_KEYS"].get(table, set()), table
        assert not con.execute("PRAGMA foreign_key_check").fetchall()
        for table, pairs in MAKE_DB["IMPLICIT_KEYS"].items():
            for column, target, key in pairs:
                assert (column, target, key) not in MAKE_DB["FOREIGN_KEYS"].get(table, set())
                orphans = con.execute(f"SELECT COUNT(*) FROM {table} t LEFT JOIN {target} r ON r.{key} = t.{column} "
                                      f"WHERE r.{key} IS NULL").fetchone()[0]
                assert orphans == 0, (table, column)
        for table, rows in generated.items():
            assert con.execute(f"SELECT * FROM {table} ORDER BY rowid").fetchall() == rows, table
        total = sum(len(rows) for rows in generated.values())
        assert 2000 <= total <= 10000
        for table, column in [("patients", "insurance_plan"), ("patients", "city"), ("appointments", "fee"),
                              ("doctors", "department_id")]:
            assert con.execute(f"SELECT COUNT(*) FROM {table} WHERE {column} IS NULL").fetchone()[0] > 0, column


def test_both_solutions_recompute_every_label_on_a_fresh_database(fresh_db: Path) -> None:
    stored = {a["id"]: a["common_answers"] for a in _rows(BATCH, "labels.jsonl")}
    pandas_answers = runpy.run_path(str(BATCH / "solve_pandas.py"))["answers"](fresh_db)
    sql_answers = runpy.run_path(str(BATCH / "solve_sql.py"))["answers"](fresh_db)
    assert pandas_answers == stored
    assert sql_answers == stored
    assert runpy.run_path(str(BATCH / "make_labels.py"))["computed"](fresh_db) == stored
