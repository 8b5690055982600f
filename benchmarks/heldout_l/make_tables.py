"""Build the tables of held-out batch L from data that installed packages ship.

Nothing is downloaded: every table is a data file bundled inside an installed wheel that is a main
dependency: ``statsmodels`` (four data sets it ships as example or test data, one of them UCLA's
hypothetical teaching data; one UK government table it ships as the source of an example data
set; a hospital-stay table and a price index it ships as test data), ``scipy`` (two NIST
reference data sets of its test suite) and ``matplotlib`` (its sample daily stock prices). None
of them is used by another batch or test here. The build is deterministic. Four tables are the
shipped CSV files written byte for byte under a plain name. Six ship in other layouts and are
written as comma-separated text by a simple documented conversion that changes no value (see
``CONVERTED`` below). No dirt is injected and no table is reshaped. The oddities that are there
are the data's own (spelled out below, so a solver knows they are there on purpose).

    .venv/bin/python benchmarks/heldout_l/make_tables.py            # writes benchmarks/heldout_l/tables/
    .venv/bin/python benchmarks/heldout_l/make_tables.py OUT_DIR    # writes OUT_DIR/ instead

Conversion of the other layouts
-------------------------------
Every converted table is written with ``\\n`` line ends, the last line too, and every value is
copied as the text the source writes, except the stock prices, which ship as a binary NumPy array.

- ``wholesale_prices.csv``: the shipped file is CSV with carriage-return line ends (``\\r``) and no
  line end after its last line; only the line ends change.
- ``scotland_councils.csv``: the shipped file is an export of a UK statistics web viewer, a
  preamble of ``Name:,"value"`` lines, the line ``Table``, the table, a line of ``=`` and
  footnotes. The table's lines (header and data, blank lines dropped) are written as the file
  writes them (quotes kept) except that the empty field every line ends with (a trailing comma) is
  dropped and the header's first field, blanks in the source, is written ``Region`` (the name
  the viewer gives that dimension).
- ``kidney_hospital_days.csv``, ``silver_atomic_weight.csv`` and ``ozone_calibration.csv``: the
  shipped files are blank-separated text, the kidney file a header line and one line per patient,
  the two NIST files a long description, then a line ``Data:`` followed by the column names and one
  line per observation. The header (the NIST names after ``Data:``) and every number are written
  comma-separated, as the file writes them (``0.0`` stays ``0.0``, ``107.8681568`` stays
  ``107.8681568``).
- ``goog_daily.csv``: ``goog.npz`` holds one NumPy record array, ``price_data``, with fields date
  (a day), open, high, low, close, volume, adj_close. One line per record, in the stored order:
  the date as ``YYYY-MM-DD``, each price as Python's shortest ``repr`` of the stored float
  (``100.34``), the volume as an integer.

Tables
------
marriage_survey.csv  ``statsmodels/datasets/fair/fair_pt.csv``, renamed: Fair's (1978) Psychology
                     Today survey of 601 married people (the smaller of statsmodels' two Fair data
                     sets): identifier (respondent number), constant (always 1.0), sex (0 =
                     female, 1 = male), age (years, in bands written by their midpoint: 17.5,
                     22.0 ... 57.0), nmarried (years married, interval approximations: 0.125,
                     0.417, 0.75, 1.5, 4.0, 7.0, 10.0, 15.0), nchildren (0 = no children, 1 = has
                     children), religious (1 = anti ... 5 = very religious), education (years:
                     9 grade school, 12 high school, 14 some college, 16 college graduate, 17 some
                     graduate school, 18 master's degree, 20 advanced degree), occupation (1-7,
                     Hollingshead classification), rate_marriage (self-rating of the marriage, 1
                     = very unhappy ... 5 = very happy), naffairs (affairs in the past year, coded
                     0, 1, 2, 3, 7 = 4-10 times, 12 = monthly or more often). A WIDE table of 11
                     columns, every category written as a number.
grad_school_plans.csv
                     ``statsmodels/miscmodels/tests/results/ologit_ucla.csv``, renamed: UCLA's
                     ordered-logit teaching data (described by UCLA as hypothetical), 400 college
                     juniors: apply (TEXT: ``unlikely``, ``somewhat likely``, ``very likely``, how
                     likely they are to apply to graduate school), pared (1 = at least one parent
                     has a graduate degree), public (1 = the undergraduate institution is public),
                     gpa (grade point average).
cancer_drug_trial.csv
                     ``statsmodels/genmod/tests/results/stata_cancer_glm.csv``, renamed: Stata's
                     ``cancer`` example data (a drug trial of 48 patients), without its death
                     indicator: studytime (months to death or the end of the study), age (years),
                     drug (1 = placebo, 2 and 3 = the two drugs).
county_cancer_cases.csv
                     ``statsmodels/datasets/cancer/cancer.csv``, renamed: breast cancer cases and
                     the population at risk in 301 counties (Rice, *Mathematical Statistics and
                     Data Analysis*; the data of Owen's empirical likelihood): cancer (cases),
                     population.
scotland_councils.csv
                     ``statsmodels/datasets/scotland/src/scotland_population.csv`` as CSV (see
                     above): "Area and population, 1996: Scotland" (Office for National
                     Statistics, Regional Trends 33, 1998), a WIDE table of 34 rows and 13
                     columns: Region (TEXT: ``United Kingdom``, ``Scotland`` and the 32 council
                     areas; two rows are thus totals, not council areas; names with a comma are
                     quoted, ``"Edinburgh, City of"``), then quoted numbers written with two
                     decimals (``"242910.00"``) under long names kept as the source writes them,
                     footnote marks included: area, persons per square kilometre, population in
                     thousands (males, females, total), population change 1981-1996 (percent),
                     total period fertility rate (``...(TPFR)<1>``), standardised mortality ratio
                     (UK = 100, ``...(SMR)<2>``), and the percentages of the population aged under
                     5, 5-15, 16 up to pension age (``<3>``) and of pension age or over (``<4>``).
kidney_hospital_days.csv
                     ``statsmodels/stats/tests/results/data.dat`` as CSV (see above): the kidney
                     failure data of Kutner, Nachtsheim and Neter's *Applied Linear Statistical
                     Models*, 60 patients: Days (days hospitalised, written ``0.0``), Duration
                     (duration of treatment: 1 = short, 2 = long), Weight (weight gain between
                     treatments: 1 = slight, 2 = moderate, 3 = substantial), ID (the patient's
                     number 1-10 WITHIN a Duration and Weight cell, so not unique over the table).
wholesale_prices.csv ``statsmodels/tsa/statespace/tests/results/results_wpi1_ar3_stata.csv`` as
                     CSV (see above): the US wholesale price index, quarterly, 1960q1 - 1990q4
                     (Stata's ``wpi1`` example data), 124 rows and 14 columns: wpi (the index), t
                     (the quarter, TEXT written ``1960q1``), ln_wpi (its natural log), then 11
                     columns Stata wrote for its test of an AR(3) model of the log changes (dep1,
                     sr1, sp1, sp2, sp3, sf1, sf2, sf3, sm1, sm2, sm3: predictions, residuals and
                     states). MISSING values are empty cells: those 11 columns are empty in the
                     first quarter. Numbers as Stata wrote them (``-6.94E-18``).
silver_atomic_weight.csv
                     ``scipy/stats/tests/data/nist_anova/AtmWtAg.dat`` as CSV (see above): NIST's
                     StRD analysis-of-variance data set AtmWtAg (Powell, Murphy and Gramlich 1982,
                     the atomic weight of a reference sample of silver), 48 rows: Instrument (1 or
                     2, 24 measurements each), AgWt (atomic weight, written with 7 decimals).
ozone_calibration.csv
                     ``scipy/stats/tests/data/nist_linregress/Norris.dat`` as CSV (see above):
                     NIST's StRD linear regression data set Norris (calibration of ozone monitors),
                     36 rows: y (response) and x (predictor), as NIST names them.
goog_daily.csv       ``matplotlib/mpl-data/sample_data/goog.npz`` as CSV (see above): Google's daily
                     share prices, 2004-08-19 - 2008-10-14, 1047 trading days: date (``2004-08-19``),
                     open, high, low, close (US dollars), volume (shares traded), adj_close.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
import heldout_common  # noqa: E402

OUT = Path(__file__).resolve().parent / "tables"

SOURCES = {  # table name -> (package, file inside the package)
    "marriage_survey.csv": ("statsmodels", "datasets/fair/fair_pt.csv"),
    "grad_school_plans.csv": ("statsmodels", "miscmodels/tests/results/ologit_ucla.csv"),
    "cancer_drug_trial.csv": ("statsmodels", "genmod/tests/results/stata_cancer_glm.csv"),
    "county_cancer_cases.csv": ("statsmodels", "datasets/cancer/cancer.csv"),
    "scotland_councils.csv": ("statsmodels", "datasets/scotland/src/scotland_population.csv"),
    "kidney_hospital_days.csv": ("statsmodels", "stats/tests/results/data.dat"),
    "wholesale_prices.csv": ("statsmodels", "tsa/statespace/tests/results/results_wpi1_ar3_stata.csv"),
    "silver_atomic_weight.csv": ("scipy", "stats/tests/data/nist_anova/AtmWtAg.dat"),
    "ozone_calibration.csv": ("scipy", "stats/tests/data/nist_linregress/Norris.dat"),
    "goog_daily.csv": ("matplotlib", "mpl-data/sample_data/goog.npz"),
}
READ_OPTIONS: dict[str, dict] = {}  # every table is read with pandas' defaults

ROWS = {  # converted table -> data rows it must hold
    "scotland_councils.csv": 34,
    "kidney_hospital_days.csv": 60,
    "wholesale_prices.csv": 124,
    "silver_atomic_weight.csv": 48,
    "ozone_calibration.csv": 36,
    "goog_daily.csv": 1047,
}


def shipped_path(name: str) -> Path:
    """Where the installed package keeps the source file of table ``name``."""
    return heldout_common.package_file(*SOURCES[name])


def _lines(rows: list[str]) -> bytes:
    return ("\n".join(rows) + "\n").encode("ascii")


def carriage_returns_csv(name: str) -> bytes:
    """A CSV file with ``\\r`` line ends written with ``\\n`` ones, nothing else changed."""
    text = shipped_path(name).read_bytes().decode("ascii")  # bytes: read_text would turn \r into \n
    assert "\n" not in text, name
    return _lines(text.rstrip("\r").split("\r"))


def viewer_table_csv(name: str) -> bytes:
    """The table of a statistics-viewer export: the lines between ``Table`` and the ``=`` line."""
    lines = shipped_path(name).read_text(encoding="ascii").splitlines()
    start = lines.index("Table") + 1
    stop = next(i for i in range(start, len(lines)) if lines[i].startswith("===="))
    rows = [line for line in lines[start:stop] if line.strip()]
    assert all(row.endswith(",") for row in rows), name
    rows = [row[:-1] for row in rows]
    first, rest = rows[0].split(",", 1)
    assert not first.strip(), name
    return _lines([f"Region,{rest}", *rows[1:]])


def blank_separated_csv(name: str) -> bytes:
    """A blank-separated text table as CSV; a NIST file's table starts at its ``Data:`` line."""
    lines = shipped_path(name).read_text(encoding="ascii").splitlines()
    data_line = [i for i, line in enumerate(lines) if line.startswith("Data:")]
    if data_line:  # NIST: the last "Data:" line names the columns (an earlier one describes them)
        header = lines[data_line[-1]].split()[1:]
        body = lines[data_line[-1] + 1:]
    else:
        header, body = lines[0].split(), lines[1:]
    cells = [line.split() for line in body if line.strip()]
    assert all(len(row) == len(header) for row in cells), name
    assert all(float(value) == float(value) for row in cells for value in row), name  # all numbers
    return _lines([",".join(header), *(",".join(row) for row in cells)])


def npz_prices_csv(name: str) -> bytes:
    """matplotlib's ``goog.npz`` record array as CSV (see the docstring)."""
    with np.load(shipped_path(name)) as archive:
        records = archive["price_data"]
    fields = list(records.dtype.names)
    assert fields == ["date", "open", "high", "low", "close", "volume", "adj_close"], fields
    out = [",".join(fields)]
    for rec in records:
        day = str(rec["date"].astype("datetime64[D]"))
        prices = [repr(float(rec[f])) for f in ("open", "high", "low", "close")]
        out.append(",".join([day, *prices, str(int(rec["volume"])), repr(float(rec["adj_close"]))]))
    return _lines(out)


SHIPPED = ("marriage_survey.csv", "grad_school_plans.csv", "cancer_drug_trial.csv",
           "county_cancer_cases.csv")  # written byte for byte
CONVERTERS = {
    "scotland_councils.csv": viewer_table_csv,
    "kidney_hospital_days.csv": blank_separated_csv,
    "wholesale_prices.csv": carriage_returns_csv,
    "silver_atomic_weight.csv": blank_separated_csv,
    "ozone_calibration.csv": blank_separated_csv,
    "goog_daily.csv": npz_prices_csv,
}
CONVERTED = tuple(CONVERTERS)  # a simple documented conversion (see the docstring)
TABLES = [*SHIPPED, *CONVERTED]


def table_bytes(name: str) -> bytes:
    """The bytes of built table ``name``."""
    if name in CONVERTERS:
        data = CONVERTERS[name](name)
        assert data.count(b"\n") == ROWS[name] + 1, name
        return data
    return shipped_path(name).read_bytes()


def build(folder: Path) -> None:
    """Write every table of batch L into ``folder``."""
    Path(folder).mkdir(parents=True, exist_ok=True)
    for name in TABLES:
        (Path(folder) / name).write_bytes(table_bytes(name))


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else OUT
    build(target)
    heldout_common.report_shapes(target, TABLES, READ_OPTIONS)
