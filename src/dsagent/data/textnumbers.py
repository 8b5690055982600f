"""Numbers a file writes as text ("4,749", "57.3 %") read as numbers when the whole column agrees.

pandas reads a column of ``"4,749"`` or ``"57.3 %"`` as text, and the code a model writes then sums
strings (which glues them together) or compares them as text. The profile's format warning alone did
not stop that, so the loader reads such a column as numbers, but only when every value in it has one
shape: digits with comma thousands separators (at least one value has a separator, groups of three,
no leading zero, so codes like ``"007,123"`` stay text), or a number followed by a percent sign
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

THOUSANDS, PERCENT = "thousands", "percent"
MISSING_MARK = ".."
_NUMBER = r"[-+]?(?:0|[1-9]\d{0,2}(?:,\d{3})*|[1-9]\d*)(?:\.\d+)?"
_SHAPES = {THOUSANDS: (_NUMBER, r","), PERCENT: (rf"{_NUMBER}\s?%", r"[,%\s]")}
_SAMPLE = 20_000


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
        numbers = _as_numbers(column)
        if numbers is not None:
            shown = column.dropna().astype(str).str.strip()
            if (shown == MISSING_MARK).any():
                marked[name] = MISSING_MARK
                shown = shown[shown != MISSING_MARK]
            if shown.str.contains(",|%", regex=True).any():
                converted[name] = next(v for v in shown if "," in v or "%" in v)
            frame.isetitem(position, numbers)
    return converted, marked


def _as_numbers(column: pd.Series) -> pd.Series | None:
    present = column.dropna()
    if present.empty or not all(isinstance(v, str) for v in present.head(_SAMPLE)):
        return None
    text = present.astype(str).str.strip()
    marks = text == MISSING_MARK
    text = text[~marks]
    if text.empty or not (marks.any() or text.str.contains(",|%", regex=True).any()):
        return None
    for kind, (pattern, strip) in _SHAPES.items():
        if not text.str.fullmatch(pattern).all():
            continue
        values = pd.to_numeric(text.str.replace(strip, "", regex=True), errors="coerce")
        if values.isna().any():
            return None
        out = pd.Series(float("nan"), index=column.index, dtype="float64")
        out[values.index] = values
        whole = kind == THOUSANDS and (values % 1 == 0).all() and column.notna().all() and not marks.any()
        return out.astype("int64") if whole else out
    return None
