"""Build the tables of held-out batch J from data that installed packages ship.

Nothing is downloaded: every table is a data file bundled inside the installed ``statsmodels`` wheel
(a main dependency) or ``matplotlib`` wheel: one of statsmodels' example datasets
(``statsmodels.datasets.heart``), seven real data sets statsmodels ships as test data for its own
test suite (``statsmodels/*/tests/``) and matplotlib's sample stock prices. None of them is used by
another batch or test here. The build is deterministic. Five tables are the shipped CSV files
written byte for byte under a plain name. Four ship in binary formats (three Stata ``.dta`` files
and a numpy ``.npz`` archive) and are written as comma-separated text by a simple documented
conversion that changes no value (see ``CONVERTED`` below). No dirt is injected, no table is
reshaped and no column renamed. The oddities that are there are the data's own (spelled out below,
so a solver knows they are there on purpose).

    .venv/bin/python benchmarks/heldout_j/make_tables.py            # writes benchmarks/heldout_j/tables/
    .venv/bin/python benchmarks/heldout_j/make_tables.py OUT_DIR    # writes OUT_DIR/ instead

Conversion of the binary files
------------------------------
The ``.dta`` files are read with ``pandas.read_stata`` (dates converted, the stored numeric types
kept); the columns are kept in their order and under their names. A Stata date is written as Stata
displays it (``STATA_DATES``): a quarterly date (format ``%tq``) like ``1960q1``, a monthly date
(``%tm``) like ``1972m1``.
A missing value is an empty cell. An integer column, and a floating-point column whose values are
all whole numbers, is written as integers (``12``, not ``12.0``); any other ``float32`` value is
written with the fewest digits that read back as the same ``float32`` (``0.462``, ``5.187386``),
a ``float64`` value with Python's ``repr``. The ``.npz`` archive holds one numpy record array,
written with its field names as the header, the day as ``YYYY-MM-DD``, prices with Python's
``repr`` of the float and the volume as an integer. Lines end with ``\\n``, the last one too.

Tables
------
births.csv           ``statsmodels/treatment/tests/results/cataneo2.csv``, renamed: 4642 births in
                     Pennsylvania, an excerpt of Cattaneo (2010) as distributed with Stata
                     (``cattaneo2``). A long, wide table (28 columns): bweight (birth weight,
                     grams), mmarried (text: ``married`` / ``notmarried``), mhisp, fhisp (1 =
                     mother / father Hispanic), foreign (1 = mother born abroad), alcohol (1 =
                     mother drank during pregnancy), deadkids (1 = a previous birth where the
                     newborn died), mage, fage (mother's and father's age; fage is 0 in 294
                     rows), medu, fedu (years of schooling), nprenatal (number of prenatal care
                     visits), monthslb (months since the last birth),
                     order (birth order), msmoke (text: cigarettes smoked a day, ``0 daily``,
                     ``1-5 daily``, ``6-10 daily``, ``11+ daily``), mbsmoke (text: ``smoker`` /
                     ``nonsmoker``), mrace, frace (1 = mother / father white), prenatal
                     (trimester of the first prenatal care visit, 0 = none), birthmonth (1-12),
                     lbweight (1 = 2500 g or less), fbaby (text ``Yes`` / ``No``: first baby),
                     prenatal1 (text ``Yes`` / ``No``: prenatal care in the first trimester) and
                     0/1 copies of four of the text columns with a trailing underscore in their
                     names (mbsmoke_, mmarried_, fbaby_, prenatal1_) and mage2 (mage squared).
doctor_visits.csv    ``statsmodels/sandbox/regression/tests/racd10data_with_transformed.csv``,
                     renamed: 3629 US adults aged 65 to 90 from Cameron and Trivedi's count-data
                     examples (the data statsmodels' GMM Poisson test uses): docvis (doctor visits
                     in the year; physician holds the same numbers), nonphysician (visits to
                     other health professionals), age, educyr (years of schooling), female,
                     medicaid, private (private insurance; insured holds the same values), phylim,
                     actlim (physical / activity limitation), totchr (number of chronic
                     conditions), income, ssiratio, offer, bh and derived columns (age2, linc =
                     log income, ldocvis = log docvis, ldocvisa, docbin = 1 if docvis > 0, aget,
                     aget2, incomet = income / 10). Decimals are
                     written without a leading zero (``.3945056``). MISSING values are empty cells:
                     linc in 130 rows (income not positive), ldocvis in 392 rows (no visit).
bone_marrow.csv      ``statsmodels/duration/tests/results/bmt.csv``, renamed: Klein and
                     Moeschberger's bone marrow transplant data, 137 patients (columns Group
                     (text with a space and a hyphen: ``ALL``, ``AML-Low Risk``, ``AML-High
                     Risk``), T (days of follow-up), Status (1 = the patient died or relapsed, 0 =
                     still alive without relapse at T)).
pastes.csv           ``statsmodels/regression/tests/results/pastes.csv``: Davies and Goldsmith's
                     paste strength data (the ``Pastes`` data of the R package ``lme4``), a LONG
                     table of 60 rows: two test samples from each of 3 casks (cask ``a``, ``b``,
                     ``c``) of each of 10 batches (``A``-``J``), columns an unnamed, quoted row
                     number, strength, batch, cask and sample (``A:a`` ...), every text quoted.
heart_transplant.csv ``statsmodels/datasets/heart/heart.csv``, renamed: Miller's (1976) Stanford
                     heart transplant data, 69 patients (columns survival (days after the
                     transplant), censors (1 = the patient died at that time, 0 = still alive, a
                     censored time), age), every number written with six decimals (``15.000000``).
google_prices.csv    ``matplotlib/mpl-data/sample_data/goog.npz`` as CSV (see above): Google's
                     daily share prices from its listing on 19 August 2004 to 14 October 2008,
                     1047 trading days (columns date, open, high, low, close, volume, adj_close;
                     no rows for weekends and market holidays).
german_macro.csv     ``statsmodels/tsa/tests/results/lutkepohl2.dta`` as CSV (see above): West
                     German quarterly investment, income and consumption, seasonally adjusted,
                     billions of DM, 1960q1 - 1982q4 (Lutkepohl 1993, table E.1; Stata's
                     ``lutkepohl2``); columns inv, inc, consump, qtr (written ``1960q1``), ln_inv,
                     dln_inv, ln_inc, dln_inc, ln_consump, dln_consump (natural logs and their
                     first differences; the differences are MISSING, empty, in the first quarter).
manufacturing.csv    ``statsmodels/tsa/statespace/tests/results/manufac.dta`` as CSV (see above):
                     US manufacturing, one row per month, January 1972 - December 2008 (columns
                     month, written ``1972m1``, hours (average weekly hours), caputil (capacity
                     utilization, %), lncaputil, lnhours (their natural logs)); Stata's
                     ``manufac``, from FRED.
young_men_wages.csv  ``statsmodels/sandbox/regression/tests/griliches76.dta`` as CSV (see above):
                     Griliches's (1976) wages of 758 young men of the US National Longitudinal
                     Survey, a WIDE table with each man's values at his first interview and again
                     in 1980 in paired columns (the 1980 column has the suffix ``80``): rns/rns80
                     (1 = lives in the South), mrt/mrt80 (1 = married), smsa/smsa80 (1 = lives in
                     a metropolitan area), age/age80, s/s80 (years of schooling), expr/expr80
                     (years of work experience), tenure/tenure80 (years with the employer),
                     lw/lw80 (log wage); and med (mother's years of schooling), iq, kww (score on
                     a knowledge of the world of work test) and year (the year of the first
                     interview, two digits, 66-73).
"""

from __future__ import annotations

import importlib
import io
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd

OUT = Path(__file__).resolve().parent / "tables"

SOURCES = {  # table name -> (package, file inside the package)
    "births.csv": ("statsmodels", "treatment/tests/results/cataneo2.csv"),
    "doctor_visits.csv": ("statsmodels", "sandbox/regression/tests/racd10data_with_transformed.csv"),
    "bone_marrow.csv": ("statsmodels", "duration/tests/results/bmt.csv"),
    "pastes.csv": ("statsmodels", "regression/tests/results/pastes.csv"),
    "heart_transplant.csv": ("statsmodels", "datasets/heart/heart.csv"),
    "google_prices.csv": ("matplotlib", "mpl-data/sample_data/goog.npz"),
    "german_macro.csv": ("statsmodels", "tsa/tests/results/lutkepohl2.dta"),
    "manufacturing.csv": ("statsmodels", "tsa/statespace/tests/results/manufac.dta"),
    "young_men_wages.csv": ("statsmodels", "sandbox/regression/tests/griliches76.dta"),
}
READ_OPTIONS: dict[str, dict] = {}  # every table is read with pandas' defaults


def shipped_path(name: str) -> Path:
    """Where the installed package keeps the source file of table ``name``."""
    package, file = SOURCES[name]
    return Path(importlib.import_module(package).__file__).parent / file


def _shipped(name: str):
    def read() -> bytes:
        return shipped_path(name).read_bytes()

    return read


STATA_DATES = {  # table -> (date column, how Stata displays it)
    "german_macro.csv": ("qtr", "quarter"),
    "manufacturing.csv": ("month", "month"),
}


def _number(value, kind: np.dtype, whole: bool) -> str:
    """One cell of a converted table (see the docstring)."""
    if math.isnan(value):
        return ""
    if whole:
        return str(int(value))
    if kind == np.float32:
        return np.format_float_positional(np.float32(value), unique=True, trim="-")
    return repr(float(value))


def stata_date(day: pd.Timestamp, unit: str) -> str:
    """A quarter as ``1960q1`` or a month as ``1972m1``, as Stata displays them."""
    if unit == "quarter":
        assert day.month in (1, 4, 7, 10) and day.day == 1, day
        return f"{day.year}q{(day.month - 1) // 3 + 1}"
    assert unit == "month" and day.day == 1, day
    return f"{day.year}m{day.month}"


def stata_frame(name: str) -> pd.DataFrame:
    """The shipped .dta file as pandas reads it (dates converted, the stored numeric types kept)."""
    return pd.read_stata(shipped_path(name), convert_dates=True, convert_categoricals=False, preserve_dtypes=True)


def _stata(name: str):
    def read() -> bytes:
        frame = stata_frame(name)
        date_column, unit = STATA_DATES.get(name, (None, None))
        columns = []
        for column in frame.columns:
            series = frame[column]
            if column == date_column:
                assert pd.api.types.is_datetime64_any_dtype(series) and series.notna().all()
                columns.append([stata_date(day, unit) for day in series])
                continue
            assert pd.api.types.is_numeric_dtype(series), column
            values = series.to_numpy(dtype=float)
            present = values[~np.isnan(values)]
            whole = pd.api.types.is_integer_dtype(series) or bool(np.all(present == np.round(present)))
            columns.append([_number(v, series.dtype, whole) for v in values])
        out = io.StringIO()
        out.write(",".join(frame.columns) + "\n")
        for row in zip(*columns):
            out.write(",".join(row) + "\n")
        return out.getvalue().encode("ascii")

    return read


def google_records() -> np.ndarray:
    """The record array inside matplotlib's goog.npz."""
    with np.load(shipped_path("google_prices.csv"), allow_pickle=False) as archive:
        assert archive.files == ["price_data"]
        return archive["price_data"]


def _google() -> bytes:
    records = google_records()
    names = list(records.dtype.names)
    assert names == ["date", "open", "high", "low", "close", "volume", "adj_close"]
    lines = [",".join(names)]
    for rec in records:
        day = str(np.datetime64(rec["date"], "D"))
        prices = [repr(float(rec[k])) for k in ("open", "high", "low", "close")]
        lines.append(",".join([day, *prices, str(int(rec["volume"])), repr(float(rec["adj_close"]))]))
    return ("\n".join(lines) + "\n").encode("ascii")


SHIPPED = {  # written byte for byte
    name: _shipped(name)
    for name in ("births.csv", "doctor_visits.csv", "bone_marrow.csv", "pastes.csv", "heart_transplant.csv")
}
CONVERTED = {  # a simple documented conversion of a binary file (see the docstring)
    "google_prices.csv": _google,
    "german_macro.csv": _stata("german_macro.csv"),
    "manufacturing.csv": _stata("manufacturing.csv"),
    "young_men_wages.csv": _stata("young_men_wages.csv"),
}
TABLES = [*SHIPPED, *CONVERTED]


def read_table(folder: Path, name: str) -> pd.DataFrame:
    """A built table as pandas reads it (used by the test and the labels)."""
    return pd.read_csv(Path(folder) / name, **READ_OPTIONS.get(name, {}))


def build(folder: Path) -> None:
    """Write every table of batch J into ``folder``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name, raw in {**SHIPPED, **CONVERTED}.items():
        (folder / name).write_bytes(raw())


def main(argv: list[str]) -> None:
    folder = Path(argv[0]) if argv else OUT
    build(folder)
    for name in TABLES:
        df = read_table(folder, name)
        print(f"{name}: {df.shape[0]} rows x {df.shape[1]} columns")


if __name__ == "__main__":
    main(sys.argv[1:])
