"""Build the tables of held-out batch M from data that installed packages ship.

Nothing is downloaded: every table is a data file bundled inside an installed wheel, ``statsmodels``,
``scipy`` and ``scikit-learn`` (main dependencies) and ``pyspark`` (a development dependency, for
the scale tests): four real data sets scikit-learn ships as test copies of OpenML files (ARFF,
gzip-compressed), four files statsmodels ships (a data set's raw source files, a web page, test
data), one of NIST's Statistical Reference Datasets that scipy ships for its tests, and the AFINN
word list pyspark ships for its streaming example. None of them is used by another batch or test
here. The build is deterministic. One table is the shipped CSV file written byte for byte under a
plain name. Nine ship in other layouts and are written as comma-separated text by a simple
documented conversion that changes no value (see ``CONVERTERS`` below). No dirt is injected and no
value is changed. The oddities that are there are the data's own (spelled out below, so a solver
knows they are there on purpose).

    .venv/bin/python benchmarks/heldout_m/make_tables.py            # writes benchmarks/heldout_m/tables/
    .venv/bin/python benchmarks/heldout_m/make_tables.py OUT_DIR    # writes OUT_DIR/ instead

Conversion of the other layouts
-------------------------------
Every converted table is written with ``\\n`` line ends, the last line too, fields separated by
commas and quoted (double quotes) only where a field holds a comma or a quote (Python's ``csv``
module, minimal quoting); every value is copied as the text the source writes.

- ``penguins.csv``, ``cpu_performance.csv``, ``zoo_animals.csv``, ``glass_fragments.csv``: the
  shipped files are gzip-compressed ARFF (``@attribute`` lines naming the columns, then ``@data``
  and one comma-separated line per row). The header is the attribute names in order; each data line
  is one row, its quoted values without their quotes and ARFF's missing-value mark ``?`` written as
  an empty cell. Comment (``%``) and blank lines are left out.
- ``sunspots_monthly.csv``: the shipped file is a blank-separated text table between two dashed
  rules (a title before, a note after), a blank line after every fifth year. The header line
  (``Year Jan ... Dec``) and every number are written as the file writes them; the last year, which
  stops in June, gets empty cells for July to December.
- ``us_unemployment.csv``: the shipped file is a Bureau of Labor Statistics export, a preamble of
  ``Name: value`` lines, then the table. The table's lines are written as the file writes them,
  except that the empty field the header ends with (a trailing comma) is dropped.
- ``devolution_referendum.csv``: the shipped file is a web page (HTML) with the results of the 1997
  Scottish devolution referendum. Its section "Votes by Unitary Authority" holds one table for each
  of the two questions, under a heading with the question's wording. The two tables are written one
  after the other under one header, ``Question`` (the heading's text) then the table's own column
  names, every cell as the page writes it (``44,619``, ``60.7 %``). The page's other tables (the
  national totals and the 1979 results by region) are left out.
- ``silicon_resistivity.csv``: the shipped file is blank-separated text, a long description, then a
  line ``Data:`` with the column names and one line per observation. The names and every number are
  written comma-separated as the file writes them.
- ``afinn_word_scores.csv``: the shipped file is UTF-8 text, one word or phrase and its score a
  line, separated by a tab, with no header. A header ``word,score`` is added; the lines are written
  as the file writes them (the table is UTF-8 too).

Tables
------
penguins.csv         ``sklearn/datasets/tests/data/openml/id_42585/data-v1-dl-21854866.arff.gz``
                     as CSV (see above): the Palmer penguins data (Gorman, Williams and Fraser 2014,
                     Palmer Station Antarctica LTER; OpenML data set 42585), 344 penguins:
                     species (TEXT: ``Adelie``, ``Chinstrap``, ``Gentoo``), island (``Biscoe``,
                     ``Dream``, ``Torgersen``), culmen_length_mm, culmen_depth_mm,
                     flipper_length_mm, body_mass_g, sex (``MALE``, ``FEMALE``, and one penguin
                     written ``_``). MISSING values are empty cells: two penguins have no
                     measurements at all, and several have no sex.
cpu_performance.csv  ``sklearn/datasets/tests/data/openml/id_561/data-v1-dl-52739.arff.gz`` as CSV
                     (see above): Ein-Dor and Feldmesser's relative CPU performance data (1987, UCI;
                     OpenML data set 561), 209 computer models: vendor (TEXT, lower case, e.g.
                     ``ibm``, ``c.r.d``, ``four-phase``), MYCT (machine cycle time, nanoseconds),
                     MMIN and MMAX (minimum and maximum main memory, kilobytes), CACH (cache memory,
                     kilobytes), CHMIN and CHMAX (minimum and maximum channels), class (the published
                     relative performance). Several models appear more than once with the same
                     values.
zoo_animals.csv      ``sklearn/datasets/tests/data/openml/id_62/data-v1-dl-52352.arff.gz`` as CSV
                     (see above): Forsyth's zoo data (UCI; OpenML data set 62), 101 animals: animal
                     (TEXT name; ``frog`` appears twice, two different frogs), fifteen traits written
                     ``true``/``false`` (hair, feathers, eggs, milk, airborne, aquatic, predator,
                     toothed, backbone, breathes, venomous, fins, tail, domestic, catsize), legs (a
                     count) and type (TEXT: mammal, bird, reptile, fish, amphibian, insect,
                     invertebrate).
glass_fragments.csv  ``sklearn/datasets/tests/data/openml/id_40675/data-v1-dl-4965250.arff.gz`` as
                     CSV (see above): the forensic glass data (USA Forensic Science Service, UCI)
                     restricted to its two building-window classes (OpenML data set 40675,
                     ``glass2``), 163 fragments: Refractive_Index, the weight percent of eight oxides
                     named by their element (Sodium, Magnesium, Aluminum, Silicon, Potassium,
                     Calcium, Barium, Iron) and class (0 or 1, the two window types).
sunspots_monthly.csv ``statsmodels/datasets/sunspots/src/sunspots_monthly.dat`` as CSV (see above):
                     monthly mean sunspot numbers, 1749 - June 2009, a WIDE table of 261 years and
                     13 columns: Year, then Jan ... Dec. MISSING values are empty cells: July to
                     December 2009. The source notes that February 1824 had no observations (its
                     value is interpolated) and that values after December 2008 are preliminary.
us_unemployment.csv  ``statsmodels/datasets/macrodata/src/unemp.csv`` as CSV (see above): the US
                     unemployment rate (percent, seasonally adjusted, quarterly averages; BLS series
                     ``LNS14000000Q``), 1959 Q1 - 2009 Q3, 203 rows: Series id (the same code on
                     every row), Year, Period (TEXT quarter code ``Q01`` ... ``Q04``), Value.
devolution_referendum.csv
                     ``statsmodels/datasets/scotland/src/scotland_devolution.html`` as CSV (see
                     above): the 1997 Scottish devolution referendum, votes by council area for both
                     questions, 66 rows: Question (TEXT: ``I agree that there should be a Scottish
                     Parliament`` or ``I agree that a Scottish Parliament should have tax-varying
                     powers``), Authority (TEXT: 32 council areas as the page names them, e.g.
                     ``Dumfries & Galloway``, ``Glasgow``, and a TOTAL row ``Scotland`` for each
                     question), Yes votes and No votes (TEXT numbers with thousands separators,
                     ``44,619``), Yes % and No % (TEXT percentages with a blank and a percent sign,
                     ``60.7 %``; one cell lacks the sign, ``30.8``).
silicon_resistivity.csv
                     ``scipy/stats/tests/data/nist_anova/SiRstv.dat`` as CSV (see above): NIST's StRD
                     analysis-of-variance data set SiRstv (Ehrstein and Croarkin, the resistivity of
                     a silicon wafer measured with five probe instruments), 25 rows: Instrument (1-5,
                     five measurements each), Resistance (ohm-cm, written with 4 decimals).
afinn_word_scores.csv
                     ``pyspark/data/streaming/AFINN-111.txt`` as CSV (see above): Finn Aarup
                     Nielsen's AFINN-111 sentiment word list, 2477 English words and phrases, each
                     rated from -5 (very negative) to +5 (very positive): word (TEXT, lower case;
                     some entries are phrases with blanks, ``does not work``, and one has a
                     non-ASCII letter), score (an integer; one entry,
                     ``some kind``, is scored 0).
within_subject_scores.csv
                     ``statsmodels/stats/tests/results/anova-rm-test-data.csv``, renamed: the data
                     statsmodels checks its repeated-measures ANOVA with against R's ``ez``
                     package, 96 rows, a LONG table of 8 subjects, each measured once in every
                     combination of three within-subject factors: a first column with an EMPTY name
                     (the row number 0-95, written by pandas), id (the subject, 1-8), A (``a``,
                     ``b``), B (``a``, ``b``, ``c``), D (``a``, ``b``) and DV (the measured score, a
                     whole number).
"""

from __future__ import annotations

import csv
import gzip
import io
import re
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
import heldout_common  # noqa: E402

OUT = Path(__file__).resolve().parent / "tables"
OPENML = "datasets/tests/data/openml"
READ_OPTIONS: dict[str, dict] = {}  # pandas' defaults read every table

SOURCES = {  # table name -> (package, file inside the package)
    "penguins.csv": ("sklearn", f"{OPENML}/id_42585/data-v1-dl-21854866.arff.gz"),
    "cpu_performance.csv": ("sklearn", f"{OPENML}/id_561/data-v1-dl-52739.arff.gz"),
    "zoo_animals.csv": ("sklearn", f"{OPENML}/id_62/data-v1-dl-52352.arff.gz"),
    "glass_fragments.csv": ("sklearn", f"{OPENML}/id_40675/data-v1-dl-4965250.arff.gz"),
    "sunspots_monthly.csv": ("statsmodels", "datasets/sunspots/src/sunspots_monthly.dat"),
    "us_unemployment.csv": ("statsmodels", "datasets/macrodata/src/unemp.csv"),
    "devolution_referendum.csv": ("statsmodels", "datasets/scotland/src/scotland_devolution.html"),
    "silicon_resistivity.csv": ("scipy", "stats/tests/data/nist_anova/SiRstv.dat"),
    "afinn_word_scores.csv": ("pyspark", "data/streaming/AFINN-111.txt"),
    "within_subject_scores.csv": ("statsmodels", "stats/tests/results/anova-rm-test-data.csv"),
}

ROWS = {  # converted table -> data rows it must hold
    "penguins.csv": 344,
    "cpu_performance.csv": 209,
    "zoo_animals.csv": 101,
    "glass_fragments.csv": 163,
    "sunspots_monthly.csv": 261,
    "us_unemployment.csv": 203,
    "devolution_referendum.csv": 66,
    "silicon_resistivity.csv": 25,
    "afinn_word_scores.csv": 2477,
}
shipped_path = heldout_common.shipped_files(SOURCES)  # table name -> its source file in the package


def _csv(rows: list[list[str]]) -> bytes:
    """``rows`` as CSV text: minimal quoting, ``\\n`` line ends, UTF-8."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue().encode("utf-8")


def arff_csv(name: str) -> bytes:
    """A gzip-compressed ARFF file as CSV: attribute names, then the data rows (``?`` as empty)."""
    lines = gzip.decompress(shipped_path(name).read_bytes()).decode("utf-8").splitlines()
    kept = [line.strip() for line in lines if line.strip() and not line.startswith("%")]
    data_at = next(i for i, line in enumerate(kept) if line.lower() == "@data")
    header = [re.match(r"@attribute\s+'?([^'\s]+)'?\s", line, re.I).group(1)
              for line in kept[:data_at] if line.lower().startswith("@attribute")]
    rows = list(csv.reader(kept[data_at + 1:], skipinitialspace=True))
    assert all(len(row) == len(header) for row in rows), name
    return _csv([header, *([("" if cell == "?" else cell) for cell in row] for row in rows)])


def sunspot_table_csv(name: str) -> bytes:
    """The table between the dashed rules of the monthly sunspot file, the last year padded."""
    lines = shipped_path(name).read_text(encoding="ascii").splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("-----")]
    assert len(rules) == 2 and lines[rules[0] - 1].split()[0] == "Year", name
    header = lines[rules[0] - 1].split()
    rows = [line.split() for line in lines[rules[0] + 1:rules[1]] if line.strip()]
    assert all(len(row) == len(header) for row in rows[:-1]) and len(rows[-1]) < len(header), name
    return _csv([header, *(row + [""] * (len(header) - len(row)) for row in rows)])


def bls_table_csv(name: str) -> bytes:
    """The table of a BLS export: its lines from the ``Series id`` header on, blank lines left out."""
    lines = shipped_path(name).read_text(encoding="ascii").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Series id,"))
    header, *rows = [line for line in lines[start:] if line.strip()]
    assert header.endswith(",") and all(row.count(",") == header.count(",") - 1 for row in rows), name
    return ("\n".join([header[:-1], *rows]) + "\n").encode("ascii")


def referendum_csv(name: str) -> bytes:
    """The two tables of the page's "Votes by Unitary Authority" section, each row led by its
    question (the heading above its table)."""
    page = shipped_path(name).read_text(encoding="ascii")
    section = page[page.index("<H2>Votes by Unitary Authority</H2>"):]
    section = section[:section.index("<HR>")]
    out: list[list[str]] = []
    for question, table in re.findall(r"<H3>(.*?)</H3>(.*?)</table>", section, re.S | re.I):
        head, *rows = [re.findall(r"<T[HD]>(.*?)</T[HD]>", row, re.I)
                       for row in re.findall(r"<TR[^>]*>(.*?)</TR>", table, re.S | re.I)]
        out = out or [["Question", *head]]
        assert out[0] == ["Question", *head] and all(len(row) == len(head) for row in rows), name
        out += [[question.strip(), *row] for row in rows]
    return _csv(out)


def nist_table_csv(name: str) -> bytes:
    """A NIST StRD file's table: the names after its last ``Data:`` and the lines below, comma-separated."""
    lines = shipped_path(name).read_text(encoding="ascii").splitlines()
    at = max(i for i, line in enumerate(lines) if line.startswith("Data:"))
    table = [lines[at].split()[1:], *(line.split() for line in lines[at + 1:] if line.strip())]
    assert all(len(row) == len(table[0]) for row in table), name
    return _csv(table)


def tab_list_csv(name: str) -> bytes:
    """A tab-separated word list without header as CSV under ``word,score``."""
    rows = [line.split("\t") for line in shipped_path(name).read_text(encoding="utf-8").splitlines()]
    assert all(len(row) == 2 and row[1].lstrip("-").isdigit() for row in rows), name
    return _csv([["word", "score"], *rows])


SHIPPED = ("within_subject_scores.csv",)  # written byte for byte
CONVERTERS = {  # the rest: a simple documented conversion (see the docstring)
    **dict.fromkeys(("penguins.csv", "cpu_performance.csv", "zoo_animals.csv", "glass_fragments.csv"), arff_csv),
    "sunspots_monthly.csv": sunspot_table_csv,
    "us_unemployment.csv": bls_table_csv,
    "devolution_referendum.csv": referendum_csv,
    "silicon_resistivity.csv": nist_table_csv,
    "afinn_word_scores.csv": tab_list_csv,
}
CONVERTED = tuple(CONVERTERS)
TABLES = [*SHIPPED, *CONVERTED]
table_bytes, build = heldout_common.table_writers(shipped_path, CONVERTERS, ROWS, TABLES)

if __name__ == "__main__":
    heldout_common.build_command(sys.argv[1:], OUT, build, TABLES, READ_OPTIONS)
