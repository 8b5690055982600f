"""Build the tables of held-out batch P from data that installed packages ship.

Nothing is downloaded: every table is a data file bundled inside an installed wheel, ``scipy`` (a
main dependency), ``playwright`` (a development dependency: the browser tests), ``langchain_openai``
(a development dependency and the ``openai`` extra) and ``pyspark`` (a development dependency and
the ``spark`` extra): the CODATA tables of fundamental physical constants scipy ships in
``scipy.constants``, the device descriptors Playwright's driver ships in its JavaScript bundle, the
model profiles langchain-openai ships (data of the models.dev project), and the registry of SQLSTATE
codes and the catalogue of error conditions Spark ships inside one of the Java archives of pyspark.
None of them is used by another batch or test here, and none comes from the source families earlier
batches drew from (statsmodels, plotly, vega_datasets, scikit-learn, matplotlib's sample data,
scipy's test data, tzdata, certifi). The build is deterministic. Every table ships in another layout
than a plain CSV file and is written as comma-separated text by a simple documented conversion that
changes no value (see ``CONVERTERS`` below). No dirt is injected and no value is changed. The
oddities that are there are the data's own (spelled out below, so a solver knows they are there on
purpose).

    .venv/bin/python benchmarks/heldout_p/make_tables.py            # writes benchmarks/heldout_p/tables/
    .venv/bin/python benchmarks/heldout_p/make_tables.py OUT_DIR    # writes OUT_DIR/ instead

Conversion of the other layouts
-------------------------------
Every converted table is written with ``\\n`` line ends, the last line too, fields separated by
commas and quoted (double quotes) only where a field holds a comma or a quote (Python's
``csv`` module, minimal quoting); every value is copied as the text the source writes it. A list of
values in the source is written as one cell, its items in the source's order joined as said below.

- ``codata_constants.csv``: ``scipy/constants/_codata.py`` holds each CODATA edition's table of
  constants as the fixed-width text NIST publishes (``txt2002`` ... ``txt2022``, one line per
  constant; from 2018 on the fields are the characters 1-60, 61-85, 86-110 and 111 on of a line).
  The table is the lines of the two newest editions, ``txt2018`` and then ``txt2022``, in the
  file's order, one row per line: ``edition`` (2018 or 2022), then the four fields, blanks at their
  ends trimmed and blanks inside kept: ``quantity``, ``value``, ``uncertainty``, ``unit``.
- ``browser_devices.csv``: Playwright's ``deviceDescriptorsSource.json`` is bundled into the
  driver's ``lib/coreBundle.js`` as a JavaScript object literal (``deviceDescriptorsSource_default =
  {...}``): the same object with its keys unquoted. The literal is read as JSON after quoting those
  keys (numbers and strings kept as the text the bundle writes). One row per device, in the
  bundle's order: ``device`` (its name, the key), ``user_agent``, ``viewport_width``,
  ``viewport_height``, ``screen_width``, ``screen_height`` (empty where the descriptor gives no
  screen), ``device_scale_factor``, ``is_mobile``, ``has_touch`` (``true``/``false`` as written)
  and ``default_browser_type``.
- ``openai_models.csv``: ``langchain_openai/data/_profiles.py`` is a Python module whose one
  assignment, ``_PROFILES``, is a dict literal (model id -> its profile) generated from the
  models.dev project. The literal is read with ``ast.literal_eval`` (the module is not run). One row
  per model in the file's order: ``model`` (the key), then one column per field, in the order the
  fields first occur in the file, each cell the value as Python writes it (``True``/``False``,
  numbers and dates as written), an empty cell where a profile lacks the field, and the one list
  field (``reasoning_effort_levels``) written with its items joined by ``;``.
- ``sqlstate_codes.csv``: the Java archive ``pyspark/jars/spark-common-utils_2.13-<version>.jar``
  holds ``error/error-states.json``, Spark's registry of SQLSTATE codes (code -> description,
  origin, standard, usedBy). One row per code in the file's order: ``sql_state`` (the key),
  ``description``, ``origin``, ``standard`` (``Y``/``N``) and ``used_by`` (the list's items
  joined by ``, ``).
- ``spark_error_conditions.csv``: the same archive's ``error/error-conditions.json``, Spark's
  catalogue of error conditions (name -> ``message``, a list of lines, maybe ``sqlState`` and maybe
  ``subClass``, a dict of sub-conditions). One row per condition in the file's order:
  ``error_condition`` (the key), ``sql_state`` (empty where the condition has none), ``message``
  (its lines joined by one blank, so that every row stays one line of the file; Spark itself joins
  them with line ends) and ``sub_conditions`` (the number of entries of ``subClass``; 0 where there
  is none).

Tables
------
codata_constants.csv
                     ``scipy/constants/_codata.py`` as CSV (see above): the CODATA recommended values
                     of the fundamental physical constants, editions 2018 (354 constants) and 2022
                     (355), 709 rows: edition (2018 or 2022), quantity (TEXT, the constant's name as
                     NIST writes it, e.g. ``alpha particle-electron mass ratio``, ``atomic unit of
                     electric dipole mom.``), value and uncertainty (NUMBERS WRITTEN AS TEXT, in
                     NIST's layout: digits in groups of three separated by blanks and a power of ten
                     after a blank, ``6.644 657 3450 e-27``; an exact value whose decimals go on
                     forever ends in ``...``, ``1.054 571 817... e-34``; the uncertainty is the
                     standard uncertainty in the unit of the value, written ``(exact)`` for a constant
                     with no uncertainty) and unit (TEXT such as ``kg``, ``J T^-1``, ``kg mol^-1``;
                     MISSING for a dimensionless constant).
browser_devices.csv  ``playwright/driver/package/lib/coreBundle.js`` as CSV (see above): the 207 device
                     descriptors Playwright 1.65 emulates (Apache-2.0): device (TEXT, e.g. ``iPhone
                     13``, ``Galaxy S9+ landscape``: most phones and tablets come twice, upright and
                     as a ``landscape`` variant with width and height swapped), user_agent (TEXT, the
                     browser's user-agent string), viewport_width and viewport_height (the page's
                     size in CSS pixels), screen_width and screen_height (CSS pixels; MISSING for the
                     92 devices whose descriptor gives no screen), device_scale_factor (device pixels
                     per CSS pixel, e.g. ``3``, ``2.625``; two devices write ``2.63``),
                     is_mobile and has_touch (``true``/``false``) and default_browser_type
                     (``chromium``, ``webkit``, ``firefox``).
openai_models.csv    ``langchain_openai/data/_profiles.py`` as CSV (see above): the profiles of 61
                     OpenAI models langchain-openai 1.7 ships (data of the models.dev project, MIT),
                     31 columns: model (the API's model id, e.g. ``gpt-4o-mini``), name (TEXT,
                     e.g. ``GPT-4o mini``), release_date and last_updated (DATES written
                     ``YYYY-MM-DD``), open_weights, max_input_tokens and max_output_tokens (the
                     context limits in tokens; ``0`` for the image-generation models), capability
                     flags (``True``/``False``: text_inputs ... tool_call_streaming), status
                     (``deprecated`` for ten models; MISSING otherwise), structured_output, two
                     mid-conversation flags, reasoning_effort_levels (e.g.
                     ``none;low;medium;high;xhigh``) and reasoning_effort_default. Nine models have
                     only some flags (and maybe max_input_tokens): name, dates and the other fields
                     are MISSING for them.
sqlstate_codes.csv   ``error/error-states.json`` of pyspark's ``spark-common-utils`` archive as CSV
                     (see above): the 1262 SQLSTATE codes of Spark's registry (Apache-2.0):
                     sql_state (TEXT, five characters: a two-character class, e.g. ``22``
                     "data exception", then a three-character subclass; codes such as ``01000``,
                     ``0A000`` and ``42K0E`` are codes, not numbers), description (TEXT, e.g.
                     ``string data, right truncation``), origin (TEXT: the standard part or product
                     that defines the code, e.g. ``SQL/Foundation``, ``DB2``, ``PostgreSQL``; one
                     code's origin is written ``Spark,`` with a trailing comma), standard (``Y`` for
                     a code of the SQL standard, ``N`` otherwise) and used_by (TEXT, the standard
                     parts and products that use the code, e.g. ``SQL/Foundation, PostgreSQL,
                     Redshift, Oracle``; three codes name a product twice).
spark_error_conditions.csv
                     ``error/error-conditions.json`` of the same archive as CSV (see above): the 1347
                     error conditions of Spark 4.3 (Apache-2.0): error_condition (TEXT, e.g.
                     ``DIVIDE_BY_ZERO``), sql_state (the condition's SQLSTATE code, TEXT as above;
                     MISSING for 467 conditions), message (TEXT, the message template with
                     placeholders such as ``<sqlExpr>``; 140 messages have several lines, joined
                     here by a blank) and
                     sub_conditions (the number of sub-conditions the condition has, 0 for most).
"""

from __future__ import annotations

import ast
import csv
import io
import json
import re
import sys
import zipfile
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
import heldout_common  # noqa: E402

OUT = Path(__file__).resolve().parent / "tables"
READ_OPTIONS: dict[str, dict] = {}  # every table is read with pandas' defaults


def _spark_archive() -> str:
    """The file name of pyspark's ``spark-common-utils`` archive (its name carries Spark's version)."""
    jars = sorted(heldout_common.package_file("pyspark", "jars").glob("spark-common-utils_2.13-*.jar"))
    assert len(jars) == 1, jars
    return f"jars/{jars[0].name}"


SPARK_ARCHIVE = _spark_archive()
SOURCES = {  # table name -> (package, file inside the package)
    "codata_constants.csv": ("scipy", "constants/_codata.py"),
    "browser_devices.csv": ("playwright", "driver/package/lib/coreBundle.js"),
    "openai_models.csv": ("langchain_openai", "data/_profiles.py"),
    "sqlstate_codes.csv": ("pyspark", SPARK_ARCHIVE),
    "spark_error_conditions.csv": ("pyspark", SPARK_ARCHIVE),
}
MEMBERS = {  # a table read from a file inside a Java archive -> that file
    "sqlstate_codes.csv": "error/error-states.json",
    "spark_error_conditions.csv": "error/error-conditions.json",
}

ROWS = {  # converted table -> data rows it must hold
    "codata_constants.csv": 709,
    "browser_devices.csv": 207,
    "openai_models.csv": 61,
    "sqlstate_codes.csv": 1262,
    "spark_error_conditions.csv": 1347,
}
shipped_path = heldout_common.shipped_files(SOURCES)  # table name -> its source file in the package


def _write(rows: list[list[str]]) -> bytes:
    """``rows`` written as CSV: minimal quoting, ``\\n`` line ends, UTF-8."""
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue().encode("utf-8")


CODATA_EDITIONS = (2018, 2022)
CODATA_FIELDS = ((0, 60), (60, 85), (85, 110), (110, None))  # quantity, value, uncertainty, unit


def codata_text(edition: int) -> str:
    """The text of one edition's table in ``_codata.py`` (the string literal ``txt<edition>``)."""
    source = shipped_path("codata_constants.csv").read_text(encoding="utf-8")
    match = re.search(rf'^txt{edition} = """\\\n(.*?)"""', source, flags=re.M | re.S)
    assert match, edition
    return match.group(1)


def codata_csv(name: str) -> bytes:
    """The fixed-width lines of the 2018 and 2022 editions, one row each, fields trimmed."""
    out = [["edition", "quantity", "value", "uncertainty", "unit"]]
    for edition in CODATA_EDITIONS:
        for line in codata_text(edition).split("\n"):
            assert all(line[end - 1:end] in (" ", "") for _, end in CODATA_FIELDS[:-1]), line
            out.append([str(edition), *[line[start:end].strip() for start, end in CODATA_FIELDS]])
    return _write(out)


def device_descriptors() -> dict[str, dict]:
    """The object literal ``deviceDescriptorsSource_default = {...}`` of Playwright's bundle, read as
    JSON once its unquoted keys (``userAgent:``, ``width:``, ...) are quoted; numbers kept as text."""
    bundle = shipped_path("browser_devices.csv").read_text(encoding="utf-8")
    start = bundle.index("{", bundle.index("deviceDescriptorsSource_default = {"))
    depth = 0
    for end in range(start, len(bundle)):  # the literal's closing brace (no brace inside a string)
        depth += {"{": 1, "}": -1}.get(bundle[end], 0)
        if depth == 0:
            break
    literal = re.sub(r'^(\s*)([A-Za-z_]\w*):', r'\1"\2":', bundle[start:end + 1], flags=re.M)
    return json.loads(literal, parse_int=str, parse_float=str)


DEVICE_COLUMNS = ["device", "user_agent", "viewport_width", "viewport_height", "screen_width", "screen_height",
                  "device_scale_factor", "is_mobile", "has_touch", "default_browser_type"]


def devices_csv(name: str) -> bytes:
    """One row per device descriptor; a missing screen is written as two empty cells."""
    out = [DEVICE_COLUMNS]
    for device, d in device_descriptors().items():
        assert set(d) <= {"userAgent", "screen", "viewport", "deviceScaleFactor", "isMobile", "hasTouch",
                          "defaultBrowserType"}, device
        screen = d.get("screen", {"width": "", "height": ""})
        out.append([device, d["userAgent"], d["viewport"]["width"], d["viewport"]["height"], screen["width"],
                    screen["height"], d["deviceScaleFactor"], json.dumps(d["isMobile"]), json.dumps(d["hasTouch"]),
                    d["defaultBrowserType"]])
    return _write(out)


def model_profiles() -> dict[str, dict]:
    """The dict literal assigned to ``_PROFILES`` in langchain-openai's ``_profiles.py``."""
    tree = ast.parse(shipped_path("openai_models.csv").read_text(encoding="utf-8"))
    values = [node.value for node in tree.body
              if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", "") == "_PROFILES"]
    assert len(values) == 1
    return ast.literal_eval(values[0])


def _python_cell(value) -> str:
    """A profile's value as Python writes it; a list as its items joined by ``;``."""
    if isinstance(value, list):
        return ";".join(str(item) for item in value)
    return str(value)


def models_csv(name: str) -> bytes:
    """One row per model profile, a column per field in the order fields first occur."""
    profiles = model_profiles()
    fields: list[str] = []
    for profile in profiles.values():
        fields += [field for field in profile if field not in fields]
    out = [["model", *fields]]
    for model, profile in profiles.items():
        out.append([model, *[_python_cell(profile[f]) if f in profile else "" for f in fields]])
    return _write(out)


def spark_json(name: str) -> dict:
    """A JSON file inside pyspark's ``spark-common-utils`` archive."""
    with zipfile.ZipFile(shipped_path(name)) as archive:
        return json.loads(archive.read(MEMBERS[name]).decode("utf-8"))


def sqlstates_csv(name: str) -> bytes:
    """One row per SQLSTATE code; the ``usedBy`` list joined by ``, ``."""
    out = [["sql_state", "description", "origin", "standard", "used_by"]]
    for code, entry in spark_json(name).items():
        assert set(entry) == {"description", "origin", "standard", "usedBy"}, code
        out.append([code, entry["description"], entry["origin"], entry["standard"], ", ".join(entry["usedBy"])])
    return _write(out)


def conditions_csv(name: str) -> bytes:
    """One row per error condition: its SQLSTATE, its message lines joined by a blank, and how many
    sub-conditions it has."""
    out = [["error_condition", "sql_state", "message", "sub_conditions"]]
    for condition, entry in spark_json(name).items():
        assert set(entry) <= {"message", "sqlState", "subClass"}, condition
        out.append([condition, entry.get("sqlState", ""), " ".join(entry["message"]),
                    str(len(entry.get("subClass", {})))])
    return _write(out)


SHIPPED: tuple[str, ...] = ()  # none is written byte for byte
CONVERTERS = {  # a simple documented conversion each (see the docstring)
    "codata_constants.csv": codata_csv,
    "browser_devices.csv": devices_csv,
    "openai_models.csv": models_csv,
    "sqlstate_codes.csv": sqlstates_csv,
    "spark_error_conditions.csv": conditions_csv,
}
CONVERTED = tuple(CONVERTERS)
TABLES = [*SHIPPED, *CONVERTED]
table_bytes, build = heldout_common.table_writers(shipped_path, CONVERTERS, ROWS, TABLES)

if __name__ == "__main__":
    heldout_common.build_command(sys.argv[1:], OUT, build, TABLES, READ_OPTIONS)
