"""What the code computed, as text the grounding check reads: outputs, their numbers, the data's labels.

See :mod:`dsagent.workflows.common.grounding`.
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

_OUTPUT_NUMBER = re.compile(r"-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?|-?\.\d+")
# Data values that prose uses as ordinary words ("No missing values"): not taken for labels.
_COMMON_WORDS = {"yes", "no", "true", "false", "none", "nan", "null", "other", "others", "unknown", "total", "all",
                 "n/a", "na", "ok", "mean", "average", "high", "low", "medium", "a", "an", "the", "and", "or"}
MAX_LABELS = 20_000
MAX_TABLE_CHARS = 200_000


def outputs_text(outputs: Any) -> str:
    """All computed outputs as one text: a string, an ``execution_result`` dict (result, printed
    output, chart data, saved result tables), a mapping or a list of them, or any value's str()."""
    if outputs is None:
        return ""
    if isinstance(outputs, str):
        return outputs
    if isinstance(outputs, Mapping):
        parts = []
        for key, value in outputs.items():
            if key == "tables":
                parts += [_table_text(path) for path in value or []]
            elif key in ("figures", "type", "duration_s") or value is None:
                continue
            else:
                parts.append(outputs_text(value))
        return "\n".join(parts)
    if isinstance(outputs, (list, tuple, set)):
        return "\n".join(outputs_text(o) for o in outputs)
    return str(outputs)


def _table_text(path: Any) -> str:
    """A saved result table's text and its row count (an explanation may say how many rows it has)."""
    try:
        p = Path(str(path))
        text = p.read_text(errors="replace")[:MAX_TABLE_CHARS] if p.is_file() else ""
    except OSError:
        return ""
    rows = max(len(text.strip().splitlines()) - 1, 0)
    return f"{text}\n({rows} rows)" if text else ""


def computed_numbers(text: str) -> list[float]:
    """Every number in the outputs, plus the length of a list or dict the outputs print whole."""
    numbers = []
    for token in _OUTPUT_NUMBER.findall(text):
        try:
            value = float(token.replace(",", ""))
        except ValueError:
            continue
        if math.isfinite(value):
            numbers.append(value)
    stripped = text.strip()
    if stripped[:1] in "[{(":
        try:
            value = ast.literal_eval(stripped)
            if isinstance(value, (list, dict, tuple, set)):
                numbers.append(float(len(value)))
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            pass
    return numbers


def data_labels(datasets: Any, limit: int = MAX_LABELS) -> list[str]:
    """The text values of the datasets' columns (the names a finding can state), longest first.

    ``datasets``: a mapping of id → DataFrame or of objects with a ``.frame`` (the session's).
    Values that are numbers, single characters or longer than 60 characters are left out.
    """
    labels: set[str] = set()
    frames = datasets.values() if isinstance(datasets, Mapping) else (datasets or [])
    for item in frames:
        frame = getattr(item, "frame", item)
        for column in getattr(frame, "columns", []):
            series = frame[column]
            if str(series.dtype) not in ("object", "category", "string", "str") and not str(series.dtype).startswith("string"):
                continue
            for value in series.dropna().unique()[:limit]:
                text = str(value).strip()
                if text.lower() not in _COMMON_WORDS and 2 <= len(text) <= 60 and re.search(r"[A-Za-z\u00c0-\uffff]", text) and not is_number(text):
                    labels.add(text)
            if len(labels) >= limit:
                break
    return sorted(labels, key=lambda s: (-len(s), s))


def data_facts(datasets: Any) -> str:
    """What an explanation may state about the data itself: each dataset's rows, columns and column names."""
    facts = []
    frames = datasets.values() if isinstance(datasets, Mapping) else (datasets or [])
    for item in frames:
        frame = getattr(item, "frame", item)
        shape = getattr(item, "shape", None)  # a session Dataset's: a big file's rows, not its sample's
        if shape is not None:
            facts.append(f"{shape[0]} rows, {shape[1]} columns: " + ", ".join(map(str, frame.columns)))
    return "\n".join(facts)


def is_number(text: str) -> bool:
    """Whether ``text`` reads as one number (thousands commas allowed)."""
    try:
        float(text.replace(",", ""))
        return True
    except ValueError:
        return False


# --- the result of a run, read as one value ------------------------------------------------

def result_of(outputs: Any) -> Any:
    if isinstance(outputs, Mapping):
        for key in ("result_str", "result"):
            if outputs.get(key) is not None:
                return outputs[key]
    return outputs


def single_number(outputs: Any) -> float | None:
    """The result's value when it is one number (``16.08``, ``np.float64(16.08)``), else None."""
    result = outputs_text(result_of(outputs)).strip()
    match = re.fullmatch(r"(?:np\.\w+\()?(-?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?)\)?", result)
    if not match:
        return None
    try:
        return float(match.group(1).replace(",", ""))
    except ValueError:
        return None


def one_cell(outputs: Any) -> float | None:
    """The number of a one-cell table's result, else None."""
    lines = [line for line in outputs_text(result_of(outputs)).strip().splitlines() if line.strip()]
    try:
        return float(lines[-1].split()[-1].replace(",", "")) if len(lines) == 2 else None
    except ValueError:
        return None


def single_value(outputs: Any) -> str | None:
    """The result as shown when it is one value (a number, a one-cell table), else None."""
    shown = outputs_text(result_of(outputs)).strip()
    lines = [line for line in shown.splitlines() if line.strip()]
    if len(lines) == 1 and len(lines[0].split()) <= 2:
        return shown
    if len(lines) == 2 and len(lines[1].split()) == 2 and len(lines[0].split()) == 1:  # a one-cell DataFrame
        return shown
    return None
