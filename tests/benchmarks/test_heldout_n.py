"""Held-out batch N (benchmarks/heldout_n): the checks all batches share
(``heldout_checks.HeldoutBatchChecks``), and that N's tables are the data statsmodels, scikit-learn
and altair ship: one gzip-compressed CSV file decompressed, and the seven other converted tables
cell by cell against the text of their sources (the ARFF rows, the two Linnerud files, the
Lütkepohl text file, the cells of the web pages' four tables). Layout and labels only: no question
text or value is asserted."""

from __future__ import annotations

import csv
import gzip
import re
from pathlib import Path

from .heldout_checks import BENCH, HeldoutBatchChecks, packaged_make_tables


class TestBatchN(HeldoutBatchChecks):
    batch, first_id, fewest_tables = BENCH / "heldout_n", 10061, 8
    packages = ("statsmodels", "sklearn", "altair")

    def test_tables_are_the_shipped_data(self, built: Path) -> None:
        """The catalogue decompressed byte for byte; each other converted table holds its source's
        cells as the source writes them (ARFF's ``?`` as an empty cell, the quarters counted on from
        the Lütkepohl file's start mark, the web pages' footnote marks left out)."""
        make_tables = packaged_make_tables(self.batch, self.packages)
        source = make_tables["shipped_path"]
        assert not make_tables["SHIPPED"] and sorted(make_tables["CONVERTED"]) == sorted(make_tables["SOURCES"])
        catalog = "vega_dataset_catalog.csv"
        assert (built / catalog).read_bytes() == gzip.decompress(source(catalog).read_bytes())

        def cells(name: str) -> list[list[str]]:
            return list(csv.reader((built / name).read_text(encoding="utf-8").splitlines()))

        text = gzip.decompress(source("titanic_passengers.csv").read_bytes()).decode("utf-8")
        names = re.findall(r"^@attribute '([^']+)'", text, re.I | re.M)
        lines = text[re.search(r"^@data$", text, re.M).end():].split("\n")
        rows = [["" if cell == "?" else cell for cell in row] for row in csv.reader(line for line in lines if line)]
        assert cells("titanic_passengers.csv") == [names, *rows] and len(rows) == 1309

        exercise = source("linnerud_fitness.csv")
        both = [p.read_text(encoding="ascii").split("\n") for p in (exercise, exercise.parent / "linnerud_physiological.csv")]
        assert cells("linnerud_fitness.csv") == [a.split() + b.split() for a, b in zip(*both) if a and b]

        lines = source("us_investment_quarterly.csv").read_text(encoding="ascii").splitlines()
        grid = [line.split() for line in lines if re.fullmatch(r"\s*-?[\d.]+\s+-?[\d.]+\s*", line)]
        ours = cells("us_investment_quarterly.csv")
        assert "<1947 Q1>" in lines and ours[0] == ["quarter", "y1", "y2"] and [row[1:] for row in ours[1:]] == grid
        assert [row[0] for row in ours[1:]] == [f"{year}Q{q}" for year in range(1947, 1973) for q in range(1, 5)]

        for name in ("scotland_vital_statistics.csv", "scotland_education.csv"):
            page = source(name).read_text(encoding="utf-8")
            ours = cells(name)
            assert ours[0][0] == "Area" and len(ours) == 35
            for measure in ours[0][1:]:
                assert re.search(f"<TD ALIGN='center'>{re.escape(measure)}(<SUP>\\d+</SUP>)?</TD>", page), measure
            for row in ours[1:]:
                shown = "".join(f"<TD ALIGN='right'>{re.escape(cell)}</TD>" for cell in row[1:])
                assert re.search(f"<TD ALIGN='left'>{re.escape(row[0])}(<SUP>\\d+</SUP>)?</TD>{shown}", page), row

        page = source("scottish_manufactured_exports.csv").read_text(encoding="utf-8")
        page = re.sub(r"<[^>]+>", "|", page).replace("&amp;", "&").replace("&pound;", "£").replace("&nbsp;", " ")
        sectors, destinations = cells("scottish_manufactured_exports.csv"), cells("scottish_export_destinations.csv")
        assert len(sectors) == 13 and sectors[-1][0] == "All Manufacturing Industries"
        assert len(destinations) == 11 and destinations[0][0] == "Destination"
        destinations[0][0] = ""  # the page's empty corner cell, named by the build
        for row in [*sectors, *destinations]:  # the cells one after the other, only tags (now bars) and blanks between
            assert re.search(r"\|\s*" + r"\s*\|+\s*".join(map(re.escape, row)) + r"\s*\|", page), row
