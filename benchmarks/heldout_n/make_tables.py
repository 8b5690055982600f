"""Build the tables of held-out batch N from data that installed packages ship.

Nothing is downloaded: every table is a data file bundled inside an installed wheel, ``statsmodels``
and ``scikit-learn`` (main dependencies) and ``altair`` (installed as a dependency of ``streamlit``,
a main dependency): one of the Lütkepohl time-series files statsmodels ships for its VAR tests,
three web pages (HTML) statsmodels ships beside its ``scotland`` data set (two tables come from one
of them), the Titanic passenger list scikit-learn ships as a test copy of an OpenML file (ARFF,
gzip-compressed), scikit-learn's Linnerud data (two blank-separated files) and the catalogue of the
Vega data sets altair ships (gzip-compressed CSV). None of them is used by another batch or test
here; the web pages' tables are other tables than the two pages of the same folder earlier batches
used, and than the ones statsmodels' ``scotvote`` data set was built from. The build is
deterministic. Every table ships in another layout than a plain CSV file and is written as
comma-separated text by a simple documented conversion that changes no value (see ``CONVERTERS``
below). No dirt is injected and no value is changed. The oddities that are there are the data's
own (spelled out below, so a solver knows they are there on purpose).

    .venv/bin/python benchmarks/heldout_n/make_tables.py            # writes benchmarks/heldout_n/tables/
    .venv/bin/python benchmarks/heldout_n/make_tables.py OUT_DIR    # writes OUT_DIR/ instead

Conversion of the other layouts
-------------------------------
Every converted table is written with ``\\n`` line ends, the last line too, fields separated by
commas and quoted (double quotes) only where a field holds a comma or a quote (Python's ``csv``
module, minimal quoting); every value is copied as the text the source writes.

- ``titanic_passengers.csv``: the shipped file is gzip-compressed ARFF (``@attribute`` lines
  naming the columns in single quotes, then ``@data`` and one comma-separated line per passenger,
  text values in double quotes). The header is the attribute names without their quotes; each
  data line is one row, its values without their double quotes and ARFF's missing-value mark ``?``
  (never quoted in this file) written as an empty cell.
- ``linnerud_fitness.csv``: scikit-learn ships the Linnerud data as two blank-separated files of
  20 lines under a header, ``linnerud_exercise.csv`` (Chins, Situps, Jumps) and
  ``linnerud_physiological.csv`` (Weight, Waist, Pulse), line k of one file and line k of the
  other being the same man. The two are written side by side, exercise columns first.
- ``us_investment_quarterly.csv``: the shipped file is one of Lütkepohl's text data files, a
  ``/* ... */`` comment, a start mark ``<1947 Q1>``, a header line ``y1 y2`` and one
  blank-separated line per quarter. The columns are written as the file writes them, after a
  first column ``quarter`` that names each line's quarter, counted on from the start mark and
  written ``1947Q1``, ``1947Q2``, ...
- ``scotland_vital_statistics.csv``, ``scotland_education.csv``: the shipped files are web pages
  (HTML) from the ONS's "Regional Trends 33" (1998) dataset viewer, each with one data table (after
  the word "Table"), a row of measure names above one row per area. The header is ``Area`` (the
  page leaves that corner empty) and the measure names; each row is the area and its values, every
  cell as the page writes it (``..``, ``-``), except that footnote marks (the page's ``<SUP>``
  digits, after a measure name or an area) are left out.
- ``scottish_manufactured_exports.csv``, ``scottish_export_destinations.csv``: the shipped file is
  a web page (HTML, UTF-8), the Scottish Economic Bulletin's review of March 1998. Its "Table 3: Top
  Exporting Sectors in Scotland, 1996" and "Table 4: Destination of Scottish Exports in 1996" are
  written each with its own header row and its rows, every cell as the page writes it (tags left
  out, blanks at the ends trimmed, entities read: ``&amp;`` as ``&``, ``&pound;`` as ``£`` and
  ``&nbsp;`` as a blank; ``Other  sectors`` keeps the two blanks the page writes); the tables'
  empty spacer rows are left out. Table 4 leaves its first header cell empty; it is named
  ``Destination``.
- ``vega_dataset_catalog.csv``: the shipped file is a gzip-compressed CSV file; it is written
  decompressed, byte for byte.

Tables
------
titanic_passengers.csv
                     ``sklearn/datasets/tests/data/openml/id_40945/data-v1-dl-16826755.arff.gz`` as CSV
                     (see above): the Titanic passenger list (OpenML data set 40945, from the
                     Encyclopedia Titanica data Thomas Cason compiled), 1309 passengers, no crew:
                     pclass (ticket class 1-3), survived (1 yes, 0 no), name (TEXT ``Surname,
                     Title. Given names``, quoted since it holds a comma), sex (``female``,
                     ``male``), age (years; infants' ages are fractions such as ``0.9167``), sibsp
                     (siblings and spouses aboard), parch (parents and children aboard), ticket (TEXT
                     ticket number, shared by travelling parties: ``PC 17609``, ``113781``), fare
                     (pounds, the ticket's whole fare, written as given: ``211.3375``, ``0`` for some),
                     cabin (TEXT, one or several cabins: ``C22 C26``), embarked (port: ``C``
                     Cherbourg, ``Q`` Queenstown, ``S`` Southampton), boat (TEXT lifeboat: ``2``,
                     ``D``, ``13 15``), body (the body identification number of victims recovered)
                     and home.dest (TEXT home or destination). MISSING values are empty cells: many
                     ages, most cabins, two ports, one fare, boats and bodies for most passengers and
                     many home.dest.
linnerud_fitness.csv scikit-learn's ``sklearn/datasets/data/linnerud_exercise.csv`` and
                     ``linnerud_physiological.csv`` side by side (see above): the Linnerud data
                     (Tenenhaus 1998), 20 middle-aged men in a fitness club: Chins (chin-ups), Situps,
                     Jumps (jumping jacks), Weight (pounds), Waist (inches), Pulse (beats per
                     minute). No header line names the man; rows are in the files' order.
us_investment_quarterly.csv
                     ``statsmodels/tsa/vector_ar/tests/results/e2.dat`` as CSV (see above): quarterly,
                     seasonally adjusted US data, 1947 Q1 - 1972 Q4 (104 quarters; the file's comment
                     names the source: US Department of Commerce, Bureau of Economic Analysis, The
                     National Income and Product Accounts of the United States, 1929-1974; billions of
                     dollars): quarter (TEXT ``1947Q1``), y1 (fixed investment), y2 (change in
                     business inventories; it can be negative). The data set E2 of Lütkepohl's
                     *New Introduction to Multiple Time Series Analysis*.
scotland_vital_statistics.csv
                     ``statsmodels/datasets/scotland/src/scotland_births.html`` as CSV (see above):
                     "Vital and social statistics: Scotland" (ONS, General Register Office for
                     Scotland; Regional Trends 33, 1998), 34 rows: Area (TEXT: ``United Kingdom`` and
                     ``Scotland``, TOTAL rows, then the 32 council areas, named as the page names
                     them, e.g. ``Edinburgh, City of``, ``Scottish Borders, The``, ``Eilean Siar
                     (Western Isles)``), then five measures named as the page names them: live births
                     and deaths per 1,000 population (1996), the perinatal and infant mortality rates
                     (3-year averages 1994-1996; the page warns that some council areas' rates rest
                     on fewer than 20 deaths) and the percentage of live births outside marriage
                     (1996).
scotland_education.csv
                     ``statsmodels/datasets/scotland/src/scotland_education.html`` as CSV (see
                     above): "Education and training: Scotland" (Regional Trends 33, 1998), 34 rows,
                     the same areas as above, then eight measures named as the page names them (day
                     nursery places per 1,000 children under 5, the percentage of under-5s in
                     education, the pupil/teacher ratios of primary and secondary schools,
                     participation in post-compulsory education (percent; some areas above 100 since
                     short courses are counted for each course), the percentages of pupils leaving
                     compulsory school with no graded results and with 5 or more Standard Grades 1-3,
                     and the percentage of employees receiving job-related training). MISSING values
                     are written ``..`` (not available); one value is written ``-`` (negligible, less
                     than half the final digit shown).
scottish_manufactured_exports.csv
                     ``statsmodels/datasets/scotland/src/scotland_econ_summary.html`` as CSV (see
                     above): "Top Exporting Sectors in Scotland, 1996" (Scottish Council Development
                     and Industry's survey of manufactured exports), 12 rows: Sector (SIC92) (TEXT:
                     ten sectors, then ``Other sectors`` and the TOTAL row ``All Manufacturing
                     Industries``; the whisky sector's name is run together with the end of the
                     previous one as the page writes it, ``Equipment and Apparatus Whisky``), Value at
                     current prices (£ million) (TEXT numbers with thousands separators,
                     ``6,825.0``), Per cent of Total, Nominal increase in value 1995-96: per cent and
                     Contribution to total export growth: per cent (negative for falls).
vega_dataset_catalog.csv
                     ``altair/datasets/_metadata/metadata.csv.gz``, decompressed: the catalogue of the
                     72 data files of the ``vega-datasets`` collection (version 3.2.1) altair can
                     load: dataset_name (TEXT), suffix (``.csv``, ``.json``, ``.png``, ...), file_name,
                     bytes (the file's size), the flags is_image, is_tabular, is_geo, is_topo,
                     is_spatial, is_json, has_schema (written ``true``/``false``), sha (a hash) and url.
scottish_export_destinations.csv
                     ``statsmodels/datasets/scotland/src/scotland_econ_summary.html`` as CSV (see
                     above): "Destination of Scottish Exports in 1996" (Scottish Council Development
                     and Industry), 10 rows, no total row: Destination (TEXT: ``European Union``,
                     ``North America``, ``Other Asia Pacific``, ``EFTA``, ``Japan``, ...), the value
                     (TEXT numbers with thousands separators, ``10,756``, £ million at current prices;
                     its header is written ``Value (\ufffd million, current prices)``, with the
                     Unicode replacement character where the page lost its pound sign), Per cent of
                     total, Nominal percentage growth in 1996 (negative for falls) and Contribution to
                     overall growth: per cent.
"""

from __future__ import annotations

import csv
import gzip
import html
import io
import re
import sys
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
import heldout_common  # noqa: E402

OUT = Path(__file__).resolve().parent / "tables"
READ_OPTIONS: dict[str, dict] = {}  # pandas' defaults read every table
SCOTLAND = "datasets/scotland/src"

SOURCES = {  # table name -> (package, file inside the package)
    "titanic_passengers.csv": ("sklearn", "datasets/tests/data/openml/id_40945/data-v1-dl-16826755.arff.gz"),
    "linnerud_fitness.csv": ("sklearn", "datasets/data/linnerud_exercise.csv"),
    "us_investment_quarterly.csv": ("statsmodels", "tsa/vector_ar/tests/results/e2.dat"),
    "scotland_vital_statistics.csv": ("statsmodels", f"{SCOTLAND}/scotland_births.html"),
    "scotland_education.csv": ("statsmodels", f"{SCOTLAND}/scotland_education.html"),
    "scottish_manufactured_exports.csv": ("statsmodels", f"{SCOTLAND}/scotland_econ_summary.html"),
    "scottish_export_destinations.csv": ("statsmodels", f"{SCOTLAND}/scotland_econ_summary.html"),
    "vega_dataset_catalog.csv": ("altair", "datasets/_metadata/metadata.csv.gz"),
}
PARTNER = {"linnerud_fitness.csv": "linnerud_physiological.csv"}  # a second file beside the source

ROWS = {  # converted table -> data rows it must hold
    "titanic_passengers.csv": 1309,
    "linnerud_fitness.csv": 20,
    "us_investment_quarterly.csv": 104,
    "scotland_vital_statistics.csv": 34,
    "scotland_education.csv": 34,
    "scottish_manufactured_exports.csv": 12,
    "scottish_export_destinations.csv": 10,
    "vega_dataset_catalog.csv": 72,
}
shipped_path = heldout_common.shipped_files(SOURCES)  # table name -> its source file in the package


def _write(rows: list[list[str]]) -> bytes:
    """``rows`` written as CSV: minimal quoting, ``\\n`` line ends, UTF-8."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue().encode("utf-8")


def titanic_csv(name: str) -> bytes:
    """The passenger ARFF file as CSV: attribute names unquoted, then the rows (``?`` as empty)."""
    text = gzip.decompress(shipped_path(name).read_bytes()).decode("utf-8")
    head, body = re.split(r"^@data\s*$", text, flags=re.I | re.M)
    names = re.findall(r"^@attribute\s+'([^']+)'", head, flags=re.I | re.M)
    passengers = [[cell if cell != "?" else "" for cell in row]
                  for row in csv.reader(line for line in body.splitlines() if line.strip())]
    assert len(names) == 14 and {len(row) for row in passengers} == {14}, name
    return _write([names, *passengers])


def linnerud_csv(name: str) -> bytes:
    """The two blank-separated Linnerud files side by side, line by line."""
    first = shipped_path(name)
    halves = [[line.split() for line in path.read_text(encoding="ascii").splitlines() if line.strip()]
              for path in (first, first.with_name(PARTNER[name]))]
    assert len(halves[0]) == len(halves[1]) == 21, name
    return _write([left + right for left, right in zip(*halves)])


def lutkepohl_quarters_csv(name: str) -> bytes:
    """A Lütkepohl data file: its columns after a ``quarter`` column counted on from ``<YYYY Qn>``."""
    text = shipped_path(name).read_text(encoding="ascii")
    text = text[text.index("*/") + 2:]
    year, quarter = map(int, re.search(r"<(\d{4}) Q([1-4])>", text).groups())
    header, *lines = [line.split() for line in text[text.index(">") + 1:].splitlines() if line.strip()]
    out = [["quarter", *header]]
    for k, values in enumerate(lines):
        q = quarter - 1 + k
        out.append([f"{year + q // 4}Q{q % 4 + 1}", *values])
    assert {len(row) for row in out} == {len(header) + 1}, name
    return _write(out)


def _cell_text(cell: str) -> str:
    """A table cell's text: footnote marks (``<SUP>``) and other tags dropped, entities read (a
    no-break space as a blank), blanks at the ends trimmed."""
    cell = re.sub(r"<SUP>.*?</SUP>", "", cell, flags=re.I | re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", cell)).replace("\xa0", " ").strip()


def regional_trends_csv(name: str) -> bytes:
    """The data table of a Regional Trends dataset-viewer page: measures above one row per area."""
    page = shipped_path(name).read_text(encoding="utf-8")
    table = page[page.index("<strong>Table</strong>"):]
    table = table[:table.upper().index("</TABLE>")]
    rows = [[_cell_text(cell) for cell in re.findall(r"<TD[^>]*>(.*?)</TD>", row, flags=re.I | re.S)]
            for row in re.split(r"<TR>", table, flags=re.I)[1:]]
    assert rows[0][0] == "" and {len(row) for row in rows} == {len(rows[0])}, name
    return _write([["Area", *rows[0][1:]], *rows[1:]])


BULLETIN_TABLES = {  # table name -> (number of the page's table, name given to an empty first header cell)
    "scottish_manufactured_exports.csv": (3, None),
    "scottish_export_destinations.csv": (4, "Destination"),
}


def bulletin_table_csv(name: str) -> bytes:
    """A numbered table of the economic bulletin page: its header row and its rows, empty spacer rows
    left out."""
    number, corner = BULLETIN_TABLES[name]
    page = shipped_path(name).read_text(encoding="utf-8")
    table = page[page.index(f"<b>Table {number}:"):]
    table = table[:table.upper().index("</TABLE>")]
    rows = [[_cell_text(cell) for cell in re.findall(r"<T[HD][^>]*>(.*?)</T[HD]>", row, flags=re.I | re.S)]
            for row in re.findall(r"<TR[^>]*>(.*?)</TR>", table, flags=re.I | re.S)]
    kept = [row for row in rows if any(row)]
    assert {len(row) for row in kept} == {5} and bool(kept[0][0]) == (corner is None), name
    return _write([[kept[0][0] or corner, *kept[0][1:]], *kept[1:]])


def gunzipped(name: str) -> bytes:
    """A gzip-compressed file's bytes, decompressed."""
    return gzip.decompress(shipped_path(name).read_bytes())


SHIPPED: tuple[str, ...] = ()  # none is written byte for byte
CONVERTERS = {  # the rest: a simple documented conversion (see the docstring)
    "titanic_passengers.csv": titanic_csv,
    "linnerud_fitness.csv": linnerud_csv,
    "us_investment_quarterly.csv": lutkepohl_quarters_csv,
    "scotland_vital_statistics.csv": regional_trends_csv,
    "scotland_education.csv": regional_trends_csv,
    **dict.fromkeys(BULLETIN_TABLES, bulletin_table_csv),
    "vega_dataset_catalog.csv": gunzipped,
}
CONVERTED = tuple(CONVERTERS)
TABLES = [*SHIPPED, *CONVERTED]
table_bytes, build = heldout_common.table_writers(shipped_path, CONVERTERS, ROWS, TABLES)

if __name__ == "__main__":
    heldout_common.build_command(sys.argv[1:], OUT, build, TABLES, READ_OPTIONS)
