"""Every loader, id slugging, and a UserError naming the file for every bad-file case."""

from __future__ import annotations

import json
import random
import os
from pathlib import Path

import pandas as pd
import pytest

from dsagent.data import Dataset, load_datasets, profile_dataset
from dsagent.data.catalog import slugify
from dsagent.errors import UserError


def only(datasets: dict[str, Dataset]) -> Dataset:
    assert len(datasets) == 1, list(datasets)
    return next(iter(datasets.values()))


def test_csv_semicolon(tmp_path: Path) -> None:
    path = tmp_path / "Sales 2023.csv"
    path.write_text("region;amount;note\nNorth;1,5;a, b\nSouth;2,25;c\n", encoding="utf-8")
    ds = load_datasets([path])["sales_2023"]
    assert ds.name == "Sales 2023.csv" and ds.source_path == path
    assert list(ds.frame.columns) == ["region", "amount", "note"]
    assert ds.frame["note"].tolist() == ["a, b", "c"]
    assert ds.read_options["delimiter"] == ";"


@pytest.mark.parametrize("name", ["data.tsv", "data.txt"])
def test_tab_separated(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_text("a\tb c\n1\tx y\n2\tz\n", encoding="utf-8")
    frame = only(load_datasets([path])).frame
    assert list(frame.columns) == ["a", "b c"]
    assert frame["a"].tolist() == [1, 2]


def test_pipe_delimiter(tmp_path: Path) -> None:
    path = tmp_path / "pipes.csv"
    path.write_text("id|city\n1|Paris\n2|Rome\n", encoding="utf-8")
    assert only(load_datasets([path])).frame["city"].tolist() == ["Paris", "Rome"]


def test_cp1252_file(tmp_path: Path) -> None:
    path = tmp_path / "west.csv"
    path.write_bytes("name;city;price\nJosé;Zürich;3,50 €\nRené;Köln;4 €\n".encode("cp1252"))
    ds = only(load_datasets([path]))
    assert ds.read_options["encoding"] == "cp1252"
    assert ds.frame["name"].tolist() == ["José", "René"]
    assert ds.frame["price"].tolist() == ["3,50 €", "4 €"]


def test_latin1_only_bytes(tmp_path: Path) -> None:
    # 0x81 is undefined in cp1252 but a control character in latin-1; the text is still Western.
    path = tmp_path / "latin.csv"
    path.write_bytes("name,x\nçà\x81,1\nü,2\n".encode("latin-1"))
    ds = only(load_datasets([path]))
    assert ds.frame["name"].tolist()[1] == "ü"


def test_utf8_with_late_cp1252_byte(tmp_path: Path) -> None:
    # The first megabyte is plain ASCII; one cp1252 byte comes after the sniffed sample.
    path = tmp_path / "late.csv"
    body = "a,b\n" + "x,1\n" * 300_000 + "caf\xe9,2\n"
    path.write_bytes(body.encode("cp1252"))
    ds = only(load_datasets([path]))
    assert ds.frame["a"].iloc[-1] == "café"


def test_utf8_sig_bom(tmp_path: Path) -> None:
    path = tmp_path / "bom.csv"
    path.write_bytes("\ufeffcolumn one,b\nü,1\n".encode("utf-8"))
    ds = only(load_datasets([path]))
    assert list(ds.frame.columns) == ["column one", "b"]  # no BOM glued to the first name
    assert ds.read_options["encoding"] == "utf-8-sig"


def test_dates_stay_text(tmp_path: Path) -> None:
    path = tmp_path / "d.csv"
    path.write_text("when,n\n2023-01-05,1\n2023-02-06,2\n")
    frame = only(load_datasets([path])).frame
    assert not pd.api.types.is_datetime64_any_dtype(frame["when"])
    assert frame["when"].tolist() == ["2023-01-05", "2023-02-06"]


def test_excel_every_non_empty_sheet(tmp_path: Path) -> None:
    path = tmp_path / "book.xlsx"
    with pd.ExcelWriter(path) as writer:
        pd.DataFrame({"a": [1, 2]}).to_excel(writer, sheet_name="Sheet1", index=False)
        pd.DataFrame({"b": ["x", "y", "z"]}).to_excel(writer, sheet_name="Q2 Sales", index=False)
        pd.DataFrame().to_excel(writer, sheet_name="Empty", index=False)
    datasets = load_datasets([path])
    assert list(datasets) == ["book_sheet1", "book_q2_sales"]
    assert datasets["book_q2_sales"].name == "book.xlsx[Q2 Sales]"
    assert datasets["book_q2_sales"].sheet == "Q2 Sales"
    assert datasets["book_sheet1"].frame["a"].tolist() == [1, 2]


def test_parquet(tmp_path: Path) -> None:
    path = tmp_path / "t.parquet"
    pd.DataFrame({"x": [1.5, 2.5], "y": ["a", "b"]}).to_parquet(path)
    assert only(load_datasets([path])).frame["x"].tolist() == [1.5, 2.5]


def test_json_records_columns_and_wrapped(tmp_path: Path) -> None:
    records = tmp_path / "records.json"
    records.write_text(json.dumps([{"a": 1, "b": "x"}, {"a": 2, "b": "y"}]))
    columns = tmp_path / "columns.json"
    columns.write_text(json.dumps({"a": [1, 2, 3], "b": ["x", "y", "z"]}))
    wrapped = tmp_path / "wrapped.json"
    wrapped.write_text(json.dumps({"data": [{"a": 1}, {"a": 2}]}))
    datasets = load_datasets([records, columns, wrapped])
    assert datasets["records"].frame["b"].tolist() == ["x", "y"]
    assert datasets["columns"].frame.shape == (3, 2)
    assert datasets["wrapped"].frame["a"].tolist() == [1, 2]


@pytest.mark.parametrize("suffix", [".jsonl", ".ndjson", ".json"])
def test_json_lines(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"events{suffix}"
    path.write_text('{"a": 1, "b": "x"}\n\n{"a": 2, "b": "y"}\n')
    frame = only(load_datasets([path])).frame
    assert frame["a"].tolist() == [1, 2]


def test_dataframes_and_mapping(tmp_path: Path) -> None:
    first, second = pd.DataFrame({"a": [1]}), pd.DataFrame({"b": [2]})
    datasets = load_datasets([first, second])
    assert list(datasets) == ["df", "df_2"]
    assert datasets["df"].source_path is None and datasets["df_2"].frame is second
    csv = tmp_path / "x.csv"
    csv.write_text("q\n1\n")
    named = load_datasets({"Customers 2024": first, "orders": csv})
    assert list(named) == ["customers_2024", "orders"]
    assert named["customers_2024"].name == "Customers 2024"
    assert only(load_datasets(first)).id == "df"  # a single frame needs no list


def test_non_string_column_labels_become_strings() -> None:
    frame = pd.DataFrame([[1, 2]], columns=[0, 1])
    ds = only(load_datasets([frame]))
    assert list(ds.frame.columns) == ["0", "1"]
    assert list(frame.columns) == [0, 1]  # the caller's frame is untouched


def test_ids_are_unique_identifiers(tmp_path: Path) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "sales.csv").write_text("x\n1\n")
    (tmp_path / "2023 Q1-report.csv").write_text("x\n1\n")
    (tmp_path / "class.csv").write_text("x\n1\n")
    datasets = load_datasets(
        [tmp_path / "a/sales.csv", tmp_path / "b/sales.csv", tmp_path / "2023 Q1-report.csv", tmp_path / "class.csv"]
    )
    assert list(datasets) == ["sales", "sales_2", "data_2023_q1_report", "class_"]
    assert all(key.isidentifier() for key in datasets)
    assert slugify("Ünïcode Näme") == "unicode_name"
    assert slugify("***") == "data"


# --- bad files ----------------------------------------------------------------------------------


def _raises(path: Path, *fragments: str) -> str:
    with pytest.raises(UserError) as info:
        load_datasets([path])
    message = str(info.value)
    assert path.name in message
    for fragment in fragments:
        assert fragment.lower() in message.lower(), message
    assert "Traceback" not in message
    return message


def test_missing_file(tmp_path: Path) -> None:
    _raises(tmp_path / "nope.csv", "not found")


def test_directory(tmp_path: Path) -> None:
    (tmp_path / "folder.csv").mkdir()
    _raises(tmp_path / "folder.csv", "directory")


def test_zero_byte_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.csv"
    path.write_bytes(b"")
    _raises(path, "empty", "no rows")


@pytest.mark.parametrize("content", ["a,b,c\n", "a,b,c", "\n\n  \n"])
def test_header_only_or_blank(tmp_path: Path, content: str) -> None:
    path = tmp_path / "header.csv"
    path.write_text(content)
    _raises(path, "no rows")


def test_binary_csv(tmp_path: Path) -> None:
    path = tmp_path / "image.csv"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4)
    _raises(path, "binary")


def test_undecodable_text(tmp_path: Path) -> None:
    path = tmp_path / "garbled.csv"
    noise = random.Random(0).randbytes(4000).replace(b"\x00", b"")
    path.write_bytes(noise)
    _raises(path, "UTF-8")


def test_ragged_rows(tmp_path: Path) -> None:
    path = tmp_path / "ragged.csv"
    path.write_text("a,b,c\n1,2,3\n4,5,6,7\n")
    message = _raises(path, "line 3", "delimiter", "quot")
    assert "Expected" not in message  # ours, not pandas' wording


def test_unsupported_extension(tmp_path: Path) -> None:
    path = tmp_path / "notes.docx"
    path.write_bytes(b"PK\x03\x04")
    _raises(path, ".docx", ".csv", ".xlsx", ".parquet", ".json")


def test_old_xls_suggests_resave(tmp_path: Path) -> None:
    path = tmp_path / "old.xls"
    path.write_bytes(b"\xd0\xcf\x11\xe0")
    _raises(path, ".xlsx")


@pytest.mark.parametrize(
    ("name", "content", "kind"),
    [
        ("broken.xlsx", b"PK\x03\x04 this is not a zip", "Excel"),
        ("broken.parquet", b"PAR1 garbage bytes here", "Parquet"),
        ("broken.json", b'[{"a": 1}, {"a": ', "JSON"),
        ("broken.jsonl", b'{"a": 1}\n{"a": \n', "line 2"),
    ],
)
def test_corrupt_files(tmp_path: Path, name: str, content: bytes, kind: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    _raises(path, kind)


def test_json_of_wrong_shape(tmp_path: Path) -> None:
    path = tmp_path / "scalar.json"
    path.write_text("42")
    _raises(path, "array of records")


def test_excel_all_sheets_empty(tmp_path: Path) -> None:
    path = tmp_path / "blank.xlsx"
    pd.DataFrame().to_excel(path, index=False)
    _raises(path, "empty")


def test_empty_input_list() -> None:
    with pytest.raises(UserError, match="No data files"):
        load_datasets([])


def test_user_files_are_never_written(tmp_path: Path) -> None:
    paths = []
    csv = tmp_path / "a.csv"
    csv.write_text("d,n\n2023-01-05,1\n05/01/2023,2\n")
    xlsx = tmp_path / "b.xlsx"
    pd.DataFrame({"x": [1, 2]}).to_excel(xlsx, index=False)
    parquet = tmp_path / "c.parquet"
    pd.DataFrame({"y": [1.0]}).to_parquet(parquet)
    jsonl = tmp_path / "d.jsonl"
    jsonl.write_text('{"z": 1}\n')
    paths = [csv, xlsx, parquet, jsonl]
    past = 1_600_000_000
    for path in paths:
        os.utime(path, (past, past))
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in paths}
    listing = sorted(os.listdir(tmp_path))
    for ds in load_datasets(paths).values():
        profile_dataset(ds, "anything")
    assert {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in paths} == before
    assert sorted(os.listdir(tmp_path)) == listing  # no sidecar or lock files either


def test_column_names_lose_surrounding_spaces(tmp_path: Path) -> None:
    path = tmp_path / "baro.csv"
    original = "DATE, WINDSPEED ,DIR\n2015-01-01,5.5,90\n2015-01-02,6.5,180\n"
    path.write_text(original, encoding="utf-8")
    ds = only(load_datasets([path]))
    assert list(ds.frame.columns) == ["DATE", "WINDSPEED", "DIR"]
    assert ds.frame["WINDSPEED"].tolist() == [5.5, 6.5]
    assert ds.read_options["trimmed_names"] is True
    assert path.read_text(encoding="utf-8") == original


def test_names_kept_when_trimming_would_make_two_equal(tmp_path: Path) -> None:
    path = tmp_path / "twins.csv"
    path.write_text("a, a,b \n1,2,3\n", encoding="utf-8")
    ds = only(load_datasets([path]))
    assert list(ds.frame.columns) == ["a", " a", "b "]
    assert "trimmed_names" not in ds.read_options


def test_excel_names_are_trimmed_too(tmp_path: Path) -> None:
    path = tmp_path / "book.xlsx"
    pd.DataFrame({" price ": [1, 2], "qty": [3, 4]}).to_excel(path, index=False)
    assert list(only(load_datasets([path])).frame.columns) == ["price", "qty"]


def test_comment_lines_before_the_header_are_skipped(tmp_path):
    """A file that opens with a note (``# Data source: …``) is read from its header, and the way it
    was read is kept for the notebook's plain pandas line; a header whose first column is named '#'
    is a header."""
    from dsagent.reports.notebook import _plain_pandas

    noted = tmp_path / "prices.csv"
    noted.write_text("# Data source: a vendor\n# prices in USD\nDate,A,B\n2020-01-01,1.5,\n2020-02-01,2.5,3\n")
    ds = load_datasets({"p": str(noted)})["p"]
    assert list(ds.frame.columns) == ["Date", "A", "B"] and len(ds.frame) == 2 and ds.read_options["skiprows"] == 2
    assert "skiprows=2" in _plain_pandas(str(noted), None, ds.read_options)
    numbered = tmp_path / "pokemon.csv"
    numbered.write_text("#,Name,Type\n1,Bulbasaur,Grass\n2,Ivysaur,Grass\n")
    ds = load_datasets({"n": str(numbered)})["n"]
    assert list(ds.frame.columns) == ["#", "Name", "Type"] and "skiprows" not in ds.read_options
    single = tmp_path / "notes.csv"
    single.write_text("# a\n# b\n")  # only comments: read as it is (no table after them)
    assert load_datasets({"s": str(single)})["s"].frame.shape[0] == 1


def test_a_header_over_rows_with_quoted_thousands_is_no_title(tmp_path):
    """"4,749" is one field: counted as raw commas, every row had two more than the header, and the
    header was skipped as a title (the first row became the column names)."""
    votes = tmp_path / "votes.csv"
    rows = "".join(f'Q{i % 2},Area {i},"{i},749",57.3 %,"3,541",42.7 %\n' for i in range(12))
    votes.write_text("Question,Authority,Yes votes,Yes %,No votes,No %\n" + rows)
    ds = load_datasets({"v": str(votes)})["v"]
    assert list(ds.frame.columns)[:2] == ["Question", "Authority"] and len(ds.frame) == 12
    assert "skiprows" not in ds.read_options


def test_title_lines_before_the_header_are_skipped(tmp_path):
    """A report exported with a title, a date line and a blank line over its table is read from
    its header (pandas would read the title as a one-column header and fail on the first row). A
    header with one name fewer than its rows (an unnamed index column) is a header, not a title."""
    titled = tmp_path / "sales.csv"
    rows = "".join(f"r{i},{i},{i * 2.5}\n" for i in range(12))
    titled.write_text("Monthly sales report\nExported on 5 Jan, 2025\n\nregion,units,price\n" + rows)
    ds = load_datasets({"s": str(titled)})["s"]
    assert list(ds.frame.columns) == ["region", "units", "price"] and len(ds.frame) == 12
    assert ds.read_options["skiprows"] == 3
    indexed = tmp_path / "indexed.csv"
    indexed.write_text("units,price\n" + rows)
    ds = load_datasets({"i": str(indexed)})["i"]
    assert "skiprows" not in ds.read_options and len(ds.frame) == 12
    plain = tmp_path / "plain.csv"
    plain.write_text("region,units,price\n" + rows)
    assert "skiprows" not in load_datasets({"p": str(plain)})["p"].read_options
