"""JSON and JSON Lines text read into one data frame, with errors a user can act on.

A file named ``.json`` that holds one object per line ("Extra data" after the first) is read as
JSON Lines; a lone wrapper key (``{"data": [...]}``, common in API dumps) is unwrapped.
"""

from __future__ import annotations

import json

import pandas as pd

from dsagent.errors import UserError


def frame_from_json_text(name: str, text: str, lines: bool) -> tuple[pd.DataFrame, str]:
    """The frame the decoded text of file ``name`` holds and the format it was read as ("json" or
    "jsonl"); a :class:`UserError` naming the line and the fix when it is not valid JSON."""
    if not lines:
        try:
            return _frame_from_json(name, json.loads(text)), "json"
        except json.JSONDecodeError as exc:
            if exc.msg != "Extra data":
                raise UserError(
                    f"{name}: could not be parsed as JSON (line {exc.lineno}, column {exc.colno}: "
                    f"{exc.msg}). Fix the JSON, or save one record per line as .jsonl."
                ) from None
            # "Extra data" right after a first object: it is JSON Lines with a .json name.
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError as exc:
            raise UserError(
                f"{name}: line {number} could not be parsed as JSON ({exc.msg}). "
                "Each line of a JSON Lines file must be one complete JSON object."
            ) from None
    return _frame_from_json(name, records), "jsonl"


def _frame_from_json(name: str, data: object) -> pd.DataFrame:
    # A lone wrapper key ({"data": [...]}) is common in API dumps: unwrap it.
    if isinstance(data, dict) and len(data) == 1 and isinstance(next(iter(data.values())), list):
        inner = next(iter(data.values()))
        if inner and all(isinstance(r, dict) for r in inner):
            data = inner
    if isinstance(data, list) and all(isinstance(r, dict) for r in data):
        return pd.DataFrame.from_records(data)
    if isinstance(data, dict) and all(isinstance(v, (list, dict)) for v in data.values()):
        try:
            return pd.DataFrame(data)
        except ValueError as exc:
            raise UserError(f"{name}: the JSON columns do not line up ({exc}).") from None
    raise UserError(
        f"{name}: JSON must be an array of records ([{{...}}, ...]) or an object of columns "
        '({"col": [...]}); this file is neither.'
    )
