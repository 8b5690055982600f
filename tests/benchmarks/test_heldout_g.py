"""Held-out batch G (benchmarks/heldout_g) is well formed: the checks every batch D-J shares
(``heldout_checks.HeldoutBatchChecks``), and G's own, that its tables come from statsmodels'
datasets folder: eight as shipped, modechoice rewritten from semicolons to commas.
No question text or value is asserted."""

from __future__ import annotations

from pathlib import Path

import pytest

from .heldout_checks import BENCH, HeldoutBatchChecks, check_same_bytes, check_same_values, shipped_make_tables


class TestBatchG(HeldoutBatchChecks):
    batch = BENCH / "heldout_g"
    first_id = 9601

    def test_tables_are_the_shipped_data(self, built: Path) -> None:
        """Eight tables are the package's files byte for byte; modechoice holds the shipped values unchanged."""
        shipped = Path(pytest.importorskip("statsmodels.datasets").__file__).parent
        make_tables = shipped_make_tables(self.batch)
        sources = make_tables["SOURCES"]
        check_same_bytes(built, make_tables["SHIPPED"], lambda name: shipped.joinpath(*sources[name]))
        check_same_values(built, "modechoice.csv", shipped / "modechoice" / "modechoice.csv", ";")
