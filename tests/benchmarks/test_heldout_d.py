"""Held-out batch D (benchmarks/heldout_d) is well formed: the checks every batch D-J shares,
``heldout_checks.HeldoutBatchChecks`` (layout, ids, tables, labels recomputed, independent answers).
No question text or value is asserted."""

from __future__ import annotations

from .heldout_checks import BENCH, HeldoutBatchChecks


class TestBatchD(HeldoutBatchChecks):
    batch = BENCH / "heldout_d"
    first_id = 9301
