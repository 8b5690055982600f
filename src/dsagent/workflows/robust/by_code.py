"""Seed 002's nodes 0, 2 and 3 decided by code when code already knows the answer.

Each of these nodes asks the model a question whose answer is, in the common case, a fact about
the question's words and the tables' columns: a question that names a column needs the data
(node 0); every column node 1B asked for exists (node 2); nothing is missing, so the analysis may
proceed (node 3). Code answers those exactly and at no cost (each model call re-reads its
instruction, ~20 ms a token, and writes its JSON at ~25 tokens/s). When code is not sure — no
column named, a required column that does not exist, a column mostly empty — the seed's model
call runs as before, so the loops (3 → 1B, 3 → 2, 3 → 1A) keep their meaning.

Setting ``decide_by_code`` (default on) switches this off, for the seed's model-only path.
Each function returns the node's output, in the seed's schema, or None: ask the model.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dsagent.data.catalog import Dataset
from dsagent.workflows.common.named import column_words, names_data, words

MOSTLY_EMPTY = 0.5
"""A required column with more than this share missing goes to the model (seed 002's node 3:
">50% missing" may be ``cannot_proceed``)."""


def understand(question: str, datasets: Mapping[str, Dataset]) -> dict[str, Any] | None:
    """Node 0: a question that names a column (or a table) of the loaded data needs the data."""
    named = names_data(question, datasets)
    if not named:
        return None
    return {"reasoning": f"decided by code: the question names {', '.join(named[:3])} of the loaded data",
            "needs_data_work": True}


def _missing(ds: Dataset, column: str) -> tuple[int, int]:
    """(missing, rows) of one column: exact for a table in memory; for a big file or a database
    table, of the rows dsagent holds (the sandbox still reads them all)."""
    series = ds.frame[column]
    return int(series.isna().sum()), int(len(series))


def profile(requirements: Mapping[str, Any] | None, datasets: Mapping[str, Dataset]) -> dict[str, Any] | None:
    """Node 2: every required column exists and none is mostly empty → the profile, by code."""
    needed = [str(v) for v in (requirements or {}).get("variables_needed") or []]
    if not needed or not datasets:
        return None
    by_words = column_words(datasets)
    found = [by_words.get(words(name)) if words(name) else None for name in needed]
    if not all(found):
        return None
    quality: dict[str, str] = {}
    for column in dict.fromkeys(f for f in found if f):
        ds = next(d for d in datasets.values() if column in map(str, d.frame.columns))
        missing, rows = _missing(ds, column)
        if rows and missing / rows > MOSTLY_EMPTY:
            return None
        if missing:
            quality[column] = f"{missing} of {rows} values missing"
    limitations = [f"{column} has missing values" for column in quality]
    return {"reasoning": "decided by code: every required column exists" + ("; some have missing values" if quality else ""),
            "available_columns": [f for f in found if f], "missing_columns": [], "data_quality": quality,
            "limitations": limitations, "is_suitable": True}


def alignment(data_profile: Mapping[str, Any] | None, requirements: Mapping[str, Any] | None,
              datasets: Mapping[str, Dataset]) -> dict[str, Any] | None:
    """Node 3: when node 2's profile was made by code and every column the *current* requirements
    name is still there (node 1B may have revised them since; node 2 then reuses its profile), the
    data aligns; missing values are caveats, as the seed's node 3 would have it ("proceed with
    caveats"). A profile the model made (a loop asked to look again) goes to the model."""
    if not data_profile or not str(data_profile.get("reasoning", "")).startswith("decided by code"):
        return None
    current = profile(requirements, datasets)
    if current is None:
        return None
    caveats = list(current.get("limitations") or [])
    return {"reasoning": "decided by code: every required column exists", "aligned": True, "gaps": [],
            "caveats": caveats, "recommendation": "proceed_with_caveats" if caveats else "proceed"}
