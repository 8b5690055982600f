"""Build the tables of held-out batch O from data that installed packages ship.

Nothing is downloaded: every table is a data file bundled inside an installed wheel, ``statsmodels``
(a main dependency), ``tzdata`` (installed with ``python-dateutil``, which pandas needs) and
``certifi`` (installed with ``httpx`` and ``requests``): two web pages (HTML) statsmodels ships
beside its ``scotland`` data set, the text data file statsmodels ships for its tests of Clark's
(1989) model of US GDP, two tables of the IANA time zone database tzdata ships (``zone.tab`` and
``leapseconds``) and the bundle of root certificates certifi ships (``cacert.pem``). None of them is used by another batch or test here; the web pages are other pages
than the four of the same folder earlier batches used, and than the ones statsmodels' ``scotvote``
data set was built from. The build is deterministic. Every table ships in another layout than a
plain CSV file and is written as comma-separated text by a simple documented conversion that
changes no value (see ``CONVERTERS`` below). No dirt is injected and no value is changed. The
oddities that are there are the data's own (spelled out below, so a solver knows they are there on
purpose).

    .venv/bin/python benchmarks/heldout_o/make_tables.py            # writes benchmarks/heldout_o/tables/
    .venv/bin/python benchmarks/heldout_o/make_tables.py OUT_DIR    # writes OUT_DIR/ instead

Conversion of the other layouts
-------------------------------
Every converted table is written with ``\\n`` line ends, the last line too, fields separated by
commas and quoted (double quotes) only where a field holds a comma or a quote (Python's ``csv``
module, minimal quoting); every value is copied as the text the source writes, except the fields
of the certificates (last item), which are read from the certificates themselves.

- ``scotland_housing.csv``, ``scotland_labour_market.csv``: the shipped files are web pages of the
  ONS's "Regional Trends 33" dataset viewer, ISO-8859-1 text (their pound sign is the byte ``A3``,
  read as ``£``). Each page holds one data table: a header row of measures above one row per
  area. Each cell is written as the page writes it, tags and footnote marks (``<SUP>`` digits) left
  out, entities read and blanks at the ends trimmed (blanks inside a cell are kept: one measure of
  the labour-market page has two blanks before its unit). The header row's empty first cell is
  named ``Area``.
- ``us_gdp_unemployment_quarterly.csv``: the shipped file ``clark1989.csv`` has no header and one
  line ``GDP, unemployment`` per quarter (195 lines). The test of statsmodels that reads it
  (``statsmodels/tsa/statespace/tests/test_representation.py``, class ``Clark1989``) dates the lines
  as the quarters 1947 Q1 - 1995 Q3 ("GDP and Unemployment, Quarterly", index from 1947-01-01 to
  1995-07-01, quarter starts), and the results module beside it names the source files, Kim and
  Nelson's ``GDP4795.PRN`` and ``LHUR.PRN``. The table is a first column ``quarter`` (``1947Q1``,
  ``1947Q2``, ...) counted on from 1947 Q1, then the two values of each line as the file writes
  them (the blank after the comma dropped), named ``real_gdp`` and ``unemployment_rate``.
- ``time_zones.csv``: tzdata's ``zone.tab``, tab-separated text with ``#`` comment lines. The
  comment lines are left out; the other lines are written field by field. The lines have three
  fields or four (the fourth, a comment, only where a country has several zones); a missing fourth
  field is written as an empty cell. The header is the column names the file's own comment line
  gives (``country-code``, ``coordinates``, ``TZ``, ``comments``), each as one word:
  ``country_code,coordinates,TZ,comments``.
- ``leap_seconds.csv``: tzdata's ``leapseconds``, one tab-separated line
  ``Leap YEAR MON DAY HH:MM:SS CORR R/S`` per leap second after ``#`` comment lines. The comment
  lines (among them the commented-out ``#Expires``, ``#updated`` and ``#expires`` lines) are left
  out, and so is each line's first field, the keyword ``Leap``; the six other fields are written as
  the file writes them, under the header ``year,month,day,time,correction,rolling_or_stationary``
  (the names the file's comments give: "YEAR MON DAY", the time, the correction ``+`` or ``-``,
  ``S`` for stationary or ``R`` for rolling).
- ``root_certificates.csv``: certifi's ``cacert.pem``, one block per root certificate: comment
  lines ``# Issuer:``, ``# Subject:``, ``# Label: "..."``, ``# Serial:`` and three fingerprints,
  then the certificate in PEM. One row per block, in the file's order: ``label`` and ``serial``
  as the comment lines write them (the label without its enclosing quotes, with the escapes the
  file writes, such as ``F\\u0151tan\\xfas\\xedtv\\xe1ny``); then, read from the certificate with
  the installed ``cryptography`` package, the subject's ``organization`` (O) and ``country`` (C)
  attributes (an empty cell where the certificate has none), ``not_before`` and ``not_after`` (the
  validity period, UTC, written ``YYYY-MM-DD HH:MM:SS``), ``key_type`` (``RSA`` or ``EC``),
  ``key_bits`` (the key size in bits) and ``signature_hash`` (the hash of the certificate's
  signature algorithm as the package names it: ``sha1``, ``sha256``, ``sha384``, ``sha512``).
  Six certificates have the serial number 0, which the package reads with a deprecation warning
  (RFC 5280 wants serial numbers positive); the build silences that warning.

Tables
------
scotland_housing.csv
                     ``statsmodels/datasets/scotland/src/scotland_housing.html`` as CSV (see above):
                     "Housing and households: Scotland" (The Scottish Office Development Department;
                     Regional Trends 33, 1998), 34 rows: Area (TEXT: ``United Kingdom`` and
                     ``Scotland``, TOTAL rows, then the 32 council areas named as the page names
                     them, e.g. ``Edinburgh, City of``, ``Scottish Borders, The``, ``Eilean Siar
                     (Western Isles)``), then six measures named as the page names them: housing
                     starts by private enterprise and by housing associations, local authorities etc
                     (numbers, 1996), the stock of dwellings and the households (thousands, 1996),
                     local authority tenants' average weekly unrebated rent per dwelling (£, April
                     1997) and the Council Tax (£, April 1997). Numbers are written with one decimal
                     (``1142.0``). MISSING values are written ``..`` (not available); ``.`` is "not
                     applicable" (the United Kingdom's Council Tax).
scotland_labour_market.csv
                     ``statsmodels/datasets/scotland/src/scotland_economics.html`` as CSV (see above):
                     "Labour market statistics: Scotland" (Office for National Statistics; Regional
                     Trends 33, 1998), 34 rows, the same areas as above, then eight measures named as
                     the page names them: the economically active percentage (1996-97; the header is
                     written with two blanks before ``(percentages)``), the total in employment
                     (thousands, 1996-97), the percentage of those in employment in manufacturing,
                     the ILO unemployment rate (percent, 1996-97), the total claimant count
                     (thousands, January 1998), the percentages of claimants who are female and who
                     are long-term unemployed (January 1998) and the average gross weekly full-time
                     earnings of all persons (£, April 1997). MISSING values are written ``..`` (not
                     available; the survey's small samples in many council areas).
us_gdp_unemployment_quarterly.csv
                     ``statsmodels/tsa/statespace/tests/results/clark1989.csv`` as CSV (see above):
                     quarterly US data, 1947 Q1 - 1995 Q3 (195 quarters), the data of Kim and
                     Nelson (1999) for Clark's (1989) unobserved-components model of real GDP:
                     quarter (TEXT ``1947Q1``), real_gdp (real GDP, the level as the file writes it,
                     e.g. ``1247.199951``; the file states no unit) and unemployment_rate (the
                     civilian unemployment rate, percent, a quarterly average of monthly rates, e.g.
                     ``3.733333349``). The file writes the unemployment rate of the four quarters of
                     1947 as ``0``: the series starts in 1948, and statsmodels' test drops these four
                     quarters; 0 there means NOT AVAILABLE.
time_zones.csv       ``tzdata/zoneinfo/zone.tab`` as CSV (see above): the IANA time zone database's
                     table of time zones by country (tzdata 2026.6, public domain), 418 rows:
                     country_code (ISO 3166 two-letter code; Namibia's is ``NA``, a code, not a
                     missing value), coordinates (the principal location in ISO 6709 sign, degrees,
                     minutes and maybe seconds: ``+4230+00131`` is 42°30'N 1°31'E,
                     ``-690022+0393524`` 69°00'22"S 39°35'24"E), TZ (the zone's name, e.g.
                     ``Europe/Andorra``, ``America/Argentina/Buenos_Aires``) and comments (TEXT,
                     present only where the country has several zones, e.g. ``Buenos Aires (BA,
                     CF)``; MISSING otherwise). Rows are sorted by country code, a country's zones
                     in the file's order.
leap_seconds.csv     ``tzdata/zoneinfo/leapseconds`` as CSV (see above): the 27 leap seconds inserted
                     into UTC, 1972-2016 (from the IERS/NIST ``leap-seconds.list``; public domain):
                     year, month (TEXT ``Jun`` or ``Dec``), day (30 or 31), time (``23:59:60``, the
                     inserted second), correction (``+``) and rolling_or_stationary (``S``). The
                     leap second is inserted at the end of the day written.
root_certificates.csv
                     ``certifi/cacert.pem`` as CSV (see above): the 117 root certificates of the
                     Mozilla CA bundle certifi 2026.10.18 ships (Mozilla Public License 2.0):
                     label (TEXT, the certificate's name in the bundle, with the file's escapes for
                     non-ASCII letters), serial (the serial number, a decimal integer of up to 48
                     digits, written as the file writes it), organization (TEXT, MISSING for
                     certificates whose subject names none), country (two-letter code, MISSING for
                     some), not_before and not_after (the validity period, UTC date and time),
                     key_type (``RSA``, ``EC``), key_bits (``2048``, ``4096``, ``256``, ``384``, ...)
                     and signature_hash.
"""

from __future__ import annotations

import csv
import html
import io
import re
import sys
import warnings
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
import heldout_common  # noqa: E402

OUT = Path(__file__).resolve().parent / "tables"
READ_OPTIONS: dict[str, dict] = {  # Namibia's country code NA is a code, not a missing value
    "time_zones.csv": {"keep_default_na": False, "na_values": [""]},
}
SCOTLAND = "datasets/scotland/src"

SOURCES = {  # table name -> (package, file inside the package)
    "scotland_housing.csv": ("statsmodels", f"{SCOTLAND}/scotland_housing.html"),
    "scotland_labour_market.csv": ("statsmodels", f"{SCOTLAND}/scotland_economics.html"),
    "us_gdp_unemployment_quarterly.csv": ("statsmodels", "tsa/statespace/tests/results/clark1989.csv"),
    "time_zones.csv": ("tzdata", "zoneinfo/zone.tab"),
    "leap_seconds.csv": ("tzdata", "zoneinfo/leapseconds"),
    "root_certificates.csv": ("certifi", "cacert.pem"),
}

ROWS = {  # converted table -> data rows it must hold
    "scotland_housing.csv": 34,
    "scotland_labour_market.csv": 34,
    "us_gdp_unemployment_quarterly.csv": 195,
    "time_zones.csv": 418,
    "leap_seconds.csv": 27,
    "root_certificates.csv": 117,
}
shipped_path = heldout_common.shipped_files(SOURCES)  # table name -> its source file in the package


def _write(rows: list[list[str]]) -> bytes:
    """``rows`` written as CSV: minimal quoting, ``\\n`` line ends, UTF-8."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue().encode("utf-8")


def _cell_text(cell: str) -> str:
    """A table cell's text: footnote marks (``<SUP>``) and other tags dropped, entities read (a
    no-break space as a blank), blanks at the ends trimmed."""
    cell = re.sub(r"<SUP>.*?</SUP>", "", cell, flags=re.I | re.S)
    return html.unescape(re.sub(r"<[^>]+>", "", cell)).replace("\xa0", " ").strip()


def regional_trends_csv(name: str) -> bytes:
    """The data table of a Regional Trends dataset-viewer page: measures above one row per area."""
    page = shipped_path(name).read_text(encoding="latin-1")
    table = page[page.upper().index("<TBODY>"):]
    table = table[:table.upper().index("</TABLE>")]
    rows = [[_cell_text(cell) for cell in re.findall(r"<TD[^>]*>(.*?)</TD>", row, flags=re.I | re.S)]
            for row in re.split(r"<TR>", table, flags=re.I)[1:]]
    assert rows[0][0] == "" and {len(row) for row in rows} == {len(rows[0])}, name
    return _write([["Area", *rows[0][1:]], *rows[1:]])


FIRST_QUARTER = (1947, 1)  # statsmodels' test: index from 1947-01-01, quarterly


def clark_quarters_csv(name: str) -> bytes:
    """The headerless ``GDP, unemployment`` lines after a ``quarter`` column counted on from 1947 Q1."""
    lines = [line.split(",") for line in shipped_path(name).read_text(encoding="ascii").splitlines() if line.strip()]
    assert {len(line) for line in lines} == {2}, name
    year, quarter = FIRST_QUARTER
    out = [["quarter", "real_gdp", "unemployment_rate"]]
    for k, (gdp, unemployment) in enumerate(lines):
        q = quarter - 1 + k
        out.append([f"{year + q // 4}Q{q % 4 + 1}", gdp.strip(), unemployment.strip()])
    return _write(out)


TZ_HEADERS = {"time_zones.csv": ["country_code", "coordinates", "TZ", "comments"]}


def tab_file_csv(name: str) -> bytes:
    """A tab-separated tzdata table: comment lines left out, short lines padded with empty cells."""
    header = TZ_HEADERS[name]
    lines = [line.split("\t") for line in shipped_path(name).read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    assert all(len(header) - 1 <= len(line) <= len(header) for line in lines), name
    return _write([header, *[line + [""] * (len(header) - len(line)) for line in lines]])


def leapseconds_csv(name: str) -> bytes:
    """tzdata's ``leapseconds``: the ``Leap`` lines' six fields after the keyword."""
    lines = [line.split("\t") for line in shipped_path(name).read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    assert all(len(line) == 7 and line[0] == "Leap" for line in lines), name
    return _write([["year", "month", "day", "time", "correction", "rolling_or_stationary"],
                   *[line[1:] for line in lines]])


CERTIFICATE_COLUMNS = ["label", "serial", "organization", "country", "not_before", "not_after",
                       "key_type", "key_bits", "signature_hash"]


def certificates_csv(name: str) -> bytes:
    """certifi's bundle: each block's label and serial as written, then fields of its certificate."""
    from cryptography import x509
    from cryptography.hazmat.primitives.asymmetric import ec, rsa
    from cryptography.x509.oid import NameOID

    warnings.filterwarnings("ignore", "Parsed a serial number which wasn't positive", Warning)  # see above
    text = shipped_path(name).read_text(encoding="utf-8")
    blocks = re.findall(r'# Label: "([^\n]*)"\n# Serial: (\d+)\n.*?(-----BEGIN CERTIFICATE-----.*?-----END CERTIFICATE-----)',
                        text, flags=re.S)
    assert len(blocks) == text.count("-----BEGIN CERTIFICATE-----"), name
    out = [CERTIFICATE_COLUMNS]
    for label, serial, pem in blocks:
        cert = x509.load_pem_x509_certificate(pem.encode("ascii"))
        assert cert.serial_number == int(serial), label

        def attribute(oid) -> str:
            values = cert.subject.get_attributes_for_oid(oid)
            assert len(values) <= 1, label
            return values[0].value if values else ""

        key = cert.public_key()
        kind = "RSA" if isinstance(key, rsa.RSAPublicKey) else "EC" if isinstance(key, ec.EllipticCurvePublicKey) else None
        assert kind, label
        out.append([label, serial, attribute(NameOID.ORGANIZATION_NAME), attribute(NameOID.COUNTRY_NAME),
                    cert.not_valid_before_utc.strftime("%Y-%m-%d %H:%M:%S"),
                    cert.not_valid_after_utc.strftime("%Y-%m-%d %H:%M:%S"),
                    kind, str(key.key_size), cert.signature_hash_algorithm.name])
    return _write(out)


SHIPPED: tuple[str, ...] = ()  # none is written byte for byte
CONVERTERS = {  # a simple documented conversion each (see the docstring)
    "scotland_housing.csv": regional_trends_csv,
    "scotland_labour_market.csv": regional_trends_csv,
    "us_gdp_unemployment_quarterly.csv": clark_quarters_csv,
    "time_zones.csv": tab_file_csv,
    "leap_seconds.csv": leapseconds_csv,
    "root_certificates.csv": certificates_csv,
}
CONVERTED = tuple(CONVERTERS)
TABLES = [*SHIPPED, *CONVERTED]
table_bytes, build = heldout_common.table_writers(shipped_path, CONVERTERS, ROWS, TABLES)

if __name__ == "__main__":
    heldout_common.build_command(sys.argv[1:], OUT, build, TABLES, READ_OPTIONS)
