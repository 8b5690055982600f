"""Read one user file into data frames. Files are opened read-only and never written.

Every failure a user can fix (wrong path, odd encoding, ragged rows, corrupt workbook) becomes a
:class:`UserError` naming the file and the fix, never a pandas traceback.
"""

from __future__ import annotations

import codecs
import csv
import os
import re
import stat
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from dsagent.data.jsontext import frame_from_json_text
from dsagent.data.textnumbers import numbers_from_text
from dsagent.errors import UserError

TEXT_EXTENSIONS = (".csv", ".tsv", ".tab", ".txt")
EXCEL_EXTENSIONS = (".xlsx", ".xlsm")
PARQUET_EXTENSIONS = (".parquet", ".pq")
JSON_EXTENSIONS = (".json",)
JSONL_EXTENSIONS = (".jsonl", ".ndjson")
SUPPORTED = TEXT_EXTENSIONS + EXCEL_EXTENSIONS + PARQUET_EXTENSIONS + JSON_EXTENSIONS + JSONL_EXTENSIONS

_SNIFF_BYTES = 1 << 20
_PREAMBLE_MAX = 10
"""At most this many comment lines before a header are skipped (a longer run is read as data)."""
_DELIMITERS = ",;\t|"
# Characters a Western (cp1252) text plausibly contains; anything else suggests another code page.
_WESTERN_EXTRA = set("€‘’‚“”„–—…•°£¥§©®±²³µ¶·¹º»«½¼¾×÷¢¤¦¨¯´¸¿¡ªŒœŠšŽžŸƒ†‡‰‹›˜™ˆ\xa0")
_RAGGED = re.compile(r"Expected (\d+) fields in line (\d+), saw (\d+)")


@dataclass
class LoadedFrame:
    """One table read from a file; an Excel workbook yields one per non-empty sheet."""

    frame: pd.DataFrame
    sheet: str | None = None
    read_options: dict = field(default_factory=dict)


def read_file(path: Path) -> list[LoadedFrame]:
    """Read ``path`` into one or more frames, or raise :class:`UserError` saying what to fix."""
    path = Path(path).expanduser()
    try:
        return _read_checked(path)
    except OSError as exc:  # a folder on the way we may not enter, a file that changed under us
        raise UserError(f"{path.name}: cannot be read ({exc.strerror or exc}). Check the path and its permissions.") from None


def _read_checked(path: Path) -> list[LoadedFrame]:
    if not path.exists():
        raise UserError(f"{path}: file not found. Check the path and the spelling of the name.")
    if path.is_dir():
        raise UserError(f"{path}: is a directory. Pass the data files inside it, not the folder.")
    _check_regular_and_readable(path)
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED:
        hint = " Re-save it as .xlsx." if suffix == ".xls" else ""
        raise UserError(
            f"{path.name}: unsupported file type '{suffix or '(none)'}'.{hint} "
            f"Supported: {', '.join(SUPPORTED)}."
        )
    if path.stat().st_size == 0:
        raise UserError(f"{path.name}: the file is empty (0 bytes); it has no rows to analyse.")
    if suffix in EXCEL_EXTENSIONS:
        loaded = _read_excel(path)
    elif suffix in PARQUET_EXTENSIONS:
        loaded = [_checked(path, _read_parquet(path))]
    elif suffix in JSON_EXTENSIONS or suffix in JSONL_EXTENSIONS:
        loaded = [_checked(path, _read_json(path, lines=suffix in JSONL_EXTENSIONS))]
    else:
        loaded = [_read_text_table(path)]
    return [_read_numbers(_trimmed_names(part)) for part in loaded]


_SPECIAL = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISCHR, "a character device"),
            (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _check_regular_and_readable(path: Path) -> None:
    """A data file must be a regular file we may read. A FIFO, a device (``/dev/zero``) or a socket —
    or a link to one — is named as such without being opened (reading one can block or never end);
    a file we may not read says so, with the system's reason."""
    try:
        st = path.stat()  # follows links: a link to /dev/zero is judged by /dev/zero
    except OSError as exc:
        raise UserError(f"{path}: cannot be read ({exc.strerror or exc}). Check the path and its permissions.") from None
    if not stat.S_ISREG(st.st_mode):
        kind = next((name for test, name in _SPECIAL if test(st.st_mode)), "not a regular file")
        target = f" (a link to {os.path.realpath(path)})" if path.is_symlink() else ""
        raise UserError(f"{path.name}: is {kind}{target}, not a data file. Pass a regular file (CSV, Excel, Parquet, JSON).")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        hint = " Check its permissions (ls -l), or copy it somewhere you can read." if isinstance(exc, PermissionError) else ""
        raise UserError(f"{path.name}: cannot be read ({exc.strerror or exc}).{hint}") from None
    os.close(fd)


def _trimmed_names(loaded: LoadedFrame) -> LoadedFrame:
    """Column names without surrounding spaces (``' WINDSPEED'`` → ``'WINDSPEED'``), as people say them.

    A header written ``DATE, WINDSPEED`` is read by pandas with the space kept, and every question
    that names the column then fails on a KeyError. Left alone when trimming would make two names
    equal; ``read_options['trimmed_names']`` records the change so an exported notebook repeats it.
    """
    names = list(loaded.frame.columns)
    trimmed = [name.strip() if isinstance(name, str) else name for name in names]
    if trimmed == names or len(set(trimmed)) < len(trimmed):
        return loaded
    loaded.frame.columns = trimmed
    loaded.read_options = {**loaded.read_options, "trimmed_names": True}
    return loaded


def _read_numbers(loaded: LoadedFrame) -> LoadedFrame:
    """Text columns of numbers written "4,749" or "57.3 %", or with ".." for missing, read as
    numbers (:mod:`.textnumbers`)."""
    converted, marked = numbers_from_text(loaded.frame)
    if converted:
        loaded.read_options = {**loaded.read_options, "numbers_from_text": converted}
    if marked:
        loaded.read_options = {**loaded.read_options, "missing_marks": marked}
    return loaded


def _checked(path: Path, loaded: LoadedFrame) -> LoadedFrame:
    if len(loaded.frame) == 0:
        raise UserError(f"{path.name}: the file has no rows (only a header or an empty table).")
    return loaded


# --- CSV / TSV ------------------------------------------------------------------------------


def _read_text_table(path: Path) -> LoadedFrame:
    with path.open("rb") as fh:
        head = fh.read(_SNIFF_BYTES)
    encoding = detect_encoding(path.name, head)
    text = head.decode(encoding, errors="ignore")
    skip = preamble_lines(text)
    if skip:
        text = "\n".join(text.splitlines()[skip:]) + "\n"
    if path.suffix.lower() in (".tsv", ".tab"):
        sep = "\t"
    else:
        sep = sniff_delimiter(text)
    try:
        frame = _read_csv(path, sep, encoding, skip)
    except UnicodeDecodeError:
        # The sniffed head was clean UTF-8 but a later byte is not: typically one cp1252 "é".
        if encoding not in ("utf-8", "utf-8-sig"):
            raise UserError(_reencode_msg(path.name)) from None
        encoding = "cp1252"
        try:
            frame = _read_csv(path, sep, encoding, skip)
        except UnicodeDecodeError:
            raise UserError(_reencode_msg(path.name)) from None
    if frame.shape[1] == 0 or len(frame) == 0:
        raise UserError(f"{path.name}: the file has a header but no data rows; it has no rows to analyse.")
    options = {"encoding": encoding, "delimiter": sep} | ({"skiprows": skip} if skip else {})
    return LoadedFrame(frame, read_options=options)


def preamble_lines(text: str) -> int:
    """How many leading lines come before the header: comments (``# Data source: …``) or a report's
    title lines (:func:`_title_lines`). Comments are lines that start with ``#`` (at most ten) whose
    count of the table's delimiter differs from the header's. A header whose first column is named
    ``#`` (``#,name,type``) has the header's count and is no comment; 0 when there is none."""
    lines = text.splitlines()
    count = 0
    while count < min(len(lines) - 1, _PREAMBLE_MAX) and lines[count].lstrip("\ufeff \t").startswith("#"):
        count += 1
    if count == 0:
        return _title_lines(lines)
    sep = sniff_delimiter("\n".join(lines[count:]) + "\n")
    width = lines[count].count(sep)
    return count if width and all(line.count(sep) != width for line in lines[:count]) else 0


def _delimiters(line: str, sep: str) -> int:
    """How many delimiters ``line`` holds outside quotes (``"4,749"`` is one field, not two)."""
    if '"' not in line:
        return line.count(sep)
    try:
        return len(next(csv.reader([line], delimiter=sep))) - 1
    except (csv.Error, StopIteration):
        return line.count(sep)


def _title_lines(lines: list[str]) -> int:
    """How many leading lines are a title over the table ("Monthly sales report", an export date, a
    blank line): at most ten, each with fewer delimiters than the table's rows, then a header and
    three rows with the rows' count. A line just over the header with one delimiter fewer is itself
    the header of rows that carry an unnamed index column: then nothing is skipped (0, as when there
    is no title)."""
    head = [line for line in lines[:60] if line.strip()]
    best = None
    for sep in _DELIMITERS:
        counts = [_delimiters(line, sep) for line in head]
        width = max(set(counts), key=counts.count) if counts else 0
        if width and counts.count(width) >= 0.6 * len(counts) and (best is None or width > best[1]):
            best = (sep, width)
    if best is None:
        return 0
    sep, width = best
    start = next((i for i, line in enumerate(lines[:_PREAMBLE_MAX + 1]) if _delimiters(line, sep) == width), None)
    if not start or any(_delimiters(line, sep) >= width for line in lines[:start]):
        return 0
    if lines[start - 1].strip() and _delimiters(lines[start - 1], sep) >= width - 1:  # a header one name short
        return 0
    after = lines[start + 1:start + 4]
    return start if len(after) == 3 and all(_delimiters(line, sep) == width for line in after) else 0


def _read_csv(path: Path, sep: str, encoding: str, skip: int = 0) -> pd.DataFrame:
    try:
        return pd.read_csv(path, sep=sep, encoding=encoding, encoding_errors="strict", low_memory=False, skiprows=skip or None)
    except pd.errors.EmptyDataError:
        raise UserError(f"{path.name}: the file has no columns or rows; it has no rows to analyse.") from None
    except pd.errors.ParserError as exc:
        shown = {"\t": "tab"}.get(sep, repr(sep))
        match = _RAGGED.search(str(exc))
        if match:
            want, line, got = match.groups()
            raise UserError(
                f"{path.name}: line {line} has {got} fields but the header has {want} "
                f"(delimiter {shown}). Check the delimiter, and quote values that contain it."
            ) from None
        raise UserError(
            f"{path.name}: could not be parsed as a delimited table (delimiter {shown}): "
            f"{str(exc).strip()}. Check the delimiter and quoting."
        ) from None


def detect_encoding(name: str, head: bytes) -> str:
    """UTF-8 (with or without BOM) first, then Western cp1252/latin-1, then charset-normalizer."""
    if head.startswith(codecs.BOM_UTF8):
        return "utf-8-sig"
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    if b"\x00" in head:
        raise UserError(
            f"{name}: looks like a binary file, not text (it contains NUL bytes). "
            "If it is a spreadsheet or Parquet file, give it the right extension; otherwise export it as CSV."
        )
    try:
        # A final=False decoder tolerates a multibyte character cut at the end of the sample.
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
        return "utf-8"
    except UnicodeDecodeError:
        pass
    for western in ("cp1252", "latin-1"):
        try:
            text = head.decode(western)
        except UnicodeDecodeError:
            continue
        # Stray C1 control bytes (latin-1 0x80-0x9F) neither prove nor disprove a Western file.
        odd = [c for c in text if not c.isascii() and unicodedata.category(c) != "Cc"]
        plausible = sum(1 for c in odd if c in _WESTERN_EXTRA or _is_latin_letter(c))
        # Accented letters are a minority in real Western text; random bytes are half high bytes.
        if plausible >= 0.9 * len(odd) and len(odd) <= 0.3 * len(text) and not _controls(text):
            return western
    from charset_normalizer import from_bytes

    best = from_bytes(head).best()
    if best is None:
        raise UserError(_reencode_msg(name, binary=True))
    return best.encoding


def _controls(text: str) -> bool:
    return sum(1 for c in text if c < " " and c not in "\t\r\n") > 0.01 * len(text)


def _is_latin_letter(char: str) -> bool:
    return char.isalpha() and unicodedata.name(char, "").startswith("LATIN")


def _reencode_msg(name: str, binary: bool = False) -> str:
    maybe = " (it may be binary)" if binary else ""
    return f"{name}: could not work out its text encoding{maybe}. Re-save it as UTF-8 (CSV UTF-8) and try again."


def sniff_delimiter(text: str) -> str:
    """csv.Sniffer on whole lines among , ; tab |, checked against per-line counts."""
    lines = [ln for ln in text.splitlines()[:50] if ln.strip()]
    if len(lines) > 1 and not text.endswith(("\n", "\r")):
        lines = lines[:-1]  # the last sniffed line may be cut mid-way
    if not lines:
        return ","
    sample = "\n".join(lines)
    try:
        sep = csv.Sniffer().sniff(sample, delimiters=_DELIMITERS).delimiter
        if sep in lines[0]:
            return sep
    except csv.Error:
        pass
    # Sniffer gives up on quoted or irregular samples: take the delimiter the header uses most
    # whose count is steady across lines.
    best, best_score = ",", 0
    for sep in _DELIMITERS:
        counts = [ln.count(sep) for ln in lines]
        if counts[0] == 0:
            continue
        steady = sum(c == counts[0] for c in counts) / len(counts)
        score = steady * counts[0]
        if score > best_score:
            best, best_score = sep, score
    return best


# --- Excel, Parquet, JSON -------------------------------------------------------------------


def _read_excel(path: Path) -> list[LoadedFrame]:
    try:
        sheets = pd.read_excel(path, sheet_name=None, engine="openpyxl")
    except Exception as exc:  # openpyxl raises zipfile, KeyError, XML errors... all mean "corrupt"
        raise UserError(
            f"{path.name}: could not be parsed as an Excel workbook ({type(exc).__name__}). "
            "Open it in Excel and re-save it as .xlsx, or export the sheet as CSV."
        ) from None
    loaded = [
        LoadedFrame(frame, sheet=str(name), read_options={"sheet": str(name)})
        for name, frame in sheets.items()
        if len(frame) > 0 and frame.shape[1] > 0
    ]
    if not loaded:
        raise UserError(f"{path.name}: every sheet in the workbook is empty; there are no rows to analyse.")
    return loaded


def _read_parquet(path: Path) -> LoadedFrame:
    try:
        return LoadedFrame(pd.read_parquet(path))
    except Exception as exc:  # pyarrow's ArrowInvalid / OSError for truncated or non-Parquet files
        raise UserError(
            f"{path.name}: could not be parsed as a Parquet file ({exc}). Re-export it, or use CSV."
        ) from None


def _read_json(path: Path, lines: bool) -> LoadedFrame:
    raw = path.read_bytes()
    if b"\x00" in raw[:_SNIFF_BYTES] and not raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise UserError(f"{path.name}: looks like a binary file, not JSON text (it contains NUL bytes).")
    try:
        text = raw.decode(detect_encoding(path.name, raw[:_SNIFF_BYTES]))
    except UnicodeDecodeError:
        raise UserError(_reencode_msg(path.name)) from None
    if not text.strip():
        raise UserError(f"{path.name}: the file is empty; it has no rows to analyse.")
    frame, form = frame_from_json_text(path.name, text, lines)
    return LoadedFrame(frame, read_options={"format": form})
