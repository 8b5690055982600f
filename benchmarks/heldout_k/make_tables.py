"""Build the tables of held-out batch K from data that installed packages ship.

Nothing is downloaded: every table is a data file bundled inside the installed ``statsmodels`` wheel
(a main dependency) or ``plotly`` wheel (a main dependency): six real data sets statsmodels ships as
test data for its own test suite (``statsmodels/*/tests/results``), three of Lutkepohl's
macroeconomic series that statsmodels ships as text files for its VAR tests
(``statsmodels/tsa/vector_ar/tests/results/e*.dat``), and plotly's sample wind data. None of them is
used by another batch or test here. The build is deterministic. Six tables are the shipped CSV
files written byte for byte under a plain name. Four ship in other formats (one gzip-compressed CSV
and three whitespace-separated text files with a comment header) and are written as comma-separated
text by a simple documented conversion that changes no value (see ``CONVERTED`` below). No dirt is
injected, no table is reshaped and no column renamed. The oddities that are there are the data's
own (spelled out below, so a solver knows they are there on purpose).

    .venv/bin/python benchmarks/heldout_k/make_tables.py            # writes benchmarks/heldout_k/tables/
    .venv/bin/python benchmarks/heldout_k/make_tables.py OUT_DIR    # writes OUT_DIR/ instead

Conversion of the other formats
-------------------------------
plotly's ``wind.csv.gz`` is decompressed, nothing else. Each of Lutkepohl's ``e*.dat`` files opens
with a ``/* ... */`` comment (what the series are, the sample and the source), then a line like
``<1960 M1>`` or ``<1954 Q1>`` giving the first period, a line of column names and one line per
period with one number per column, separated by blanks. It is written as CSV with a first column
for the period (``LUTKEPOHL``): ``month``, written ``1960-01``, for monthly data, or ``quarter``,
written ``1954Q1``, for quarterly data, counted on from the first period one line at a time; then
the file's columns under its names, every number copied as the text the file writes
(``4.3600000`` stays ``4.3600000``). Lines end with ``\\n``, the last one too.

Tables
------
ships.csv            ``statsmodels/discrete/tests/results/ships.csv``: McCullagh and Nelder's ship
                     damage data (Lloyd's Register), 40 rows, one per ship type, construction
                     period and operation period. A WIDE table that codes its periods twice: ship
                     (type 1-5, the book's A-E), yr_con (construction period 1-4: 1960-64,
                     1965-69, 1970-74, 1975-79), yr_op (operation period 1 = 1960-74, 2 =
                     1975-79), service (aggregate months of service), accident (number of damage
                     incidents) and 0/1 indicator columns op_75_79, co_65_69, co_70_74, co_75_79
                     for the same periods. MISSING values are empty cells: service and accident in
                     6 rows (ships built in 1975-79 cannot have operated before 1975, and one
                     more cell pair).
medicare_stays.csv   ``statsmodels/genmod/tests/results/stata_medpar1_glm.csv``, renamed: 3676
                     hospital stays of US Medicare patients (Hardin and Hilbe's ``medpar1``, as
                     distributed with Stata): los (length of stay, days), admitype (text,
                     quoted, with a vertical bar: ``type1|2`` = elective or urgent admission,
                     ``type3`` = emergency admission), codes (an integer 1-9).
vasoconstriction.csv ``statsmodels/stats/tests/results/binary_constrict.csv``, renamed: Finney's
                     (1947) vasoconstriction data, 39 measurements of air breathed in (Case 1-39,
                     diagnosis text ``constrict`` / ``no_constrict``, rate (litres a second),
                     volumne (litres; the column name is misspelled in the data), constrict (1 =
                     vasoconstriction occurred), const (always 1.0), log_rate, log_volumne
                     (natural logs)).
methylation.csv      ``statsmodels/othermod/tests/results/methylation-test.csv``, renamed: DNA
                     methylation at three CpG sites (CpG ``CpG_0``, ``CpG_1``, ``CpG_2``) of the same
                     12 people, a LONG table of 36 rows: an unnamed first column and a column
                     ``Unnamed: 0`` (both row numbers 0-35, left by an earlier pandas export),
                     gender (``F`` / ``M``), age (years, with float noise written out:
                     ``57.623999999999995``), Basename (array and position, text), ID (text like
                     ``age58.231_F``), id (the person, ``id_0`` ... ``id_11``), plate (one array
                     number for all rows), methylation (a fraction 0-1, float noise written out).
food_expenditure.csv ``statsmodels/othermod/tests/results/foodexpenditure.csv``, renamed: Griffiths,
                     Hill and Judge's household food expenditure data, 38 households (food and
                     income, weekly, dollars; persons, household size).
motorcycle.csv       ``statsmodels/gam/tests/results/motorcycle.csv``: Silverman's (1985) simulated
                     motorcycle crash test, 133 readings of head acceleration (times,
                     milliseconds after the impact; accel, acceleration in g), several readings
                     at some times; both column names quoted.
wind.csv             ``plotly/package_data/datasets/wind.csv.gz``, decompressed: plotly's sample
                     wind data, a LONG table of 128 rows, one per compass direction (16 points,
                     ``N``, ``NNE`` ... ``NNW``) and wind strength band (text ``0-1``, ``1-2``,
                     ``2-3``, ``3-4``, ``4-4``, ``4-5``, ``5-6``, ``6+``; the ``4-4`` band is the
                     data's own), with frequency (percent of the time).
german_interest_rates.csv
                     ``statsmodels/tsa/vector_ar/tests/results/e5.dat`` as CSV (see above): West
                     German monthly interest rates, January 1960 - December 1987 (Lutkepohl 1993,
                     table E.5; source Deutsche Bundesbank), 336 rows: month (``1960-01``),
                     i_short (3-month money market loans, percent), i_long (yield on fixed-interest
                     bonds outstanding, percent).
us_money_gnp.csv     ``statsmodels/tsa/vector_ar/tests/results/e3.dat`` as CSV (see above): US
                     quarterly data, seasonally adjusted, 1954Q1 - 1987Q4 (Lutkepohl 1993, table
                     E.3; source Business Conditions Digest), 136 rows: quarter (``1954Q1``), M1
                     (real money stock), gnp (GNP in 1982 dollars, billions), rd (discount rate on
                     91-day treasury bills) and rb (yield on long-term treasury bonds), the two
                     rates as FRACTIONS (``0.0108`` is 1.08 percent).
german_income.csv    ``statsmodels/tsa/vector_ar/tests/results/e4.dat`` as CSV (see above): West
                     German quarterly real per capita disposable income (inc) and personal
                     consumption expenditures (cons), NOT seasonally adjusted, 1960Q1 - 1987Q4
                     (Lutkepohl 1993, table E.4; source Deutsches Institut fuer
                     Wirtschaftsforschung), 112 rows: quarter (``1960Q1``), inc, cons.
"""

from __future__ import annotations

import gzip
import re
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
import heldout_common  # noqa: E402

OUT = Path(__file__).resolve().parent / "tables"

SOURCES = {  # table name -> (package, file inside the package)
    "ships.csv": ("statsmodels", "discrete/tests/results/ships.csv"),
    "medicare_stays.csv": ("statsmodels", "genmod/tests/results/stata_medpar1_glm.csv"),
    "vasoconstriction.csv": ("statsmodels", "stats/tests/results/binary_constrict.csv"),
    "methylation.csv": ("statsmodels", "othermod/tests/results/methylation-test.csv"),
    "food_expenditure.csv": ("statsmodels", "othermod/tests/results/foodexpenditure.csv"),
    "motorcycle.csv": ("statsmodels", "gam/tests/results/motorcycle.csv"),
    "wind.csv": ("plotly", "package_data/datasets/wind.csv.gz"),
    "german_interest_rates.csv": ("statsmodels", "tsa/vector_ar/tests/results/e5.dat"),
    "us_money_gnp.csv": ("statsmodels", "tsa/vector_ar/tests/results/e3.dat"),
    "german_income.csv": ("statsmodels", "tsa/vector_ar/tests/results/e4.dat"),
}
READ_OPTIONS: dict[str, dict] = {}  # every table is read with pandas' defaults

LUTKEPOHL = {  # table -> (period column, periods a year, rows the file holds)
    "german_interest_rates.csv": ("month", 12, 336),
    "us_money_gnp.csv": ("quarter", 4, 136),
    "german_income.csv": ("quarter", 4, 112),
}


def shipped_path(name: str) -> Path:
    """Where the installed package keeps the source file of table ``name``."""
    return heldout_common.package_file(*SOURCES[name])


def period_label(year: int, index: int, per_year: int) -> str:
    """Period ``index`` (1-based) of ``year``: a month as ``1960-01``, a quarter as ``1954Q1``."""
    return f"{year}-{index:02d}" if per_year == 12 else f"{year}Q{index}"


def lutkepohl_csv(name: str) -> bytes:
    """A shipped ``e*.dat`` file as CSV: the period, then every number as the file writes it."""
    column, per_year, count = LUTKEPOHL[name]
    text = shipped_path(name).read_text(encoding="ascii")
    body = text[text.index("*/") + 2:]
    start = re.search(r"<(\d{4})\s+([MQ])(\d{1,2})>", body)
    assert start and {"M": 12, "Q": 4}[start.group(2)] == per_year, name
    year, index = int(start.group(1)), int(start.group(3))
    names, *data = [line.split() for line in body[start.end():].splitlines() if line.strip()]
    assert len(data) == count and all(len(row) == len(names) for row in data), name
    out = [",".join([column, *names])]
    for values in data:
        assert all(float(value) == float(value) for value in values), name  # every cell is a number
        out.append(",".join([period_label(year, index, per_year), *values]))
        year, index = (year + 1, 1) if index == per_year else (year, index + 1)
    return ("\n".join(out) + "\n").encode("ascii")


SHIPPED = ("ships.csv", "medicare_stays.csv", "vasoconstriction.csv", "methylation.csv", "food_expenditure.csv",
           "motorcycle.csv")  # written byte for byte
CONVERTED = ("wind.csv", *LUTKEPOHL)  # decompressed, or a simple documented conversion (see the docstring)
TABLES = [*SHIPPED, *CONVERTED]


def table_bytes(name: str) -> bytes:
    """The bytes of built table ``name``."""
    if name in LUTKEPOHL:
        return lutkepohl_csv(name)
    raw = shipped_path(name).read_bytes()
    return gzip.decompress(raw) if name in CONVERTED else raw


def build(folder: Path) -> None:
    """Write every table of batch K into ``folder``."""
    Path(folder).mkdir(parents=True, exist_ok=True)
    for name in TABLES:
        (Path(folder) / name).write_bytes(table_bytes(name))


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    build(target)
    heldout_common.report_shapes(target, TABLES, READ_OPTIONS)
