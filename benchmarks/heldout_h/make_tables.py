"""Build the tables of held-out batch H from data that installed packages ship.

Nothing is downloaded: every table comes from a data file bundled inside an installed wheel
(``statsmodels``, ``matplotlib`` and ``plotly``, all main dependencies), none of them used by another
batch or test here. The build is deterministic. No dirt is injected and no table is reshaped. Seven
files are written byte for byte (two of them under a clearer name); two ship gzip-compressed and are
written decompressed (the bytes inside the archive, unchanged); one (``spector.csv``) ships
whitespace-separated with single-quoted column names and is written as a plain comma-separated file
(the quotes around the names dropped, no value changes). The oddities that are there are the data's
own (spelled out below, so a solver knows they are there on purpose).

    .venv/bin/python benchmarks/heldout_h/make_tables.py            # writes benchmarks/heldout_h/tables/
    .venv/bin/python benchmarks/heldout_h/make_tables.py OUT_DIR    # writes OUT_DIR/ instead

Tables
------
monthly_stocks.csv   ``matplotlib/mpl-data/sample_data/Stocks.csv`` byte for byte, renamed: a WIDE
                     table of prices, one column per ticker (IBM, AAPL, MSFT, XRX, AMZN, DELL,
                     GOOGL, ADBE and the indexes ^GSPC (S&P 500) and ^IXIC (Nasdaq Composite)),
                     one row per month dated the first of the month (``1990-01-01`` ... 
                     ``2022-06-01``). The file's first line is a comment (``# Data source:
                     https://finance.yahoo.com``), the header is the second line. It has MISSING
                     values, as shipped: 133 extra rows dated on other days (``1990-02-05``, ...)
                     are empty in every column but Date, and AMZN, GOOGL and DELL are empty before
                     they were listed; a last row dated ``2022-06-28`` repeats the values of
                     ``2022-06-01``.
msft.csv             ``matplotlib/mpl-data/sample_data/msft.csv`` byte for byte: Microsoft's daily
                     share prices for the 65 trading days 19 June - 19 September 2003, NEWEST FIRST,
                     dates written like ``19-Sep-03`` (columns Date, Open, High, Low, Close, Volume,
                     ``Adj. Close*``, the last name with a full stop, a space and an asterisk); the
                     file has no newline after its last row.
interest_inflation.csv  ``statsmodels/datasets/interest_inflation/E6.csv`` byte for byte, renamed:
                     (West) German quarterly data 1972Q2 - 1998Q4 (107 quarters; the first year has
                     three quarters), the period split over two columns year and quarter (1-4);
                     Dp (change of the log GDP deflator, i.e. quarterly inflation) and R (nominal
                     long-term interest rate, as a fraction: 0.083 = 8.3%).
copper.csv           ``statsmodels/datasets/copper/copper.csv`` byte for byte: the world copper
                     market 1951-1975, one row per year (columns YEAR, WORLDCONSUMPTION (1000 metric
                     tons), COPPERPRICE (constant-dollar price), INCOMEINDEX (real per-capita income
                     index, 1970 = 1), ALUMPRICE (aluminium price), INVENTORYINDEX, TIME (1-25)).
ccard.csv            ``statsmodels/datasets/ccard/ccard.csv`` byte for byte: Greene's credit card
                     data, 72 card holders (columns AVGEXP (average monthly credit card
                     expenditure), AGE (years), INCOME ($10,000s), INCOMESQ (INCOME squared),
                     OWNRENT (1 = owns the home, 0 = rents)).
spector.csv          ``statsmodels/datasets/spector/spector.csv`` as comma-separated (see above):
                     Spector and Mazzeo's data on the personalized system of instruction, 32
                     students (columns OBS (1-32), GPA, TUCE (score on an economics test), PSI
                     (1 = taught with the new method), GRADE (1 = the student's grade improved)).
stackloss.csv        ``statsmodels/datasets/stackloss/stackloss.csv`` byte for byte: Brownlee's
                     stack loss plant data, 21 days of operation in file order (columns STACKLOSS
                     (10 x the percentage of the ingoing ammonia that escapes), AIRFLOW (rate of
                     operation), WATERTEMP (cooling water temperature), ACIDCONC (acid
                     concentration minus 50, x 10)). No day number column.
strikes.csv          ``statsmodels/datasets/strikes/strikes.csv`` byte for byte: 62 US
                     manufacturing contract strikes (columns duration (days) and iprod
                     (unanticipated industrial production when the strike began; strikes that began
                     in the same period share one value, so the table holds several rows per
                     value)); the iprod cells are written with a leading space and without a
                     leading zero (`` .01138``, ``-.03957``), one with two spaces, as shipped.
carshare.csv         ``plotly/package_data/datasets/carshare.csv.gz`` decompressed: car-sharing
                     availability in 249 zones of Montreal over a month (columns centroid_lat,
                     centroid_lon, car_hours (hours of car availability), peak_hour (0-23, the hour
                     of the day with the most availability)); no newline after the last row.
medals.csv           ``plotly/package_data/datasets/medals.csv.gz`` decompressed: the Olympic short
                     track speed skating medal table of the top three nations (columns nation
                     (text, ``South Korea`` with a space), gold, silver, bronze: one column per kind
                     of medal).
"""

from __future__ import annotations

import gzip
import importlib
import sys
from pathlib import Path

import pandas as pd

OUT = Path(__file__).resolve().parent / "tables"

SOURCES = {  # table name -> (package, file inside the package)
    "monthly_stocks.csv": ("matplotlib", "mpl-data/sample_data/Stocks.csv"),
    "msft.csv": ("matplotlib", "mpl-data/sample_data/msft.csv"),
    "interest_inflation.csv": ("statsmodels", "datasets/interest_inflation/E6.csv"),
    "copper.csv": ("statsmodels", "datasets/copper/copper.csv"),
    "ccard.csv": ("statsmodels", "datasets/ccard/ccard.csv"),
    "spector.csv": ("statsmodels", "datasets/spector/spector.csv"),
    "stackloss.csv": ("statsmodels", "datasets/stackloss/stackloss.csv"),
    "strikes.csv": ("statsmodels", "datasets/strikes/strikes.csv"),
    "carshare.csv": ("plotly", "package_data/datasets/carshare.csv.gz"),
    "medals.csv": ("plotly", "package_data/datasets/medals.csv.gz"),
}
READ_OPTIONS = {  # how pandas reads a table (the header of monthly_stocks.csv is its second line)
    "monthly_stocks.csv": {"skiprows": 1},
}


def shipped_path(name: str) -> Path:
    """Where the installed package keeps the source file of table ``name``."""
    package, file = SOURCES[name]
    return Path(importlib.import_module(package).__file__).parent / file


def _shipped(name: str):
    def read() -> bytes:
        return shipped_path(name).read_bytes()

    return read


def _decompressed(name: str):
    def read() -> bytes:
        return gzip.decompress(shipped_path(name).read_bytes())

    return read


def _spector() -> bytes:
    """The whitespace-separated shipped file as comma-separated, quotes around the names dropped."""
    lines = shipped_path("spector.csv").read_text("ascii").splitlines()
    rows = [line.split() for line in lines if line.strip()]
    assert all(len(row) == len(rows[0]) for row in rows)
    assert all(cell.startswith("'") and cell.endswith("'") for cell in rows[0])
    rows[0] = [cell.strip("'") for cell in rows[0]]
    assert all("'" not in cell and "," not in cell for row in rows for cell in row)
    return ("\n".join(",".join(row) for row in rows) + "\n").encode("ascii")


SHIPPED = {  # written byte for byte
    name: _shipped(name) for name in SOURCES if not name.endswith(("carshare.csv", "medals.csv", "spector.csv"))
}
DECOMPRESSED = {  # the bytes inside the shipped gzip archive
    "carshare.csv": _decompressed("carshare.csv"),
    "medals.csv": _decompressed("medals.csv"),
}
CONVERTED = {  # a simple documented conversion
    "spector.csv": _spector,
}
TABLES = [*SHIPPED, *DECOMPRESSED, *CONVERTED]


def read_table(folder: Path, name: str) -> pd.DataFrame:
    """A built table as pandas reads it (used by the test and the labels)."""
    return pd.read_csv(Path(folder) / name, **READ_OPTIONS.get(name, {}))


def build(folder: Path) -> None:
    """Write every table of batch H into ``folder``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name, raw in {**SHIPPED, **DECOMPRESSED, **CONVERTED}.items():
        (folder / name).write_bytes(raw())


def main(argv: list[str]) -> None:
    folder = Path(argv[0]) if argv else OUT
    build(folder)
    for name in TABLES:
        df = read_table(folder, name)
        print(f"{name}: {df.shape[0]} rows x {df.shape[1]} columns")


if __name__ == "__main__":
    main(sys.argv[1:])
