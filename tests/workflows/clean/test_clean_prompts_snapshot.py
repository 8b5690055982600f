"""The clean workflow's prompts are snapshot-tested: a change is a visible diff in tests/snapshots/.

Regenerate after an intended change with: UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/workflows/clean/test_clean_prompts_snapshot.py
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[2]))
from snapshot_check import check_snapshot  # noqa: E402

from dsagent.workflows.clean import prompts  # noqa: E402
from dsagent.workflows.clean.decide import findings_text  # noqa: E402

FINDINGS = {"sales": [
    {"id": 1, "kind": "number_text", "column": "price", "count": 3, "detail": "numbers stored as text (3 written with currency, units or separators)", "params": {}},
    {"id": 2, "kind": "spelling", "column": "city", "count": 2, "detail": "2 variant spellings of a category: 'lisbon'→'Lisbon'", "params": {}},
    {"id": 3, "kind": "duplicate_rows", "column": None, "count": 1, "detail": "1 rows repeat an earlier row exactly", "params": {}},
]}

CASES = {
    "clean_recommend": lambda: prompts.RECOMMEND.format(user_instructions="Keep every record.", recommended_steps="(none)",
                                                        findings=findings_text(FINDINGS, {"sales": "sales.csv"})),
    "clean_custom_code": lambda: prompts.CUSTOM_CODE.format(extra_steps="9. Add a column flag set to 1", columns="id, price, city"),
    "clean_fix": lambda: prompts.FIX.format(function_name="custom_steps", code_snippet="def custom_steps(df):\n    return df.x", error="AttributeError: x"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_prompt_snapshot(name):
    check_snapshot(name, CASES[name]())
