"""Held-out batch C (benchmarks/heldout_c) is well formed: every question names a table the builder
writes and asks for exactly the names its labels give, in the DABench layout the harness reads;
the tables build from the data ``vega_datasets`` ships and the labels compute again to the stored
ones. Only the layout and the labels are checked here: no question text is asserted.

The layout, id and stored-answer checks are ``heldout_checks``' (shared with the other batches);
the recomputation is C's own, since its label functions read the folder ``labels_c.TABLES`` names.
"""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from .heldout_checks import BENCH, answers, check_ids_are_own, check_layout, check_stored_answers_agree

BATCH = BENCH / "heldout_c"


def test_batch_c_layout_matches_its_labels_one_to_one() -> None:
    check_layout(BATCH, first_id=9101, count=42)


def test_batch_c_ids_do_not_collide_with_other_batches() -> None:
    check_ids_are_own(BATCH)


def test_batch_c_stored_independent_answers_agree_with_the_labels() -> None:
    check_stored_answers_agree(BATCH)


def test_batch_c_labels_compute_again_from_freshly_built_tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runpy.run_path(str(BATCH / "make_tables.py"))["build"](tmp_path)
    monkeypatch.syspath_prepend(str(BATCH))
    import labels_c

    monkeypatch.setattr(labels_c, "TABLES", tmp_path)  # read() looks the folder up at call time
    computed = runpy.run_path(str(BATCH / "make_labels.py"))["computed"]  # batch A/B has a make_labels too
    assert computed() == answers(BATCH / "labels.jsonl")
