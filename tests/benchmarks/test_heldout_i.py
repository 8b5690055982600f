"""Held-out batch I (benchmarks/heldout_i) is well formed: the shared checks of a batch D-J
(``heldout_checks.HeldoutBatchChecks``), its questions spread over at least eight tables, and every
table a statsmodels file as shipped. No question text or value is asserted."""

from __future__ import annotations

from pathlib import Path

from .heldout_checks import BENCH, HeldoutBatchChecks, check_same_bytes, shipped_make_tables


class TestBatchI(HeldoutBatchChecks):
    batch = BENCH / "heldout_i"
    first_id = 9801
    fewest_tables = 8

    def test_tables_are_the_shipped_data(self, built: Path) -> None:
        """Every table is the statsmodels file byte for byte."""
        make_tables = shipped_make_tables(self.batch, "statsmodels")
        sources = make_tables["SOURCES"]
        assert set(sources) == set(make_tables["SHIPPED"])
        assert {package for package, _ in sources.values()} == {"statsmodels"}
        check_same_bytes(built, make_tables["SHIPPED"], make_tables["shipped_path"])
