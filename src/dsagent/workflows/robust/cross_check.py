"""Node 5's cross-check (our addition to seed 002): independent computations, compared by code.

The 1.5B model accepts wrong results with confidence 1.0 when asked to evaluate them, even when it
is shown a different result; two codes written from different prompts rarely make the same mistake.
So node 5 asks for an independent code for the question alone (no requirements, no profile notes,
none of node 4's code; one fix with its error if it fails) and compares the two ``result`` texts
(``common.agreement``):

- they agree → accepted, no evaluation call;
- they differ → a second independent code, sampled warmer, breaks the tie: if it agrees with
  node 4's result, that is accepted (2 of 3); if it agrees with the first check, node 4's result is
  rejected and the rewrite is shown the answer two computations gave; if no two agree, the seed's
  evaluation call decides, shown the independent result.

The checks run once per run (they do not depend on nodes 1B–4); later rounds compare with the
answer two computations backed (``reference``), else with each check, or leave the verdict to the model.
"""

from __future__ import annotations

from typing import Any

from dsagent.runtime import RunContext
from dsagent.workflows.common.agreement import results_agree
from dsagent.workflows.common.code import CODE_MAX_TOKENS, RESAMPLE_TEMPERATURE, clip, extract_code
from dsagent.workflows.common.prompting import stable_messages
from dsagent.workflows.robust import prompts
from dsagent.workflows.robust.schemas import code_verdict


def _independent(ctx: RunContext, state: dict[str, Any], temperature: float | None = None) -> dict[str, Any]:
    """One independent code, run; if it fails, one fix with its error (a failed check decides nothing)."""
    failed = None
    for _ in range(2):
        reply = ctx.llm(stable_messages(state, prompts.cross_check(state, failed)), max_tokens=CODE_MAX_TOKENS, temperature=temperature)
        code = extract_code(reply)
        run = ctx.sandbox.run(code)
        if run.success:
            return {"code": code, "result_str": run.result, "error": None}
        failed = {"code": code, "error": run.error}
    return {"code": code, "result_str": None, "error": run.error}


def check_result(ctx: RunContext, state: dict[str, Any], result_str: str) -> tuple[dict[str, Any] | None, dict[str, Any], str]:
    """(the evaluation, or None to ask the model; the ``cross_check`` state; a note for the run log)."""
    check = state.get("cross_check")
    if check is not None:  # a later round: compare with what two computations backed, else with each check
        backed = [check["reference"]] if check.get("reference") is not None else [
            c["result_str"] for c in (check, check.get("second") or {}) if c.get("result_str") is not None]
        if any(results_agree(result_str, other) for other in backed):
            return code_verdict(True, "agrees with an independent computation of the question", 1.0), check, "cross-check agrees"
        return None, check, "cross-check differs" if backed else ""
    first = _independent(ctx, state)
    check = {**first, "second": None, "reference": None}
    if first["result_str"] is None:
        return None, check, "cross-check failed"
    if results_agree(result_str, first["result_str"]):
        check["reference"] = first["result_str"]
        return code_verdict(True, "an independent computation of the question gives the same result", 1.0), check, "cross-check agrees"
    second = check["second"] = _independent(ctx, state, RESAMPLE_TEMPERATURE)
    if results_agree(result_str, second["result_str"]):
        check["reference"] = result_str
        return code_verdict(True, "a second independent computation gives the same result (2 of 3 agree)", 0.67), check, "cross-check: 2 of 3 agree"
    if results_agree(first["result_str"], second["result_str"]):
        check["reference"] = first["result_str"]
        issue = f"two independent computations of the question both gave result = {clip(first['result_str'], 300)}; this result differs"
        return code_verdict(False, issue, 0.67), check, "cross-check: two independent results differ from this one"
    return None, check, "cross-check: no two results agree"


def evidence(check: dict[str, Any] | None) -> str | None:
    """The independent result to show the model or a rewrite: the backed one, else the first check's."""
    if not check:
        return None
    return check.get("reference") or check.get("result_str")
