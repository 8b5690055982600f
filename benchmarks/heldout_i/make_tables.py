"""Build the tables of held-out batch I from data that installed packages ship.

Nothing is downloaded: every table is a data file bundled inside the installed ``statsmodels``
wheel (a main dependency): one of its example datasets (``statsmodels.datasets.engel``) and eight
real data sets it ships as test data for its own test suite (under ``statsmodels/*/tests/results``).
None of them is used by another batch or test here. The build is deterministic: every table is the
shipped file written byte for byte under a plain name. No dirt is injected and no table is
reshaped. The oddities that are there are the data's own (spelled out below, so a solver knows they
are there on purpose).

    .venv/bin/python benchmarks/heldout_i/make_tables.py            # writes benchmarks/heldout_i/tables/
    .venv/bin/python benchmarks/heldout_i/make_tables.py OUT_DIR    # writes OUT_DIR/ instead

Tables
------
dietox.csv           ``statsmodels/regression/tests/results/dietox.csv``: growth of 72 slaughter
                     pigs weighed weekly, a LONG panel with one row per pig and week (columns
                     Weight (kg), Feed (cumulated feed intake, kg), Time (week 1-12), Pig (pig id),
                     Evit (vitamin E dose, 1-3), Cu (copper dose, 1-3), Litter). The header names
                     seven columns but every row has eight fields: the first, unnamed field is a
                     quoted row number ("1", "2", ...), which pandas reads as the index. Feed is
                     MISSING (written ``NA``) in 72 rows.
epil.csv             ``statsmodels/genmod/tests/results/epil.csv``: Thall and Vail's epilepsy trial,
                     59 patients, a LONG table with one row per patient and two-week period (columns
                     an unnamed row number, y (seizures in the period), trt (text: ``placebo`` or
                     ``progabide``), base (seizures in the 8 weeks before the trial), age, V4 (1 for
                     the fourth period), subject (1-59), period (1-4), lbase, lage (centred logs)).
lbw.csv              ``statsmodels/genmod/tests/results/stata_lbw_glm.csv``, renamed: Hosmer and
                     Lemeshow's low birth weight data, 189 births (columns id, low (1 = birth weight
                     under 2500 g), age (mother's age), lwt (mother's weight at her last menstrual
                     period, pounds), race (text: ``white``, ``black``, ``other``), smoke (1 = smoked
                     during pregnancy), ptl (previous premature labours), ht (hypertension), ui
                     (uterine irritability), ftv (physician visits in the first trimester), bwt
                     (birth weight, grams)); rows are not in id order and the file ends with an
                     empty line.
autos.csv            ``statsmodels/gam/tests/results/autos.csv``: the 1985 automobile data, 205
                     cars, many TEXT columns (make, fuel, aspir, doors, style, drive, eng_loc,
                     eng_type, cylinders (written as words), fuel.sys) and numeric ones (symbol
                     (insurance risk rating), loss (normalized losses), wb, length, width, height,
                     weight, eng_cc, bore, stroke, comp.ratio, hp, rpm, city_mpg, hw_mpg, price);
                     two column names contain a full stop. MISSING values are empty cells (loss in
                     41 rows, price, bore, stroke in 4, doors, hp, rpm in 2).
framing.csv          ``statsmodels/stats/tests/results/framing.csv``: Brader, Valentino and Suhay's
                     framing experiment on immigration, 265 respondents (columns an unnamed row
                     number, cond (experimental condition 1-4), anx (text, how anxious), age, educ
                     (text), gender (text), income, emo, p_harm, tone, eth, treat, english (text,
                     opinion on an English-only law), immigr, anti_info, cong_mesg).
housing_starts.csv   ``statsmodels/tsa/holtwinters/tests/results/housing-data.csv``, renamed: US
                     new privately-owned housing units started, thousands of units, not seasonally
                     adjusted, one row per month dated the first of the month (columns DATE,
                     HOUSTNSA), January 1959 - June 2018 (the last year is incomplete).
elec_vic.csv         ``statsmodels/tsa/stl/tests/results/mstl_elec_vic.csv``, renamed: electricity
                     demand of Victoria (Australia), one row per hour (columns ds, written
                     ``2012-01-01 00:00:00``, and y, demand in MW), 1 January - 29 May 2012
                     (3600 hours, 150 whole days).
engel.csv            ``statsmodels/datasets/engel/engel.csv``: Engel's (1857) data on 235 Belgian
                     working-class households (columns income and foodexp, food expenditure, both in
                     Belgian francs per year).
us_macro.csv         ``statsmodels/tsa/statespace/tests/results/frbny_nowcast/Nowcasting/data/US/
                     2016-06-29.csv``, renamed: the New York Fed nowcasting data vintage of 29 June
                     2016, a WIDE table with one column per US macroeconomic series (FRED codes such
                     as PAYEMS (non-farm payrolls, thousands), CPIAUCSL (consumer price index),
                     UNRATE (unemployment rate, %), HOUST (housing starts), INDPRO, GDPC1 (real GDP,
                     quarterly), ...) and one row per month, dates written month/day/two-digit year
                     (``1/1/85`` ... ``6/1/16``). MISSING values everywhere: series start at
                     different dates, quarterly series (GDPC1, ULCNFB, A261RX1Q020SBEA) are filled
                     only in the last month of each quarter, and the last month has almost no
                     values. The file has no newline after its last row.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pandas as pd

OUT = Path(__file__).resolve().parent / "tables"

SOURCES = {  # table name -> (package, file inside the package)
    "dietox.csv": ("statsmodels", "regression/tests/results/dietox.csv"),
    "epil.csv": ("statsmodels", "genmod/tests/results/epil.csv"),
    "lbw.csv": ("statsmodels", "genmod/tests/results/stata_lbw_glm.csv"),
    "autos.csv": ("statsmodels", "gam/tests/results/autos.csv"),
    "framing.csv": ("statsmodels", "stats/tests/results/framing.csv"),
    "housing_starts.csv": ("statsmodels", "tsa/holtwinters/tests/results/housing-data.csv"),
    "elec_vic.csv": ("statsmodels", "tsa/stl/tests/results/mstl_elec_vic.csv"),
    "engel.csv": ("statsmodels", "datasets/engel/engel.csv"),
    "us_macro.csv": ("statsmodels", "tsa/statespace/tests/results/frbny_nowcast/Nowcasting/data/US/2016-06-29.csv"),
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


SHIPPED = {name: _shipped(name) for name in SOURCES}  # written byte for byte
TABLES = [*SHIPPED]


def read_table(folder: Path, name: str) -> pd.DataFrame:
    """A built table as pandas reads it (used by the test and the labels)."""
    return pd.read_csv(Path(folder) / name, **READ_OPTIONS.get(name, {}))


def build(folder: Path) -> None:
    """Write every table of batch I into ``folder``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name, raw in SHIPPED.items():
        (folder / name).write_bytes(raw())


def main(argv: list[str]) -> None:
    folder = Path(argv[0]) if argv else OUT
    build(folder)
    for name in TABLES:
        df = read_table(folder, name)
        print(f"{name}: {df.shape[0]} rows x {df.shape[1]} columns")


if __name__ == "__main__":
    main(sys.argv[1:])
