"""Held-out batch K (benchmarks/heldout_k) is well formed: the checks every batch D-K shares
(``heldout_checks.HeldoutBatchChecks``), and K's own, that its tables are what statsmodels and
plotly ship: CSV files byte for byte, plotly's gzip file decompressed byte for byte, and the three
tables written from Lutkepohl's text files compared number by number with the text the files
hold (periods counted on from each file's first period). No question text or value is asserted."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

from .heldout_checks import BENCH, HeldoutBatchChecks, check_same_bytes, shipped_make_tables


class TestBatchK(HeldoutBatchChecks):
    batch = BENCH / "heldout_k"
    first_id = 9941
    fewest_tables = 10

    def test_tables_are_the_shipped_data(self, built: Path) -> None:
        """Six tables are the packages' CSV files byte for byte, the wind table is plotly's gzip file
        decompressed, and the three Lutkepohl tables hold the shipped numbers as written, with a
        period column that runs on without a gap from the file's first period."""
        import pandas as pd

        make_tables = shipped_make_tables(self.batch, "statsmodels", "plotly")
        sources, shipped_path = make_tables["SOURCES"], make_tables["shipped_path"]
        assert set(make_tables["SHIPPED"]) | set(make_tables["CONVERTED"]) == set(sources)
        assert not set(make_tables["SHIPPED"]) & set(make_tables["CONVERTED"])
        assert {package for package, _ in sources.values()} == {"statsmodels", "plotly"}
        for name in make_tables["SHIPPED"]:
            assert shipped_path(name).suffix == ".csv", name
        check_same_bytes(built, make_tables["SHIPPED"], shipped_path)
        assert set(make_tables["CONVERTED"]) == {"wind.csv", "german_interest_rates.csv", "us_money_gnp.csv",
                                                 "german_income.csv"}

        assert (built / "wind.csv").read_bytes() == gzip.decompress(shipped_path("wind.csv").read_bytes())

        periods = {  # table -> period column, pandas frequency
            "german_interest_rates.csv": ("month", "M"),
            "us_money_gnp.csv": ("quarter", "Q"),
            "german_income.csv": ("quarter", "Q"),
        }
        for name, (column, freq) in periods.items():
            lines = shipped_path(name).read_text(encoding="ascii").splitlines()
            start = next(i for i, line in enumerate(lines) if line.startswith("<"))
            year, kind, number = re.fullmatch(r"<(\d{4})\s+([MQ])(\d+)>", lines[start].strip()).groups()
            names = lines[start + 1].split()
            cells = [line.split() for line in lines[start + 2:] if line.strip()]
            ours = pd.read_csv(built / name, dtype=str)
            assert list(ours.columns) == [column, *names] and len(ours) == len(cells), name
            assert ours[names].values.tolist() == cells, name
            first = pd.Period(f"{year}-{int(number):02d}" if kind == "M" else f"{year}Q{number}", freq=freq)
            assert kind == freq, name
            written = [first + i for i in range(len(cells))]
            expected = [p.strftime("%Y-%m") if freq == "M" else f"{p.year}Q{p.quarter}" for p in written]
            assert ours[column].tolist() == expected, name
