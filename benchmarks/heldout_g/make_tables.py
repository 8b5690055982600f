"""Build the tables of held-out batch G from data that an installed package ships.

Nothing is downloaded: every table comes from the CSV files bundled inside the installed
``statsmodels`` wheel (``statsmodels/datasets/<name>/``), none of them used by another batch here.
The build is deterministic. No dirt is injected and no table is reshaped. Eight files are written
byte for byte (one of them under a clearer name); one (``modechoice.csv``) is shipped
semicolon-separated and is written here as a plain comma-separated file (semicolons become commas;
no value changes). None of these files ships with a missing cell (none of the candidate datasets
has one); the oddities that are there are the data's own (spelled out below, so a solver knows they
are there on purpose).

    .venv/bin/python benchmarks/heldout_g/make_tables.py            # writes benchmarks/heldout_g/tables/
    .venv/bin/python benchmarks/heldout_g/make_tables.py OUT_DIR    # writes OUT_DIR/ instead

Tables
------
star98.csv        ``datasets/star98/star98.csv`` byte for byte: California STAR test results 1998
                  for 303 unified school districts, a WIDE table of 22 numeric columns: MATHTOT
                  (ninth graders who took the maths test), PR50M (of them, the number scoring above
                  the national median; statsmodels' loader calls these NABOVE and NABOVE + NBELOW),
                  LOWINC, PERASIAN, PERBLACK, PERHISP, PERMINTE (percentages of low-income, Asian,
                  Black, Hispanic students and of minority teachers), AVYRSEXP (mean teacher
                  experience, years), AVSALK (mean teacher salary, $1000s), PERSPENK (per-pupil
                  spending, $1000s), PTRATIO (pupil-teacher ratio), PCTAF, PCTCHRT, PCTYRRND
                  (percentages of students in UC/CSU prep courses, of charter schools, of year-round
                  schools) and eight interaction columns (products of the above). No district name.
scotvote.csv      ``datasets/scotland/scotvote.csv`` byte for byte: the 1997 Scottish referendum
                  on the Parliament's taxation powers, 32 council districts (columns COUNCILDIST
                  (text, words joined by underscores, e.g. ``Eilean_Siar_(Western_Isles)``,
                  ``Scottish_Borders_The``), YES (percent voting yes), COUTAX (council tax, GBP),
                  UNEMPF (female percentage of unemployment benefit claims), MOR (standardized
                  mortality rate, UK = 100), ACT (labour force participation), GDP (regional, so
                  repeated across districts), AGE (percent of children aged 5-15),
                  COUTAX_FEMALEUNEMP (COUTAX x UNEMPF)).
cpunish.csv       ``datasets/cpunish/cpunish.csv`` byte for byte: the 17 US states with at least one
                  execution in 1997 (columns STATE (text, ``South_Carolina`` with an underscore),
                  EXECUTIONS, INCOME (median per-capita income, dollars), PERPOVERTY, PERBLACK
                  (percent), VC100k96 (violent crimes per 100,000 residents, 1996), SOUTH (1 = a
                  southern state), DEGREE (proportion with a college degree)).
committee.csv     ``datasets/committee/committee.csv`` byte for byte: bill assignments to the 20
                  committees of the US House in the first 100 days of the 104th (1995) and 103rd
                  Houses (columns COMMITTEE (text, abbreviated with underscores, e.g.
                  ``Stds_of_Conduct``), BILLS104, SIZE (members), SUBS (subcommittees), STAFF,
                  PRESTIGE (1 = high-prestige committee), BILLS103).
danish_data.csv   ``datasets/danish_data/data.csv`` byte for byte, renamed: Johansen and Juselius's
                  Danish money demand data, 55 quarters 1974Q1-1987Q3 (the last year has three
                  quarters). Columns period (text like ``1974Q1``), lrm (log real money), lry (log
                  real income), lpy (log prices), ibo (bond rate), ide (deposit rate). The file
                  begins with a UTF-8 byte order mark, as shipped.
elec_equip.csv    ``datasets/elec_equip/elec_equip.csv`` byte for byte: Eurostat's monthly turnover
                  index of electrical equipment manufacturing in the euro area, 257 months
                  January 1995 - May 2016 (the last year is incomplete). Columns DATE (text like
                  ``Jan-1-1995``: month abbreviation, day, year) and STS.M.I7.W.TOVT.NS0016.4.000
                  (the index; the column name is Eurostat's series code).
modechoice.csv    ``datasets/modechoice/modechoice.csv`` as comma-separated (see above): Greene and
                  Hensher's 1987 intercity travel mode choice data in LONG form, 840 rows = 210
                  travellers x 4 modes (columns individual, mode (1 air, 2 train, 3 bus, 4 car),
                  choice (1 on the chosen mode's row), ttme (terminal waiting time, minutes, 0 for
                  car), invc (in-vehicle cost, dollars), invt (in-vehicle time, minutes), gc
                  (generalized cost), hinc (household income, $1000s), psize (party size)).
randhie.csv       ``datasets/randhie/randhie.csv`` byte for byte: RAND Health Insurance Experiment
                  subset, 20190 person-years (columns mdvis (outpatient doctor visits), lncoins
                  (ln(coinsurance + 1)), idp (individual deductible plan), lpi, fmde, physlm
                  (physical limitation), disea (chronic diseases), hlthg, hlthf, hlthp (self-rated
                  health good / fair / poor; all three 0 = excellent)). ``physlm`` is 0 or 1 on
                  19138 rows and a fractional (imputed) value such as 0.144292 on the other 1052,
                  as shipped; ``disea`` is fractional on some rows too.
longley.csv       ``datasets/longley/longley.csv`` byte for byte: Longley's (1967) US macroeconomic
                  series, 16 years 1947-1962 (columns Obs (row number), TOTEMP, GNPDEFL, GNP,
                  UNEMP, ARMED, POP, YEAR).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

OUT = Path(__file__).resolve().parent / "tables"


def _shipped_path(folder: str, file: str) -> Path:
    import statsmodels.datasets

    return Path(statsmodels.datasets.__file__).parent / folder / file


def _shipped(folder: str, file: str):
    def read() -> bytes:
        return _shipped_path(folder, file).read_bytes()

    return read


def _modechoice() -> bytes:
    """The semicolon-separated shipped file as comma-separated; nothing else changes."""
    lines = _shipped("modechoice", "modechoice.csv")().decode("ascii").splitlines()
    rows = [line.split(";") for line in lines if line.strip()]
    assert all(len(row) == len(rows[0]) for row in rows)
    assert all("," not in cell for row in rows for cell in row)
    return ("\n".join(",".join(row) for row in rows) + "\n").encode("ascii")


SOURCES = {  # table name -> (statsmodels.datasets folder, shipped file name)
    "star98.csv": ("star98", "star98.csv"),
    "scotvote.csv": ("scotland", "scotvote.csv"),
    "cpunish.csv": ("cpunish", "cpunish.csv"),
    "committee.csv": ("committee", "committee.csv"),
    "danish_data.csv": ("danish_data", "data.csv"),
    "elec_equip.csv": ("elec_equip", "elec_equip.csv"),
    "modechoice.csv": ("modechoice", "modechoice.csv"),
    "randhie.csv": ("randhie", "randhie.csv"),
    "longley.csv": ("longley", "longley.csv"),
}
SHIPPED = {  # written byte for byte
    name: _shipped(*source) for name, source in SOURCES.items() if name != "modechoice.csv"
}
CONVERTED = {  # a simple documented conversion
    "modechoice.csv": _modechoice,
}
TABLES = [*SHIPPED, *CONVERTED]


def build(folder: Path) -> None:
    """Write every table of batch G into ``folder``."""
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
