"""Held-out batch L (benchmarks/heldout_l) is well formed: the checks every batch D-L shares
(``heldout_checks.HeldoutBatchChecks``), and L's own, that its tables are what statsmodels, scipy
and matplotlib ship: CSV files byte for byte, the carriage-return file with only its line ends
changed, the blank-separated text tables and the statistics viewer's table compared cell by cell
with the text the files hold, and the stock prices compared with the stored NumPy records. No
question text or value is asserted."""

from __future__ import annotations

import csv
from pathlib import Path

from .heldout_checks import BENCH, HeldoutBatchChecks, check_same_bytes, shipped_make_tables


def _csv_cells(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="ascii") as handle:
        return list(csv.reader(handle))


class TestBatchL(HeldoutBatchChecks):
    batch = BENCH / "heldout_l"
    first_id = 9981
    fewest_tables = 10

    def test_tables_are_the_shipped_data(self, built: Path) -> None:
        """Four tables are the packages' CSV files byte for byte; the six converted ones hold the
        shipped cells as written (the viewer table's first header cell named, its trailing empty
        field dropped) and the stored stock price records."""
        import numpy as np

        make_tables = shipped_make_tables(self.batch, "statsmodels", "scipy", "matplotlib")
        sources, shipped_path = make_tables["SOURCES"], make_tables["shipped_path"]
        assert set(make_tables["SHIPPED"]) | set(make_tables["CONVERTED"]) == set(sources)
        assert not set(make_tables["SHIPPED"]) & set(make_tables["CONVERTED"])
        assert {package for package, _ in sources.values()} == {"statsmodels", "scipy", "matplotlib"}
        for name in make_tables["SHIPPED"]:
            assert shipped_path(name).suffix == ".csv", name
        check_same_bytes(built, make_tables["SHIPPED"], shipped_path)
        assert set(make_tables["CONVERTED"]) == {
            "scotland_councils.csv", "kidney_hospital_days.csv", "wholesale_prices.csv",
            "silver_atomic_weight.csv", "ozone_calibration.csv", "goog_daily.csv"}

        raw = shipped_path("wholesale_prices.csv").read_bytes()
        assert b"\n" not in raw and (built / "wholesale_prices.csv").read_bytes() == raw.replace(b"\r", b"\n") + b"\n"

        for name, after in (("kidney_hospital_days.csv", None), ("silver_atomic_weight.csv", "Data:"),
                            ("ozone_calibration.csv", "Data:")):
            lines = shipped_path(name).read_text(encoding="ascii").splitlines()
            if after:
                start = max(i for i, line in enumerate(lines) if line.startswith(after))
                header, body = lines[start].split()[1:], lines[start + 1:]
            else:
                header, body = lines[0].split(), lines[1:]
            expected = [header, *(line.split() for line in body if line.strip())]
            assert _csv_cells(built / name) == expected, name

        source = shipped_path("scotland_councils.csv").read_text(encoding="ascii").splitlines()
        table = source[source.index("Table") + 1:]
        table = [row for row in table[:next(i for i, r in enumerate(table) if r.startswith("===="))] if row.strip()]
        shipped_cells = list(csv.reader(table))
        assert all(row[-1] == "" for row in shipped_cells)
        ours = _csv_cells(built / "scotland_councils.csv")
        assert ours[0] == ["Region", *shipped_cells[0][1:-1]] and not shipped_cells[0][0].strip()
        assert ours[1:] == [row[:-1] for row in shipped_cells[1:]] and len(ours) == 35

        with np.load(shipped_path("goog_daily.csv")) as archive:
            records = archive["price_data"]
        ours = _csv_cells(built / "goog_daily.csv")
        assert ours[0] == list(records.dtype.names) and len(ours) == len(records) + 1
        for row, rec in zip(ours[1:], records):
            assert np.datetime64(row[0], "D") == rec["date"]
            assert [float(v) for v in row[1:5]] == [float(rec[f]) for f in ("open", "high", "low", "close")]
            assert int(row[5]) == int(rec["volume"]) and float(row[6]) == float(rec["adj_close"])
