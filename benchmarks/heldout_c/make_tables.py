"""Build the tables of held-out batch C from the data the ``vega_datasets`` package ships.

Nothing is downloaded: every table is read from the files bundled inside the installed
``vega_datasets`` wheel (its ``local_data`` sets). Output: ``benchmarks/heldout_c/tables/<name>.csv``.
The build is deterministic. No dirt is injected: the messiness in these tables is the package's
own (spelled out below, so a solver knows it is there on purpose).

    .venv/bin/python benchmarks/heldout_c/make_tables.py

Tables
------
seattle_weather.csv   the shipped ``seattle-weather.csv`` byte for byte: daily weather in Seattle,
                      2012-2015 (1461 rows; date written ``YYYY/MM/DD``; precipitation in mm,
                      temperatures in degrees C, wind in m/s; ``weather`` a label).
stock_prices.csv      the shipped ``stocks.csv`` byte for byte: monthly closing prices of five
                      symbols in long form (560 rows; dates written like ``Jan 1 2000``; one
                      symbol starts later than the others).
iowa_electricity.csv  the shipped ``iowa-electricity.csv`` reshaped WIDE: one row per energy
                      source and one column per year (``2001`` ... ``2017``) holding the net
                      generation (the only change made to any shipped table).
us_employment.csv     the shipped ``us-employment.csv`` byte for byte: monthly US employment by
                      sector, 2006-2015, in thousands (120 rows; ``month`` written ``YYYY-MM-01``;
                      one column name carries the package's own misspelling ``utilties``).
airports.csv          the shipped ``airports.csv`` byte for byte: 3376 airports (``NA`` written
                      for an unknown city or state; some names and cities are quoted because they
                      hold commas).
barley.csv            the shipped ``barley.json`` as CSV (columns yield, variety, year, site):
                      yields of 10 varieties at 6 sites in 1931 and 1932 (120 rows).
la_riots.csv          the shipped ``la-riots.csv`` byte for byte: the 63 deaths of the 1992 Los
                      Angeles riots (one age missing; ``death_date`` written ``YYYY-MM-DD``).
wheat.csv             the shipped ``wheat.json`` as CSV (columns year, wheat, wages): Playfair's
                      wheat prices and weekly wages, every five years 1565-1820 (the last two
                      wages missing, as shipped).
sf_temps.csv          the shipped ``sf-temps.csv`` byte for byte: hourly temperatures in San
                      Francisco through 2010 (8759 rows; columns temp, date).
crimea.csv            the shipped ``crimea.json`` as CSV (columns date, wounds, other, disease):
                      monthly deaths of the British army in the Crimean War, April 1854 to March
                      1856 (24 rows).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pandas as pd

OUT = Path(__file__).resolve().parent / "tables"


def _raw(name: str) -> bytes:
    from vega_datasets import local_data

    return local_data(name, return_raw=True)


def _json(name: str) -> pd.DataFrame:
    return pd.DataFrame(json.loads(_raw(name)))


def iowa_electricity() -> pd.DataFrame:
    long = pd.read_csv(io.BytesIO(_raw("iowa-electricity")))
    long["year"] = long["year"].str[:4]
    wide = long.pivot(index="source", columns="year", values="net_generation")
    wide.columns.name = None
    return wide.reset_index()


def barley() -> pd.DataFrame:
    return _json("barley")[["yield", "variety", "year", "site"]]


def wheat() -> pd.DataFrame:
    df = _json("wheat")[["year", "wheat", "wages"]]
    df["year"] = df["year"].astype(int)
    return df


def crimea() -> pd.DataFrame:
    return _json("crimea")[["date", "wounds", "other", "disease"]]


SHIPPED = {  # written byte for byte
    "seattle_weather.csv": "seattle-weather",
    "stock_prices.csv": "stocks",
    "us_employment.csv": "us-employment",
    "airports.csv": "airports",
    "la_riots.csv": "la-riots",
    "sf_temps.csv": "sf-temps",
}
BUILT = {
    "iowa_electricity.csv": iowa_electricity,
    "barley.csv": barley,
    "wheat.csv": wheat,
    "crimea.csv": crimea,
}
TABLES = [*SHIPPED, *BUILT]


def build(folder: Path) -> None:
    """Write every table of batch C into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, shipped in SHIPPED.items():
        (folder / name).write_bytes(_raw(shipped))
    for name, make in BUILT.items():
        make().to_csv(folder / name, index=False)


def main() -> None:
    build(OUT)
    for name in TABLES:
        df = pd.read_csv(OUT / name)
        print(f"{name}: {df.shape[0]} rows x {df.shape[1]} columns")


if __name__ == "__main__":
    main()
