"""The held-out question set (benchmarks/heldout) is well formed: every question has its labels,
names its table, and asks for exactly the names its labels give; the tables build from data the
installed packages ship and the labels compute again to the stored ones.

The layout and id checks are ``heldout_checks``' (shared with batches C-J); the recomputation is
this set's own, since its labels are registered in ``label_tools`` by ``labels_a`` and ``labels_b``.
"""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from .heldout_checks import BENCH, answers, check_ids_are_own, check_layout

HELDOUT = BENCH / "heldout"


def test_questions_and_labels_match_one_to_one() -> None:
    check_layout(HELDOUT, first_id=9001, count=48)


def test_ids_do_not_collide_with_the_later_batches() -> None:
    check_ids_are_own(HELDOUT)


def test_labels_compute_again_from_freshly_built_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built = runpy.run_path(str(HELDOUT / "make_tables.py"))
    for name, build in built["TABLES"].items():
        build().to_csv(tmp_path / name, index=False)
    monkeypatch.syspath_prepend(str(HELDOUT))
    import label_tools
    import labels_a  # noqa: F401  (registers its labels)
    import labels_b  # noqa: F401

    monkeypatch.setattr(label_tools, "TABLES", tmp_path)  # read() looks the folder up at call time
    stored = answers(HELDOUT / "labels.jsonl")
    assert sorted(label_tools.LABELS) == sorted(stored)
    for qid, compute in label_tools.LABELS.items():
        assert [[n, label_tools.render(v, d)] for n, v, d in compute()] == stored[qid], qid
