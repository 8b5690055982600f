"""Numbers a file writes as text ("4,749", "57.3 %") read as numbers when the whole column agrees.

pandas reads a column of ``"4,749"`` or ``"57.3 %"`` as text, and the code a model writes then sums
strings (which glues them together) or compares them as text. The profile's format warning alone did
not stop that, so the loader reads such a column as numbers, but only when every value in it has one
shape: digits with comma thousands separators (at least one value has a separator, groups of three,
no leading zero, so codes like ``"007,123"`` stay text), digits grouped by blanks as European
exports and the SI write them (``"1 234 567"``, ``"6.644 657 3450 e-27"``: groups of three before
the point and after it, a power of ten after a blank; not when every value has the same seven or
more digits, as identifiers and telephone numbers have), or a number followed by a percent sign
(read as the percentage, 57.3, not the fraction 0.573). Anything else in the column (a placeholder,
a unit, a currency sign, a decimal comma) leaves the column as text for the clean workflow to judge.
One placeholder is read as missing: "..", the mark official statistics (ONS, OECD, the World Bank)
write for "not available", which pandas does not know; a column of numbers with ".." among them is
read as numbers with those values missing (not "-", which some tables write for zero).
``read_options['numbers_from_text']`` records each converted column with one value as it was
written, and ``read_options['missing_marks']`` each column where ".." was read as missing, so the
profile can say so and an exported notebook can repeat it.
"""

from __future__ import annotations

import pandas as pd

THOUSANDS, SPACED, PERCENT = "thousands", "spaced", "percent"
MISSING_MARK = ".."
BLANKS = "[ \u00a0\u202f\u2009]"
"""The blanks that group digits: a space, a no-break space, a narrow no-break and a thin space."""
_NUMBER = r"[-+]?(?:0|[1-9]\d{0,2}(?:,\d{3})*|[1-9]\d*)(?:\.\d+)?"
_GROUPED = (rf"-?(?:0|[1-9]\d{{0,2}}(?:{BLANKS}\d{{3}})*|[1-9]\d*)"
            rf"(?:\.(?:\d{{3}}(?:{BLANKS}\d{{3}})*(?:{BLANKS}\d{{1,4}})?|\d+))?(?:{BLANKS}?[eE][-+]?\d+)?")
"""Groups of three before the point; after it, groups of three and a last one of up to four (the
SI's and NIST's "6.644 657 3450"), or plain digits; a power of ten. No "+": "+48 601 234 567" is
a telephone number."""
_SHAPES = {THOUSANDS: (_NUMBER, r","), SPACED: (_GROUPED, BLANKS), PERCENT: (rf"{_NUMBER}\s?%", r"[,%\s]")}
_WRITTEN = rf",|%|\d{BLANKS}\d"
_SAMPLE = 20_000


def written_pattern(shape: str) -> str:
    """The regular expression (RE2 too: DuckDB checks a big file with it) that every value of a
    column of ``shape`` ("thousands", "spaced", "percent", or "number": plain numbers with ".."
    among them) matches, the marks left aside."""
    return _SHAPES[shape][0] if shape in (PERCENT, SPACED) else _NUMBER


def shapes_of(converted: dict[str, str], marked: dict[str, str]) -> dict[str, str]:
    """Each column :func:`numbers_from_text` read as numbers -> its shape ("percent", "thousands",
    "spaced", or "number" when only ".." made it text), told by the value it shows as written."""
    shapes = {}
    for name in dict.fromkeys([*converted, *marked]):
        shown = converted.get(name, "")
        shapes[name] = (PERCENT if "%" in shown else THOUSANDS if "," in shown else SPACED if shown else "number")
    return shapes


def numbers_from_text(frame: pd.DataFrame) -> tuple[dict[str, str], dict[str, str]]:
    """Convert, in place, each text column of ``frame`` whose values all read as one kind of number
    (".." read as missing); return ``{column: one value as written}`` for the converted columns and
    ``{column: ".."}`` for those where the mark was read as missing (both empty when none)."""
    converted: dict[str, str] = {}
    marked: dict[str, str] = {}
    for position, name in enumerate(frame.columns):
        column = frame.iloc[:, position]
        if not isinstance(name, str) or not (column.dtype == object or pd.api.types.is_string_dtype(column.dtype)):
            continue
        read = _as_numbers(column)
        if read is None:
            continue
        numbers, has_marks, example = read
        if has_marks:
            marked[name] = MISSING_MARK
        if example is not None:
            converted[name] = example
        frame.isetitem(position, numbers)
    return converted, marked


def _as_numbers(column: pd.Series) -> tuple[pd.Series, bool, str | None] | None:
    """The column as numbers, whether ".." was among its values, and one value written with a
    separator or a percent sign (None when only the marks made it text); None when it stays text."""
    present = column.dropna()
    if present.empty or not all(isinstance(v, str) for v in present.head(_SAMPLE)):
        return None
    text = present.astype(str).str.strip()
    marks = text == MISSING_MARK
    text = text[~marks]
    written = text[text.str.contains(_WRITTEN, regex=True)]
    if text.empty or not (marks.any() or len(written)):
        return None
    for kind, (pattern, strip) in _SHAPES.items():
        if not text.str.fullmatch(pattern).all():
            continue
        bare = text.str.replace(strip, "", regex=True)
        if kind == SPACED and _identifiers(bare):
            return None
        values = pd.to_numeric(bare, errors="coerce")
        if values.isna().any():
            return None
        out = pd.Series(float("nan"), index=column.index, dtype="float64")
        out[values.index] = values
        whole = (kind in (THOUSANDS, SPACED) and (values % 1 == 0).all() and column.notna().all() and not marks.any()
                 and values.abs().max() < 2**53 and not bare.str.contains("[eE]").any())
        return (out.astype("int64") if whole else out), bool(marks.any()), (written.iloc[0] if len(written) else None)
    return None


def _identifiers(bare: pd.Series) -> bool:
    """Every value the same count of seven or more digits: a company register's or a telephone
    number ("732 829 320", "601 234 567"), which quantities measured in one column rarely are."""
    widths = bare.str.len()
    return bool(bare.str.fullmatch(r"\d+").all() and widths.min() == widths.max() >= 7)
