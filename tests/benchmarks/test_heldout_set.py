"""The held-out question set (benchmarks/heldout) is well formed: every question has its labels,
names its table, and asks for exactly the names its labels give; the tables build from data the
installed packages ship and the labels compute again to the stored ones."""

from __future__ import annotations

import json
import runpy
import sys
from pathlib import Path

import pytest

HELDOUT = Path(__file__).resolve().parents[2] / "benchmarks" / "heldout"
sys.path.insert(0, str(HELDOUT.parent))
from dabench_scoring import expected_names  # noqa: E402


def _lines(name: str) -> list[dict]:
    return [json.loads(line) for line in (HELDOUT / name).read_text().splitlines() if line.strip()]


def test_questions_and_labels_match_one_to_one() -> None:
    questions, labels = _lines("questions.jsonl"), _lines("labels.jsonl")
    tables = runpy.run_path(str(HELDOUT / "make_tables.py"))["TABLES"]
    assert [q["id"] for q in questions] == [a["id"] for a in labels]
    assert len({q["id"] for q in questions}) == len(questions) > 0
    by_id = {a["id"]: a["common_answers"] for a in labels}
    for q in questions:
        assert q["level"] in {"easy", "medium", "hard"}
        assert q["file_name"] in tables, q["id"]
        assert sorted(expected_names(q["format"])) == sorted(name for name, _ in by_id[q["id"]]), q["id"]


def test_labels_compute_again_from_freshly_built_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built = runpy.run_path(str(HELDOUT / "make_tables.py"))
    for name, build in built["TABLES"].items():
        build().to_csv(tmp_path / name, index=False)
    monkeypatch.syspath_prepend(str(HELDOUT))
    import label_tools
    import labels_a  # noqa: F401  (registers its labels)
    import labels_b  # noqa: F401

    monkeypatch.setattr(label_tools, "TABLES", tmp_path)  # read() looks the folder up at call time
    stored = {a["id"]: a["common_answers"] for a in _lines("labels.jsonl")}
    assert sorted(label_tools.LABELS) == sorted(stored)
    for qid, compute in label_tools.LABELS.items():
        assert [[n, label_tools.render(v, d)] for n, v, d in compute()] == stored[qid], qid
