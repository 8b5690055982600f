"""Build the tables of held-out batch F from data that an installed package ships.

Nothing is downloaded: every table comes from the CSV files bundled inside the installed
``statsmodels`` wheel (``statsmodels/datasets/<name>/``), none of them used by another batch here
(batch D uses ``co2`` and ``fertility``). The build is deterministic. No dirt is injected. Eight
files are written byte for byte; one (``anes96.csv``) is shipped tab-separated with quoted header
names and is written here as a plain comma-separated file (tabs become commas, the single quotes
around the header names are dropped; no value changes). None of these files ships with a missing
cell; the oddities that are there are the data's own (spelled out below, so a solver knows they are
there on purpose).

    .venv/bin/python benchmarks/heldout_f/make_tables.py            # writes benchmarks/heldout_f/tables/
    .venv/bin/python benchmarks/heldout_f/make_tables.py OUT_DIR    # writes OUT_DIR/ instead

Tables
------
macrodata.csv     ``datasets/macrodata/macrodata.csv`` byte for byte: US macroeconomic series,
                  quarterly, 1959Q1-2009Q3 (203 rows; the time axis is two integer columns,
                  ``year`` and ``quarter``; 2009 has only three quarters). Columns year, quarter,
                  realgdp, realcons, realinv, realgovt, realdpi (billions of chained 2005 dollars,
                  seasonally adjusted annual rates), cpi, m1, tbilrate, unemp (unemployment rate,
                  percent), pop, infl, realint.
grunfeld.csv      ``datasets/grunfeld/grunfeld.csv`` byte for byte: Grunfeld's (1950) investment
                  panel, 11 US firms x 20 years 1935-1954 (220 rows, long format; columns invest,
                  value, capital, firm, year; ``firm`` is the firm's name as a string).
elnino.csv        ``datasets/elnino/elnino.csv`` byte for byte: monthly mean sea surface
                  temperature (degrees Celsius, Nino 1+2 region), WIDE: one row per year 1950-2010
                  (61 rows), one column per month ``JAN`` ... ``DEC``.
statecrime.csv    ``datasets/statecrime/statecrime.csv`` byte for byte: 2009 crime and demographic
                  rates for the 50 US states and the District of Columbia (51 rows; columns state,
                  violent, murder, hs_grad, poverty, single, white, urban).
fair.csv          ``datasets/fair/fair.csv`` byte for byte: Fair's (1978) extramarital affairs
                  survey, 6366 married women (columns rate_marriage, age, yrs_married, children,
                  religious, educ, occupation, occupation_husb, affairs; categories coded as
                  numbers; ``yrs_married`` and ``children`` hold interval midpoints such as 0.5 and
                  5.5).
china_smoking.csv ``datasets/china_smoking/china_smoking.csv`` byte for byte: eight 2x2 tables of
                  smoking by lung cancer, one row per Chinese city (columns Location,
                  smoking_yes_cancer_yes, smoking_yes_cancer_no, smoking_no_cancer_yes,
                  smoking_no_cancer_no; the city ``Nanjing`` is spelled ``Nanjng`` as shipped).
sunspots.csv      ``datasets/sunspots/sunspots.csv`` byte for byte: yearly sunspot numbers
                  1700-2008 (309 rows; columns YEAR, SUNACTIVITY).
nile.csv          ``datasets/nile/nile.csv`` byte for byte: annual flow of the Nile at Aswan,
                  1871-1970, in 10^8 cubic metres (100 rows; columns year, volume).
anes96.csv        ``datasets/anes96/anes96.csv`` as comma-separated (see above): 944 respondents of
                  the 1996 American National Election Study (columns popul, TVnews, selfLR,
                  ClinLR, DoleLR, PID, age, educ, income, vote; every column an integer code or
                  count, the codes as documented in statsmodels' ``anes96`` notes: PID 0 = strong
                  Democrat ... 6 = strong Republican, the three ``LR`` scales 1 = extremely liberal
                  ... 7 = extremely conservative, vote 0 = Clinton, 1 = Dole).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

OUT = Path(__file__).resolve().parent / "tables"


def _shipped(folder: str, file: str):
    def read() -> bytes:
        import statsmodels.datasets

        return (Path(statsmodels.datasets.__file__).parent / folder / file).read_bytes()

    return read


def _anes96() -> bytes:
    """The tab-separated shipped file as comma-separated; header names without their quotes."""
    lines = _shipped("anes96", "anes96.csv")().decode("ascii").splitlines()
    header = [name.strip("'") for name in lines[0].split("\t")]
    rows = [line.split("\t") for line in lines[1:] if line.strip()]
    assert all(len(row) == len(header) for row in rows)
    assert all("," not in cell for row in rows for cell in row)
    return ("\n".join(",".join(row) for row in [header, *rows]) + "\n").encode("ascii")


SHIPPED = {  # written byte for byte
    "macrodata.csv": _shipped("macrodata", "macrodata.csv"),
    "grunfeld.csv": _shipped("grunfeld", "grunfeld.csv"),
    "elnino.csv": _shipped("elnino", "elnino.csv"),
    "statecrime.csv": _shipped("statecrime", "statecrime.csv"),
    "fair.csv": _shipped("fair", "fair.csv"),
    "china_smoking.csv": _shipped("china_smoking", "china_smoking.csv"),
    "sunspots.csv": _shipped("sunspots", "sunspots.csv"),
    "nile.csv": _shipped("nile", "nile.csv"),
}
CONVERTED = {  # a simple documented conversion
    "anes96.csv": _anes96,
}
TABLES = [*SHIPPED, *CONVERTED]


def build(folder: Path) -> None:
    """Write every table of batch F into ``folder``."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name, raw in {**SHIPPED, **CONVERTED}.items():
        (folder / name).write_bytes(raw())


def main(argv: list[str]) -> None:
    folder = Path(argv[0]) if argv else OUT
    build(folder)
    for name in TABLES:
        df = pd.read_csv(folder / name)
        print(f"{name}: {df.shape[0]} rows x {df.shape[1]} columns")


if __name__ == "__main__":
    main(sys.argv[1:])
