"""Build the tables of held-out batch D from data that installed packages ship.

Nothing is downloaded: seven tables come from the files bundled inside the installed
``vega_datasets`` wheel (its ``local_data`` sets) and two from the CSV files bundled inside
``statsmodels.datasets``. The build is deterministic. No dirt is injected: the messiness in these
tables is the packages' own (spelled out below, so a solver knows it is there on purpose).

    .venv/bin/python benchmarks/heldout_d/make_tables.py            # writes benchmarks/heldout_d/tables/
    .venv/bin/python benchmarks/heldout_d/make_tables.py OUT_DIR    # writes OUT_DIR/ instead

Tables
------
cars.csv          the shipped ``cars.json`` as CSV (columns Name, Miles_per_Gallon, Cylinders,
                  Displacement, Horsepower, Weight_in_lbs, Acceleration, Year, Origin): 406 cars
                  of model years 1970-1982 (8 missing miles per gallon, 6 missing horsepower;
                  ``Year`` is the model year written as a date, ``1970-01-01``; no 1981 rows;
                  names repeat and are spelled as shipped, e.g. ``chevy`` beside ``chevrolet``).
driving.csv       the shipped ``driving.json`` as CSV (columns side, year, miles, gas): miles
                  driven per capita per year and the gas price in constant dollars, 1956-2010
                  (55 rows; ``side`` is a chart-label placement that came with the data).
seattle_temps.csv the shipped ``seattle-temps.csv`` byte for byte: hourly temperatures in Seattle
                  through 2010 in degrees Fahrenheit (8759 rows, one hour short of a full year;
                  ``date`` written ``YYYY/MM/DD HH:MM``).
ohlc.csv          the shipped ``ohlc.json`` as CSV (columns date, open, high, low, close, signal,
                  ret): 44 trading days of the CBOE Volatility Index (VIX), June-July 2009 (``date`` written
                  ``YYYY-MM-DD``; no row on weekends or on 2009-07-03).
iris.csv          the shipped ``iris.json`` as CSV (columns sepalLength, sepalWidth, petalLength,
                  petalWidth, species): Fisher's 150 iris flowers, measurements in cm.
anscombe.csv      the shipped ``anscombe.json`` as CSV (columns Series, X, Y): Anscombe's quartet,
                  series I-IV with 11 points each.
burtin.csv        the shipped ``burtin.json`` as CSV (columns Bacteria, Penicillin, Streptomycin,
                  Neomycin, Gram_Staining, Genus): Will Burtin's 1951 table of the minimum
                  inhibitory concentration (MIC) of three antibiotics against 16 bacteria.
fertility.csv     statsmodels' ``datasets/fertility/fertility.csv`` byte for byte: World Bank total
                  fertility rate (births per woman), WIDE: one row per country or aggregate (219
                  rows, among them a few regional aggregates such as ``OECD members``), one column
                  per year ``1960`` ... ``2013``; many cells missing, the columns ``2012`` and
                  ``2013`` entirely empty; names quoted where they hold commas.
co2_weekly.csv    statsmodels' ``datasets/co2/co2.csv`` byte for byte: weekly mean atmospheric CO2
                  (ppmv) at Mauna Loa, March 1958 - December 2001 (2284 rows; ``date`` written as
                  the integer ``YYYYMMDD``; 59 weeks with no reading, left empty).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pandas as pd

OUT = Path(__file__).resolve().parent / "tables"


def _raw(name: str) -> bytes:
    from vega_datasets import local_data

    return local_data(name, return_raw=True)


def _statsmodels_csv(name: str) -> bytes:
    import statsmodels.datasets

    return (Path(statsmodels.datasets.__file__).parent / name / f"{name}.csv").read_bytes()


def _json_table(name: str, columns: list[str]):
    def make() -> pd.DataFrame:
        return pd.DataFrame(json.loads(_raw(name)))[columns]

    return make


SHIPPED = {  # written byte for byte
    "seattle_temps.csv": lambda: _raw("seattle-temps"),
    "fertility.csv": lambda: _statsmodels_csv("fertility"),
    "co2_weekly.csv": lambda: _statsmodels_csv("co2"),
}
BUILT = {  # JSON records written as CSV, columns in the shipped order
    "cars.csv": _json_table(
        "cars",
        ["Name", "Miles_per_Gallon", "Cylinders", "Displacement", "Horsepower", "Weight_in_lbs", "Acceleration", "Year", "Origin"],
    ),
    "driving.csv": _json_table("driving", ["side", "year", "miles", "gas"]),
    "ohlc.csv": _json_table("ohlc", ["date", "open", "high", "low", "close", "signal", "ret"]),
    "iris.csv": _json_table("iris", ["sepalLength", "sepalWidth", "petalLength", "petalWidth", "species"]),
    "anscombe.csv": _json_table("anscombe", ["Series", "X", "Y"]),
    "burtin.csv": _json_table("burtin", ["Bacteria", "Penicillin", "Streptomycin", "Neomycin", "Gram_Staining", "Genus"]),
}
TABLES = [*BUILT, *SHIPPED]


def build(folder: Path) -> None:
    """Write every table of batch D into ``folder``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name, raw in SHIPPED.items():
        (folder / name).write_bytes(raw())
    for name, make in BUILT.items():
        make().to_csv(folder / name, index=False)


def main(argv: list[str]) -> None:
    folder = Path(argv[0]) if argv else OUT
    build(folder)
    for name in TABLES:
        df = pd.read_csv(folder / name)
        print(f"{name}: {df.shape[0]} rows x {df.shape[1]} columns")


if __name__ == "__main__":
    main(sys.argv[1:])
