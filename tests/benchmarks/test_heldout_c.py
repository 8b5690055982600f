"""Held-out batch C (benchmarks/heldout_c) is well formed: every question names a table the builder
writes and asks for exactly the names its labels give, in the DABench layout the harness reads;
the tables build from the data ``vega_datasets`` ships and the labels compute again to the stored
ones. Only the layout and the labels are checked here: no question text is asserted."""

from __future__ import annotations

import json
import runpy
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks"
BATCH = BENCH / "heldout_c"
sys.path.insert(0, str(BENCH))
from dabench_scoring import expected_names  # noqa: E402

KEYS = {"id", "question", "concepts", "constraints", "format", "file_name", "level"}


def _rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (BATCH / name).read_text().splitlines() if line.strip()]


def test_batch_c_layout_matches_its_labels_one_to_one() -> None:
    questions, labels = _rows("questions.jsonl"), _rows("labels.jsonl")
    tables = runpy.run_path(str(BATCH / "make_tables.py"))["TABLES"]
    ids = [q["id"] for q in questions]
    assert len(ids) >= 40 and len(set(ids)) == len(ids)
    assert ids == sorted(ids) and ids[0] == 9101
    assert ids == [a["id"] for a in labels]
    answers = {a["id"]: a["common_answers"] for a in labels}
    for q in questions:
        assert set(q) == KEYS, q["id"]
        assert q["level"] in {"easy", "medium", "hard"}, q["id"]
        assert q["file_name"] in tables, q["id"]
        assert expected_names(q["format"]) == [name for name, _ in answers[q["id"]]], q["id"]
    assert {q["level"] for q in questions} == {"easy", "medium", "hard"}


def test_batch_c_ids_do_not_collide_with_batches_a_and_b() -> None:
    earlier = {json.loads(line)["id"] for line in (BENCH / "heldout" / "questions.jsonl").read_text().splitlines() if line.strip()}
    assert not earlier & {q["id"] for q in _rows("questions.jsonl")}


def test_batch_c_labels_compute_again_from_freshly_built_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runpy.run_path(str(BATCH / "make_tables.py"))["build"](tmp_path)
    monkeypatch.syspath_prepend(str(BATCH))
    import labels_c

    monkeypatch.setattr(labels_c, "TABLES", tmp_path)  # read() looks the folder up at call time
    computed = runpy.run_path(str(BATCH / "make_labels.py"))["computed"]  # batch A/B has a make_labels too
    stored = {a["id"]: a["common_answers"] for a in _rows("labels.jsonl")}
    assert computed() == stored
