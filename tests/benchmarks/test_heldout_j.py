"""Held-out batch J (benchmarks/heldout_j) is well formed: the checks every batch D-J shares
(``heldout_checks.HeldoutBatchChecks``), and J's own, that its tables are what statsmodels and
matplotlib ship: CSV files byte for byte, the tables converted from Stata and numpy files compared
value by value (period labels read back as the dates they stand for). No question text or value is
asserted."""

from __future__ import annotations

from pathlib import Path

from .heldout_checks import BENCH, HeldoutBatchChecks, check_same_bytes, shipped_make_tables


class TestBatchJ(HeldoutBatchChecks):
    batch = BENCH / "heldout_j"
    first_id = 9901
    fewest_tables = 8

    def test_tables_are_the_shipped_data(self, built: Path) -> None:
        """Five tables are the packages' CSV files byte for byte; the four written from binary files
        (three Stata .dta files, one numpy .npz archive) hold the shipped values unchanged."""
        import numpy as np
        import pandas as pd

        make_tables = shipped_make_tables(self.batch, "statsmodels", "matplotlib")
        sources, shipped_path = make_tables["SOURCES"], make_tables["shipped_path"]
        assert set(make_tables["SHIPPED"]) | set(make_tables["CONVERTED"]) == set(sources)
        assert not set(make_tables["SHIPPED"]) & set(make_tables["CONVERTED"])
        assert {package for package, _ in sources.values()} == {"statsmodels", "matplotlib"}
        for name in make_tables["SHIPPED"]:
            assert shipped_path(name).suffix == ".csv", name
        check_same_bytes(built, make_tables["SHIPPED"], shipped_path)
        assert set(make_tables["CONVERTED"]) == {"google_prices.csv", "german_macro.csv", "manufacturing.csv",
                                                 "young_men_wages.csv"}

        ours = pd.read_csv(built / "google_prices.csv")
        with np.load(shipped_path("google_prices.csv")) as archive:
            records = archive["price_data"]
        assert list(ours.columns) == list(records.dtype.names) and len(ours) == len(records)
        assert (pd.to_datetime(ours["date"]).to_numpy() == records["date"].astype("datetime64[ns]")).all()
        for column in ("open", "high", "low", "close", "volume", "adj_close"):
            assert (ours[column].to_numpy() == records[column]).all(), column

        periods = {  # date column, how it is written, months per period
            "german_macro.csv": ("qtr", r"^(\d{4})q([1-4])$", 3),
            "manufacturing.csv": ("month", r"^(\d{4})m(\d{1,2})$", 1),
        }
        for name in ("german_macro.csv", "manufacturing.csv", "young_men_wages.csv"):
            ours = pd.read_csv(built / name)
            theirs = pd.read_stata(shipped_path(name))
            assert list(ours.columns) == list(theirs.columns) and len(ours) == len(theirs), name
            for column in theirs.columns:
                if name in periods and column == periods[name][0]:
                    parts = ours[column].str.extract(periods[name][1]).astype(int)
                    months = (parts[1] - 1) * periods[name][2] + 1
                    starts = pd.to_datetime({"year": parts[0], "month": months, "day": 1})
                    assert (starts.to_numpy() == theirs[column].to_numpy()).all(), (name, column)
                    continue
                stored = theirs[column].to_numpy()
                kind = stored.dtype if stored.dtype.kind == "f" else float
                written = ours[column].to_numpy(dtype=float).astype(kind)
                same = (written == stored) | (np.isnan(written) & np.isnan(stored.astype(float)))
                assert same.all(), (name, column)
