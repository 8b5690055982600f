"""Held-out batch M (benchmarks/heldout_m): the checks all batches share
(``heldout_checks.HeldoutBatchChecks``), and that M's tables are the data scikit-learn,
statsmodels, scipy and pyspark ship, one CSV file byte for byte and the nine converted ones cell by
cell against the text of their sources (the ARFF rows, the sunspot and NIST text tables, the BLS
export, the referendum web page, the word list). Layout and labels only: no question text or value
is asserted."""

from __future__ import annotations

import csv
import gzip
import re
from pathlib import Path

from .heldout_checks import BENCH, HeldoutBatchChecks, check_same_bytes, packaged_make_tables


class TestBatchM(HeldoutBatchChecks):
    batch, first_id, fewest_tables = BENCH / "heldout_m", 10021, 10
    packages = ("sklearn", "statsmodels", "scipy", "pyspark")

    def test_tables_are_the_shipped_data(self, built: Path) -> None:
        """The shipped CSV file unchanged; each converted table holds its source's cells as the source
        writes them (ARFF's ``?`` as an empty cell, the last sunspot year padded with empty months,
        the BLS header without its trailing empty field)."""
        make_tables = packaged_make_tables(self.batch, self.packages)
        source = make_tables["shipped_path"]
        assert sorted([*make_tables["SHIPPED"], *make_tables["CONVERTED"]]) == sorted(make_tables["SOURCES"])
        check_same_bytes(built, make_tables["SHIPPED"], source)

        def cells(name: str) -> list[list[str]]:
            return list(csv.reader((built / name).read_text(encoding="utf-8").splitlines()))

        arff = [name for name in make_tables["CONVERTED"] if str(source(name)).endswith(".arff.gz")]
        assert len(arff) == 4
        for name in arff:
            text = gzip.decompress(source(name).read_bytes()).decode("utf-8")
            names = re.findall(r"^@attribute\s+'?([^'\s]+)", text, re.I | re.M)
            body = text[re.search(r"^@data\s*$", text, re.I | re.M).end():]
            lines = [line for line in body.splitlines() if line.strip() and not line.startswith("%")]
            expected = [[cell.strip().strip('"').replace("?", "") for cell in line.split(",")] for line in lines]
            ours = cells(name)
            assert ours[0] == names and ours[1:] == expected, name

        lines = source("sunspots_monthly.csv").read_text(encoding="ascii").splitlines()
        grid = [line.split() for line in lines if re.match(r"(Year|\d{4}) ", line)]
        ours = cells("sunspots_monthly.csv")
        assert [[cell for cell in row if cell] for row in ours] == grid and len(ours) == 262
        assert all(len(row) == 13 for row in ours)

        lines = source("us_unemployment.csv").read_text(encoding="ascii").splitlines()
        rows = [line.split(",") for line in lines if line.startswith(("Series id,", "LNS14000000Q,"))]
        assert rows[0][-1] == "" and cells("us_unemployment.csv") == [rows[0][:-1], *rows[1:]]

        page = source("devolution_referendum.csv").read_text(encoding="ascii")
        ours = cells("devolution_referendum.csv")
        assert ours[0] == ["Question", "Authority", "Yes votes", "Yes %", "No votes", "No %"] and len(ours) == 67
        for row in ours[1:]:
            assert f"<H3>{row[0]}</H3>" in page
            shown = "".join(f"<T[HD]>{re.escape(cell)}</T[HD]>" for cell in row[1:])
            assert re.search(shown, page), row

        lines = source("silicon_resistivity.csv").read_text(encoding="ascii").splitlines()
        tail = lines[max(i for i, line in enumerate(lines) if line.startswith("Data:")):]
        nist = [tail[0].split()[1:], *(line.split() for line in tail[1:] if line.strip())]
        assert cells("silicon_resistivity.csv") == nist

        words = source("afinn_word_scores.csv").read_text(encoding="utf-8").splitlines()
        assert cells("afinn_word_scores.csv") == [["word", "score"], *(w.split("\t") for w in words)]
