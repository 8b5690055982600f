"""Held-out batch P (benchmarks/heldout_p): the checks all batches share
(``heldout_checks.HeldoutBatchChecks``), and that P's tables are the data scipy, Playwright,
langchain-openai and pyspark ship: the CODATA rows against scipy's own parsing of them, the device
descriptors against the bundle's object literal evaluated by Playwright's own Node.js, the model
profiles against the imported module, and the SQLSTATE registry and error conditions against the
JSON files of pyspark's archive. Layout and labels only: no question text or value is asserted."""

from __future__ import annotations

import csv
import json
import subprocess
import zipfile
from pathlib import Path

import pytest

from .heldout_checks import BENCH, HeldoutBatchChecks, packaged_make_tables

# Evaluated by Playwright's Node.js: the device literal of the bundle (read from stdin), as JSON
NODE_SCRIPT = """
let text = require('fs').readFileSync(0, 'utf8');
let start = text.indexOf('{', text.indexOf('deviceDescriptorsSource_default = {'));
let end = text.indexOf('\\n    };\\n', start);
process.stdout.write(JSON.stringify(eval('(' + text.slice(start, end + 6) + ')')));
"""


def cells(built: Path, name: str) -> list[list[str]]:
    return list(csv.reader((built / name).read_text(encoding="utf-8").splitlines()))


class TestBatchP(HeldoutBatchChecks):
    batch, first_id, fewest_tables = BENCH / "heldout_p", 10141, 5
    packages = ("scipy", "playwright", "langchain_openai", "pyspark")

    @pytest.fixture(scope="class")
    @classmethod
    def make_tables(cls) -> dict:
        """The globals of the batch's ``make_tables.py``, once its source packages are known to be there."""
        make_tables = packaged_make_tables(cls.batch, cls.packages)
        assert not make_tables["SHIPPED"] and sorted(make_tables["CONVERTED"]) == sorted(make_tables["SOURCES"])
        return make_tables

    def test_codata_rows_are_scipys_constants(self, built: Path, make_tables: dict) -> None:
        """Each row is a line of the 2018 or 2022 edition: its value, uncertainty and unit read back
        as scipy reads them (exact values whose decimals go on are replaced by scipy with the exact
        value, so they agree to 1e-9)."""
        from scipy.constants import _codata

        editions = {2018: _codata._physical_constants_2018, 2022: _codata._physical_constants_2022}
        ours = cells(built, "codata_constants.csv")
        assert ours[0] == ["edition", "quantity", "value", "uncertainty", "unit"]
        for edition, constants in editions.items():
            rows = [row for row in ours[1:] if row[0] == str(edition)]
            assert [row[1] for row in rows] == list(constants), edition
            for _, quantity, value, uncertainty, unit in rows:
                scipy_value, scipy_unit, scipy_uncertainty = constants[quantity]
                assert unit == scipy_unit and value == value.strip() and "  " not in value, quantity
                number = float(value.replace(" ", "").replace("...", ""))
                assert abs(number / scipy_value - 1) <= (1e-9 if "..." in value else 0), quantity
                assert (0.0 if uncertainty == "(exact)" else float(uncertainty.replace(" ", ""))) == scipy_uncertainty

    def test_devices_are_the_bundles_literal(self, built: Path, make_tables: dict) -> None:
        """Each row is a descriptor of the bundle's literal as Playwright's own Node.js evaluates it."""
        source = make_tables["shipped_path"]("browser_devices.csv")
        node = source.parents[2] / "node"
        if not node.is_file():
            pytest.skip("Playwright's Node.js is not installed")
        run = subprocess.run([str(node), "-e", NODE_SCRIPT], input=source.read_bytes(), capture_output=True,
                             check=True, timeout=120)
        devices = json.loads(run.stdout)
        ours = cells(built, "browser_devices.csv")
        assert ours[0] == ["device", "user_agent", "viewport_width", "viewport_height", "screen_width",
                           "screen_height", "device_scale_factor", "is_mobile", "has_touch", "default_browser_type"]
        assert [row[0] for row in ours[1:]] == list(devices) and len(devices) == 207
        for row in ours[1:]:
            d = devices[row[0]]
            screen = d.get("screen", {})
            assert row[1:] == [d["userAgent"], str(d["viewport"]["width"]), str(d["viewport"]["height"]),
                               str(screen.get("width", "")), str(screen.get("height", "")),
                               str(d["deviceScaleFactor"]), str(d["isMobile"]).lower(), str(d["hasTouch"]).lower(),
                               d["defaultBrowserType"]], row[0]

    def test_models_are_the_imported_profiles(self, built: Path, make_tables: dict) -> None:
        """Each row is a profile of the module as Python imports it, every field in its column."""
        from langchain_openai.data._profiles import _PROFILES

        ours = cells(built, "openai_models.csv")
        header = ours[0]
        assert header[0] == "model" and set(header[1:]) == {field for p in _PROFILES.values() for field in p}
        assert [row[0] for row in ours[1:]] == list(_PROFILES)
        for row in ours[1:]:
            profile = _PROFILES[row[0]]
            for field, cell in zip(header[1:], row[1:]):
                value = profile.get(field, "")
                assert cell == (";".join(value) if isinstance(value, list) else str(value)), (row[0], field)

    def test_spark_tables_are_the_archives_json(self, built: Path, make_tables: dict) -> None:
        """The SQLSTATE rows and the error conditions hold the JSON files of pyspark's archive, and
        every condition's SQLSTATE is a code of the registry."""
        with zipfile.ZipFile(make_tables["shipped_path"]("sqlstate_codes.csv")) as archive:
            states = json.loads(archive.read("error/error-states.json"))
            conditions = json.loads(archive.read("error/error-conditions.json"))
        ours = cells(built, "sqlstate_codes.csv")
        assert ours[0] == ["sql_state", "description", "origin", "standard", "used_by"]
        assert [row[0] for row in ours[1:]] == list(states)
        for code, description, origin, standard, used_by in ours[1:]:
            entry = states[code]
            assert [description, origin, standard] == [entry["description"], entry["origin"], entry["standard"]]
            assert used_by.split(", ") == entry["usedBy"], code
        ours = cells(built, "spark_error_conditions.csv")
        assert ours[0] == ["error_condition", "sql_state", "message", "sub_conditions"]
        assert [row[0] for row in ours[1:]] == list(conditions)
        for name, state, message, subs in ours[1:]:
            entry = conditions[name]
            assert state == entry.get("sqlState", "") and (not state or state in states), name
            assert message == " ".join(entry["message"]) and int(subs) == len(entry.get("subClass", {})), name
