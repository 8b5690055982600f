"""Held-out batch O (benchmarks/heldout_o): the checks all batches share
(``heldout_checks.HeldoutBatchChecks``), and that O's tables are the data statsmodels, tzdata and
certifi ship: the cells of two web pages' tables, the Clark (1989) text file with its quarters, two
tab-separated tzdata files, and the root certificates' fields read again with the standard library's
OpenSSL decoder and from the certificates' own bytes. Layout and labels only: no question text or
value is asserted."""

from __future__ import annotations

import base64
import csv
import re
import ssl
from datetime import datetime
from pathlib import Path

from .heldout_checks import BENCH, HeldoutBatchChecks, packaged_make_tables

# DER encodings of the object identifiers a root certificate of the bundle names
EC_KEY = bytes.fromhex("2a8648ce3d0201")  # id-ecPublicKey
EC_CURVES = {bytes.fromhex("2a8648ce3d030107"): 256, bytes.fromhex("2b81040022"): 384, bytes.fromhex("2b81040023"): 521}
SIGNATURES = {  # signature algorithm -> its hash
    bytes.fromhex("2a864886f70d010105"): "sha1", bytes.fromhex("2a864886f70d01010b"): "sha256",
    bytes.fromhex("2a864886f70d01010c"): "sha384", bytes.fromhex("2a864886f70d01010d"): "sha512",
    bytes.fromhex("2a8648ce3d040302"): "sha256", bytes.fromhex("2a8648ce3d040303"): "sha384",
    bytes.fromhex("2a8648ce3d040304"): "sha512",
}


class TestBatchO(HeldoutBatchChecks):
    batch, first_id, fewest_tables = BENCH / "heldout_o", 10101, 6
    packages = ("statsmodels", "tzdata", "certifi")

    def test_tables_are_the_shipped_data(self, built: Path, tmp_path: Path) -> None:
        """Each converted table holds its source's cells as the source writes them (the web pages'
        footnote marks left out, the quarters counted on from 1947 Q1, tzdata's comment lines and
        ``Leap`` keyword left out); the certificates' fields agree with OpenSSL's reading of each
        certificate and with the object identifiers in its bytes."""
        make_tables = packaged_make_tables(self.batch, self.packages)
        source = make_tables["shipped_path"]
        assert not make_tables["SHIPPED"] and sorted(make_tables["CONVERTED"]) == sorted(make_tables["SOURCES"])

        def cells(name: str) -> list[list[str]]:
            return list(csv.reader((built / name).read_text(encoding="utf-8").splitlines()))

        for name in ("scotland_housing.csv", "scotland_labour_market.csv"):  # the pages are ISO-8859-1 text
            body = source(name).read_text(encoding="latin-1").split("<TBODY>")[1].split("</TABLE>")[0]
            page_cells = [re.sub(r"<SUP>\d+</SUP>", "", cell) for cell in re.findall(r"<TD[^>]*>([^<]*(?:<SUP>\d+</SUP>)?)</TD>", body)]
            ours = cells(name)
            assert len(ours) == 35 and ours[0][0] == "Area" and {len(row) for row in ours} == {len(ours[0])}
            assert ["", *ours[0][1:], *[cell for row in ours[1:] for cell in row]] == page_cells, name

        lines = source("us_gdp_unemployment_quarterly.csv").read_text(encoding="ascii").splitlines()
        ours = cells("us_gdp_unemployment_quarterly.csv")
        assert ours[0] == ["quarter", "real_gdp", "unemployment_rate"]
        assert [row[1:] for row in ours[1:]] == [line.split(", ") for line in lines]
        quarters = [f"{year}Q{q}" for year in range(1947, 1996) for q in range(1, 5)]
        assert [row[0] for row in ours[1:]] == quarters[:quarters.index("1995Q3") + 1]

        zone_lines = [line.split("\t") for line in source("time_zones.csv").read_text(encoding="utf-8").split("\n")
                      if line and line[0] != "#"]
        ours = cells("time_zones.csv")
        assert ours[0] == ["country_code", "coordinates", "TZ", "comments"]
        assert ours[1:] == [line + [""] * (4 - len(line)) for line in zone_lines]

        leap_lines = [line.split("\t") for line in source("leap_seconds.csv").read_text(encoding="utf-8").split("\n")
                      if line.startswith("Leap\t")]
        assert cells("leap_seconds.csv")[1:] == [line[1:] for line in leap_lines] and len(leap_lines) == 27

        bundle = source("root_certificates.csv").read_text(encoding="utf-8")
        labels = re.findall(r'^# Label: "(.*)"$', bundle, re.M)
        serials = re.findall(r"^# Serial: (\d+)$", bundle, re.M)
        pems = re.findall(r"-----BEGIN CERTIFICATE-----\n.*?\n-----END CERTIFICATE-----", bundle, re.S)
        ours = cells("root_certificates.csv")
        assert ours[0] == ["label", "serial", "organization", "country", "not_before", "not_after", "key_type",
                           "key_bits", "signature_hash"]
        assert len(ours) - 1 == len(labels) == len(serials) == len(pems) == 117
        for row, label, serial, pem in zip(ours[1:], labels, serials, pems):
            assert row[:2] == [label, serial]
            (tmp_path / "one.pem").write_text(pem + "\n", encoding="ascii")
            decoded = ssl._ssl._test_decode_cert(str(tmp_path / "one.pem"))
            subject = dict(pair for rdn in decoded["subject"] for pair in rdn)
            assert int(decoded["serialNumber"], 16) == int(serial), label
            assert row[2:4] == [subject.get("organizationName", ""), subject.get("countryName", "")], label

            def when(text: str) -> str:
                return datetime.strptime(" ".join(text.split()), "%b %d %H:%M:%S %Y GMT").strftime("%Y-%m-%d %H:%M:%S")

            assert row[4:6] == [when(decoded["notBefore"]), when(decoded["notAfter"])], label
            der = base64.b64decode("".join(pem.splitlines()[1:-1]))
            assert row[6] == ("EC" if EC_KEY in der else "RSA"), label
            if row[6] == "EC":
                assert [bits for oid, bits in EC_CURVES.items() if oid in der] == [int(row[7])], label
            else:
                assert int(row[7]) in (2048, 3072, 4096), label
            hashes = {hash_ for oid, hash_ in SIGNATURES.items() if oid in der}
            assert hashes == {row[8]}, label
