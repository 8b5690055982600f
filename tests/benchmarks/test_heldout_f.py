"""Held-out batch F (benchmarks/heldout_f) is well formed: it passes the checks every batch D-J shares
(``heldout_checks.HeldoutBatchChecks``: layout, ids, tables, labels recomputed, independent answers),
and F's own: eight tables are statsmodels' files as shipped, anes96 its tab-separated values as CSV.
No question text or value is asserted."""

from __future__ import annotations

import runpy
from pathlib import Path

import pytest

from .heldout_checks import BENCH, HeldoutBatchChecks, check_same_bytes, check_same_values


class TestBatchF(HeldoutBatchChecks):
    batch = BENCH / "heldout_f"
    first_id = 9501

    def test_tables_are_the_shipped_data(self, built: Path) -> None:
        """Eight tables are the package's files byte for byte; anes96 holds the shipped values unchanged."""
        shipped = Path(pytest.importorskip("statsmodels.datasets").__file__).parent
        check_same_bytes(built, runpy.run_path(str(self.batch / "make_tables.py"))["SHIPPED"],
                         lambda name: shipped / name.removesuffix(".csv") / name)
        check_same_values(built, "anes96.csv", shipped / "anes96" / "anes96.csv", "\t", unquote=True)
