"""From findings, the seed's default policy and the user's words to an ordered plan of steps.

A step is ``{n, kind, column, params, what, why, source}``; ``snippets.snippet(step)`` is its code.
The seed's default policy (drop columns > 40 % missing, impute mean / mode, fix types, drop
duplicates, drop rows with missing values, drop 3×IQR outliers) is a dict of switches that the
user's instructions (read by the model, and by :func:`switches_from_words` for the plain phrases
whose meaning is not in doubt) turn on or off.
"""

from __future__ import annotations

import re
from typing import Any

POLICY: dict[str, bool] = {
    "drop_sparse_columns": True,
    "impute_missing": True,
    "fix_types": True,
    "drop_duplicates": True,
    "drop_missing_rows": True,
    "drop_outliers": True,
}
"""The seed's default steps, all on unless the user's instructions say otherwise."""

POLICY_TEXT = {
    "drop_sparse_columns": ("Drop columns with more than 40 % missing values", "a column that is mostly empty carries little information"),
    "impute_missing": ("Impute missing values: the mean in numeric columns (rounded in whole-number columns), the most frequent value in text columns",
                       "keeps every row usable for analysis"),
    "fix_types": ("Convert columns to their correct data types", "numbers and dates stored as text cannot be computed with"),
    "drop_duplicates": ("Remove duplicate rows (after the values are cleaned)", "a repeated record counts twice in every total"),
    "drop_missing_rows": ("Remove rows that still have missing values", "the seed's default: analysis gets complete rows only"),
    "drop_outliers": ("Remove rows with extreme outliers (beyond 3× the interquartile range)", "the seed's default: extreme values distort means and models"),
}

_FINDING_TEXT = {
    "whitespace": ("Strip spaces around the text values of {col}", "{detail}"),
    "placeholder": ("Turn placeholder values in {col} into missing values", "{detail}"),
    "number_text": ("Parse {col} as numbers", "{detail}"),
    "date_text": ("Parse {col} as dates (written YYYY-MM-DD)", "{detail}"),
    "impossible": ("Set impossible values of {col} to missing", "{detail}"),
    "format": ("Write {col} in the column's own format", "{detail}"),
    "spelling": ("Fold variant spellings of {col} into the most frequent one", "{detail}"),
    "group_conflict": ("Make {col} agree within each {key}", "{detail}"),
    "rule_conflict": ("Set {col} where its row's {key} contradicts it", "{detail}"),
}
ORDER = ["whitespace", "placeholder", "number_text", "date_text", "impossible", "format", "spelling", "group_conflict", "rule_conflict",
         "drop_sparse_columns", "impute_missing", "drop_duplicates", "drop_missing_rows", "drop_outliers"]
TYPE_KINDS = {"number_text", "date_text"}
ROW_DROPS = {"drop_missing_rows", "drop_outliers"}

_NEG = r"(?:do not|don't|dont|never|no|without|avoid|not)"
_WORD_RULES: list[tuple[str, dict[str, bool]]] = [
    (r"\bkeep\b[^.;]*\b(?:every|all|each)\b(?!\s+(?:the\s+)?columns?\b)", {"drop_missing_rows": False, "drop_outliers": False}),
    (_NEG + r"\b[^.;]*\b(?:drop|remove|delete|lose)\b[^.;]*\b(?:records?|rows?)\b", {"drop_missing_rows": False, "drop_outliers": False}),
    (r"\bkeep\b[^.;]*\boutliers?\b|" + _NEG + r"\b[^.;]*\b(?:drop|remove)\b[^.;]*\boutliers?\b", {"drop_outliers": False}),
    (_NEG + r"\b[^.;]*\b(?:impute|imputation|fill)\b|\bleave\b[^.;]*\bmissing\b", {"impute_missing": False}),
    # fixing placeholders makes them missing values; inventing values for them is another step the user did not ask for
    (r"\bplaceholders?\b|\bkeep\b[^.;]*\b(?:every|all|each)\b[^.;]*\bvalues?\b", {"impute_missing": False}),
    (r"\bkeep\b[^.;]*\bduplicates?\b|" + _NEG + r"\b[^.;]*\b(?:drop|remove)\b[^.;]*\bduplicat", {"drop_duplicates": False}),
    (r"\bkeep\b[^.;]*\b(?:every|all)\b[^.;]*\bcolumns?\b|" + _NEG + r"\b[^.;]*\b(?:drop|remove)\b[^.;]*\bcolumns?\b", {"drop_sparse_columns": False}),
    (r"\b(?:drop|remove)\b[^.;]*\boutliers?\b", {"drop_outliers": True}),
]


def switches_from_words(instructions: str) -> dict[str, bool]:
    """Policy switches that plain phrases set beyond doubt ("keep every record", "don't impute")."""
    text = instructions.lower()
    found: dict[str, bool] = {}
    for pattern, switches in _WORD_RULES:
        if re.search(pattern, text):
            for key, value in switches.items():
                found.setdefault(key, value)
    return found


def named_columns(instructions: str, columns: list[str]) -> list[str]:
    """Columns the user names (as whole words) in their instructions."""
    text = instructions.lower()
    return [c for c in columns if re.search(r"(?<![\w])" + re.escape(c.lower()) + r"(?![\w])", text)]


def make_plan(findings: list[dict[str, Any]], policy: dict[str, bool], skip: set[int] = frozenset(),
              keep: list[str] = (), extra_steps: list[str] = ()) -> list[dict[str, Any]]:
    """The ordered steps. ``skip``: finding ids left alone; ``keep``: columns never dropped or imputed."""
    steps: list[dict[str, Any]] = []
    sparse = [f["column"] for f in findings if f["kind"] == "missing" and f["params"].get("share", 0) > 0.4 and f["column"] not in keep]
    codes = [c for f in findings if f["kind"] == "code_columns" for c in f["params"]["columns"]]
    for kind in ORDER:
        if kind in POLICY:
            if not policy.get(kind, False):
                continue
            if kind == "drop_sparse_columns" and not sparse:
                continue
            if kind == "drop_duplicates" and not any(f["kind"] == "duplicate_rows" for f in findings):
                pass  # still run: cleaned values can make rows equal
            what, why = POLICY_TEXT[kind]
            if kind == "drop_sparse_columns":
                what += f": {', '.join(sparse)}"
            never = list(keep) + [c for c in codes if c not in keep] if kind == "impute_missing" else list(keep)
            if kind == "impute_missing" and codes:
                what += f" (never in the code columns {', '.join(codes)}: a code has no mean)"
            steps.append({"kind": "impute" if kind == "impute_missing" else kind, "column": None, "what": what, "why": why, "source": "policy",
                          "params": {"keep": never, "threshold": 0.4}, "finding": None})
            continue
        for f in findings:
            if f["kind"] != kind or f["id"] in skip or f["column"] in keep:
                continue
            if kind in TYPE_KINDS and not policy.get("fix_types", True):
                continue
            what, why = _FINDING_TEXT[kind]
            col = repr(f["column"])
            params = dict(f["params"])
            steps.append({"kind": kind, "column": f["column"], "what": what.format(col=col, key=repr(params.get("key", params.get("other")))),
                          "why": why.format(detail=f["detail"]), "source": "finding", "params": params, "finding": f["id"]})
    for i, step in enumerate(steps, 1):
        step["n"] = i
    for text in extra_steps:
        steps.append({"n": len(steps) + 1, "kind": "custom", "column": None, "what": text, "why": "asked for in the instructions",
                      "source": "model", "params": {}, "finding": None})
    return steps


def render_steps(steps: list[dict[str, Any]], skipped: list[str] = (), note: str = "", preview: str = "") -> str:
    """The recommended steps as the numbered list the reviewer reads."""
    lines = [f"{s['n']}. {s['what']} — {s['why']}." for s in steps]
    if not steps:
        lines.append("No cleaning steps are needed: no problem was found and the default steps are switched off.")
    for text in skipped:
        lines.append(f"- Not done: {text}")
    if note:
        lines += ["", f"Note: {note.strip()}"]
    if preview:
        lines += ["", preview.strip()]
    return "\n".join(lines)
