"""The model's decision on the default steps, and the code that keeps it grounded in the user's words.

The model reads the user's instructions and the findings and switches default steps off, skips
findings or adds steps. Code accepts a switch turned off only when the instructions speak of that
step's subject, a skipped finding only when they name its column, and an added step only when it
is not one the tested steps already do; plain phrases (:func:`plan.switches_from_words`) win.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import BaseModel, Field, field_validator

from dsagent.workflows.clean.plan import POLICY, switches_from_words

SUBJECTS = {
    "drop_sparse_columns": r"column",
    "impute_missing": r"imput|fill|missing",
    "fix_types": r"type|convert|pars|format",
    "drop_duplicates": r"duplicat",
    "drop_missing_rows": r"row|record|missing|drop|remove|keep|every|all",
    "drop_outliers": r"outlier|extreme|row|record|keep|every|all",
}
COVERED = re.compile(r"duplicat|missing|imput|type|placeholder|spelling|typo|whitespace|spaces|outlier|impossible|date|format|standardi|normali|inconsisten|"
                     r"numeric|number|categor|case|record_id|keep|convert|negative", re.I)
MAX_EXTRA_STEPS = 3


class Decision(BaseModel):
    """The recommend node's structured output."""

    # capped: under the JSON grammar the small local model writes ~7 tokens/s, and this text is only shown
    reasoning: str = Field("", max_length=240, description="What the data needs and why, one or two sentences")
    drop_sparse_columns: bool = True
    impute_missing: bool = True
    fix_types: bool = True
    drop_duplicates: bool = True
    drop_missing_rows: bool = True
    drop_outliers: bool = True
    skip_findings: list[int] = Field(default_factory=list, max_length=10)
    extra_steps: list[Annotated[str, Field(max_length=160)]] = Field(default_factory=list, max_length=10)

    @field_validator("reasoning", mode="before")
    @classmethod
    def _short_text(cls, value: Any) -> Any:  # the caps steer the grammar; a longer reply is cut, not refused
        return value[:240] if isinstance(value, str) else value

    @field_validator("skip_findings", "extra_steps", mode="before")
    @classmethod
    def _short_lists(cls, value: Any) -> Any:
        if isinstance(value, list):
            value = [v[:160] if isinstance(v, str) else v for v in value]
            return value[:10]
        return value


_POSITIVE = [(r"\b(?:fix|remove|drop|handle|clean|dedupe|deduplicate)\b[^.;]*duplicat", "drop_duplicates"),
             (r"\b(?:fix|convert|correct|parse)\b[^.;]*\btypes?\b", "fix_types")]


def grounded(decision: Decision | None, instructions: str, findings: list[dict[str, Any]]) -> tuple[dict[str, bool], set[int], list[str], list[str]]:
    """(policy, skipped finding ids, extra steps, notes on what code overruled)."""
    text = instructions.lower()
    policy = dict(POLICY)
    notes: list[str] = []
    if decision is not None and text.strip():
        for key in POLICY:
            wanted = getattr(decision, key)
            if wanted != POLICY[key]:
                if re.search(SUBJECTS[key], text):
                    policy[key] = wanted
                else:
                    notes.append(f"kept the default for {key}: the instructions do not speak of it")
    for pattern, key in _POSITIVE:
        if re.search(pattern, text):
            policy[key] = True
    policy.update(switches_from_words(instructions))
    skipped: set[int] = set()
    extra: list[str] = []
    if decision is not None and text.strip():
        by_id = {f["id"]: f for f in findings}
        for n in decision.skip_findings:
            f = by_id.get(n)
            if f and f.get("column") and re.search(r"(?<!\w)" + re.escape(str(f["column"]).lower()) + r"(?!\w)", text):
                skipped.add(n)
        for step in decision.extra_steps[:MAX_EXTRA_STEPS]:
            step = str(step).strip()
            if step and not COVERED.search(step) and not step.lower().startswith(("no ", "none")):
                extra.append(step)
    return policy, skipped, extra, notes


FINDINGS_TOKEN_BUDGET = 1500
"""The findings' share of the recommendation prompt: a very wide, dirty table lists its first
findings and says how many more there are (the default policy handles them all the same)."""


def findings_text(findings_by_ds: dict[str, list[dict[str, Any]]], names: dict[str, str]) -> str:
    from dsagent.data.tokens import within_budget

    lines = []
    for ds_id, findings in findings_by_ds.items():
        if len(findings_by_ds) > 1:
            lines.append(f"{names.get(ds_id, ds_id)}:")
        for f in findings:
            if f["kind"] == "missing" and f["params"].get("share", 0) <= 0.4:
                continue  # a few missing cells: the policy's imputation covers them, the prompt stays short
            where = f"column {f['column']!r}: " if f.get("column") else ""
            detail = f["detail"] if len(f["detail"]) <= 140 else f["detail"][:139] + "…"
            lines.append(f"{f['id']}. {f['kind']} — {where}{detail}")
    kept, left, _ = within_budget(lines, FINDINGS_TOKEN_BUDGET)
    if left:
        kept.append(f"({left} more findings not listed here: the default steps cover them)")
    return "\n".join(kept)
