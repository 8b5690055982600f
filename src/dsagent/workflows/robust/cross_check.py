"""Node 5's cross-check (our addition to seed 002): independent computations, compared by code.

A small model asked to evaluate a result tends to accept it with full confidence, even when shown
a different one, while two codes written from different prompts rarely make the same mistake
(docs/history.md, "Robust's cross-check"). So node 5 asks for an independent code for the question
alone (no requirements, no profile notes, none of node 4's code; one fix with its error if it
fails) and compares the two ``result`` texts (``common.agreement``):

- they agree → accepted, no evaluation call;
- they differ → a second independent code, sampled warmer, breaks the tie: if it agrees with
  node 4's result, that is accepted (2 of 3); if it agrees with the first check, the two checks
  outvote node 4 and their result **replaces** node 4's (the majority of three, accepted with
  confidence 0.67: a rewrite of node 4's code would only be asked to reach that same answer, at the
  cost of a remediation round);
- no two of the three agree → a third independent code, warm, can still make two agree (2 of 4,
  confidence 0.5): with node 4's result it is accepted, with a check's their result replaces
  node 4's. Otherwise the seed's evaluation call decides, shown an independent result.
- node 4's code failed both attempts of its round → the same checks: two that agree are used
  (2 of 2, or 2 of 3 with the third); if none agree, the first check's result stands in for
  node 4's and the seed's evaluation call judges it, shown another; if the first check fails too,
  the run goes to remediation. Node 5 asks the model nothing about a failed run: it cannot make
  it valid.

Votes are counted by code: a check whose code repeats an earlier check's (the same prompt sampled
again; comments, spacing and imports aside) is sampled once more, and two checks with the same code
count as one computation (copies of one mistake must not outvote a right answer); a check whose
code is node 4's own, written greedily, backs nothing (it is node 4's computation run twice: the
next, warm check decides); a check whose result is NaN gets its fix and is no vote.

The checks run once per run (they do not depend on nodes 1B–4); later rounds compare with the
answer two computations backed (``reference``), else with each check, or leave the verdict to the model.
With a model that runs calls side by side (the embedded model's lanes) the first check is started
ahead, beside nodes 1B–4 (:func:`start_ahead`), and node 5 takes it ready. Check cells run apart
from the session's names and data (``Sandbox.run(apart=True)``), so they change nothing node 4's
cells see, in whichever order the two run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dsagent.runtime import RunContext
from dsagent.workflows.common.agreement import answers_agree, results_agree
from dsagent.workflows.common.code import RESAMPLE_TEMPERATURE, clip, execution_result, record_figures
from dsagent.workflows.common.verify import checking_ahead as checking
from dsagent.workflows.common.votes import echoes
from dsagent.workflows.common.verify import Verification, from_checks, independent, second_temperature, start_check, take_check, votes_with
from dsagent.workflows.robust.schemas import code_verdict


@dataclass
class Verdict:
    evaluation: dict[str, Any] | None
    """Node 5's evaluation when the checks decided it; None leaves it to node 5 (the model, or code for a failed run)."""
    check: dict[str, Any]
    """The ``cross_check`` state."""
    note: str
    """For the run log."""
    adopted: dict[str, Any] | None = None
    """{code, execution_result} of the checks' result when it replaces node 4's."""


AHEAD = "robust_cross_check"
"""The key of the first independent code when node 4 started it ahead (:func:`start_ahead`)."""


def start_ahead(ctx: RunContext, state: dict[str, Any], only_if_read: bool = False) -> None:
    """Start the first independent code now, beside nodes 1B–4 (``common.verify.start_check``): it
    needs only the question and the data, so node 5 would ask exactly the same. Node 1B starts it
    when the data profile has been read already (``only_if_read``); else node 4 does."""
    if ctx.settings.robust_cross_check and state.get("cross_check") is None:
        start_check(ctx, state, "node_5_evaluate", AHEAD, only_if_read)


def _checks(check: dict[str, Any]) -> list[dict[str, Any]]:
    """The independent computations of a ``cross_check`` state, in the order they ran."""
    return [check, *(check[k] for k in ("second", "third") if check.get(k))]


def agreed() -> dict[str, Any]:
    """Node 5's evaluation when the first independent check agrees with node 4's result."""
    return code_verdict(True, "an independent computation of the question gives the same result", 1.0)


def checking_ahead(ctx: RunContext) -> bool:
    """Whether the first check started ahead is still being written (node 5 would wait for it)."""
    return checking(ctx, AHEAD)


def _later_round(check: dict[str, Any], result_str: str | None, question: str) -> Verdict:
    """Compare with what two computations backed, else with each check."""
    if result_str is None:
        return Verdict(None, check, "")
    backed = [check["reference"]] if check.get("reference") is not None else [
        c["result_str"] for c in _checks(check) if c.get("result_str") is not None]
    if any(answers_agree(question, result_str, other) for other in backed):
        return Verdict(code_verdict(True, "agrees with an independent computation of the question", 1.0), check, "cross-check agrees")
    return Verdict(None, check, "cross-check differs" if backed else "")


def check_result(ctx: RunContext, state: dict[str, Any], result_str: str | None) -> Verdict:
    """Node 5's cross-check of node 4's ``result_str`` (None: node 4's code failed)."""
    if state.get("cross_check") is not None:
        return _later_round(state["cross_check"], result_str, state["question"])
    first, first_run = take_check(ctx, state, AHEAD)  # the one started ahead, else written now
    check = {**first, "second": None, "third": None, "reference": None}
    if first["result_str"] is None:
        return Verdict(None, check, "cross-check failed")
    own = (state.get("code"),)  # node 4's code: a greedy check that copies it is no vote (common.votes.echoes)
    if answers_agree(state["question"], result_str, first["result_str"]) and not echoes(first, own):
        check["reference"] = first["result_str"]
        return Verdict(agreed(), check, "cross-check agrees")
    second, second_run = independent(ctx, state, second_temperature(first), (first,))
    check["second"] = second
    if answers_agree(state["question"], result_str, second["result_str"]) and not echoes(second, own):
        check["reference"] = result_str
        return Verdict(code_verdict(True, "a second independent computation gives the same result (2 of 3 agree)", 0.67), check, "cross-check: 2 of 3 agree")
    if votes_with(first, second):
        return _adopt(ctx, check, first, first_run, result_str, "2 of 3", 0.67)
    if second["result_str"] is not None:
        # Three different results: a third check, warm, can still make two agree (2 of 4).
        third, third_run = independent(ctx, state, RESAMPLE_TEMPERATURE, (first, second))
        check["third"] = third
        if answers_agree(state["question"], result_str, third["result_str"]) and not echoes(third, own):
            check["reference"] = result_str
            return Verdict(code_verdict(True, "a third independent computation gives the same result (2 of 4 agree)", 0.5),
                           check, "cross-check: 2 of 4 agree")
        for other, other_run in ((first, first_run), (second, second_run)):
            if votes_with(other, third):
                return _adopt(ctx, check, other, other_run, result_str, "2 of 4", 0.5)
    if result_str is None:
        # Node 4 has nothing to compare: the first check's result stands in for it and the seed's
        # evaluation call judges it, shown another (a run with a result beats a run given up).
        record_figures(ctx, first_run)
        return Verdict(None, check, "cross-check: node 4 failed, no two results agree; the first independent result is evaluated",
                       adopted={"code": first["code"], "execution_result": execution_result(first_run)})
    return Verdict(None, check, "cross-check: no two results agree")


def _adopt(ctx: RunContext, check: dict[str, Any], chosen: dict[str, Any], run: Any, result_str: str | None,
           share: str, confidence: float) -> Verdict:
    """Two independent checks agree against node 4's result (or node 4 failed): theirs is used."""
    check["reference"] = chosen["result_str"]
    record_figures(ctx, run)
    if result_str is None:
        reason, note = "node 4's code failed; two independent computations of the question agree: their result is used", \
            "cross-check: node 4 failed, two independent results agree and are used"
    else:
        reason = (f"node 4's result ({clip(result_str, 200)}) differs from two independent computations of the question, "
                  f"which agree: theirs is used ({share})")
        note = "cross-check: two independent results outvote this one and replace it"
    return Verdict(code_verdict(True, reason, confidence), check, note,
                   adopted={"code": chosen["code"], "execution_result": execution_result(run)})


def evidence(check: dict[str, Any] | None, own: str | None = None) -> str | None:
    """The independent result to show the model or a rewrite, other than ``own`` (the result judged):
    the backed one, else the first check's, else the second's."""
    if not check:
        return None
    candidates = [check.get("reference"), *(c.get("result_str") for c in _checks(check))]
    return next((c for c in candidates if c is not None and not results_agree(own, c)), None)


def verification(check: dict[str, Any] | None, result_str: str | None, code: str | None, question: str = "") -> Verification:
    """The answer's mark (``common.verify``) from node 5's checks: verified when one agrees with it on ``question``."""
    return from_checks(result_str, _checks(check) if check else [], code, question)
