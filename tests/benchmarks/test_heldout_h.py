"""Held-out batch H (benchmarks/heldout_h) is well formed. Beside the checks every batch D-J shares
(``heldout_checks.HeldoutBatchChecks``), H's tables are checked against what statsmodels, matplotlib
and plotly ship: files copied, gzip archives unpacked, and spector's whitespace-separated values.
No question text or value is asserted."""

from __future__ import annotations

import gzip
from pathlib import Path

from .heldout_checks import BENCH, HeldoutBatchChecks, check_same_bytes, check_same_values, shipped_make_tables


class TestBatchH(HeldoutBatchChecks):
    batch = BENCH / "heldout_h"
    first_id = 9701

    def test_tables_are_the_shipped_data(self, built: Path) -> None:
        """Seven tables are the packages' files byte for byte, two the bytes inside the shipped gzip
        archives; spector holds the shipped values unchanged."""
        make_tables = shipped_make_tables(self.batch, "statsmodels", "matplotlib", "plotly")
        sources, shipped_path = make_tables["SOURCES"], make_tables["shipped_path"]
        written = set(make_tables["SHIPPED"]) | set(make_tables["DECOMPRESSED"]) | set(make_tables["CONVERTED"])
        assert written == set(sources)
        check_same_bytes(built, make_tables["SHIPPED"], shipped_path)
        for name in make_tables["DECOMPRESSED"]:
            assert shipped_path(name).suffix == ".gz", name
            assert (built / name).read_bytes() == gzip.decompress(shipped_path(name).read_bytes()), name
        assert set(make_tables["CONVERTED"]) == {"spector.csv"}
        check_same_values(built, "spector.csv", shipped_path("spector.csv"), r"\s+", unquote=True)
