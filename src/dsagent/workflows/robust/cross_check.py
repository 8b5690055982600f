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
result is NaN gets its fix and is no vote.

The checks run once per run (they do not depend on nodes 1B–4); later rounds compare with the
answer two computations backed (``reference``), else with each check, or leave the verdict to the model.
With a model that runs calls side by side (the embedded model's lanes) the first check is started
ahead, beside nodes 1B–4 (:func:`start_ahead`), and node 5 takes it ready. Check cells run apart
from the session's names and data (``Sandbox.run(apart=True)``), so they change nothing node 4's
cells see, in whichever order the two run.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from dsagent.runtime import RunContext
from dsagent.workflows.common.agreement import results_agree
from dsagent.workflows.common.code import (
    CODE_MAX_TOKENS,
    RESAMPLE_TEMPERATURE,
    clip,
    execution_result,
    extract_code,
    nan_problem,
    record_figures,
)
from dsagent.workflows.common.mends import mend_before_run, run_facts
from dsagent.workflows.common.prompting import same_prompt, stable_messages
from dsagent.workflows.robust import prompts
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


def _independent(ctx: RunContext, state: dict[str, Any], temperature: float | None = None,
                 earlier: tuple[dict[str, Any], ...] = ()) -> tuple[dict[str, Any], Any]:
    """One independent code, run; if it fails, one fix with its error (a failed check decides nothing).
    A code that repeats an ``earlier`` check's (the same prompt, sampled again) is sampled once more,
    warm: a copy is no second opinion. A result that is NaN is no answer: it gets the fix too.
    Returns the check's state ({code, result_str, error}) and its sandbox run."""
    failed = None
    for _ in range(2):
        messages = stable_messages(state, prompts.cross_check(state, failed))
        code = extract_code(ctx.llm(messages, max_tokens=CODE_MAX_TOKENS, temperature=temperature))
        if failed is None and any(_same_code(code, e["code"]) for e in earlier):
            code = extract_code(ctx.llm(messages, max_tokens=CODE_MAX_TOKENS, temperature=RESAMPLE_TEMPERATURE))
        code = mend_before_run(code, run_facts(ctx))[0]  # the code step's before-run mends (common.mends)
        run = ctx.sandbox.run(code, apart=True)  # its names and data changes are its own
        nan = nan_problem(run.result) if run.success else None
        if run.success and not nan:
            return {"code": code, "result_str": run.result, "error": None}, run
        failed = {"code": code, "error": nan or run.error}
    return {"code": code, "result_str": None, "error": failed["error"]}, run


AHEAD = "robust_cross_check"
"""The key of the first independent code when node 4 started it ahead (:func:`start_ahead`)."""


def start_ahead(ctx: RunContext, state: dict[str, Any], only_if_read: bool = False) -> None:
    """Start the first independent code now, on a thread of its own, when the model runs calls side
    by side (the embedded model's lanes). It needs only the question and the data, none of nodes
    1B–4, so node 5 would ask exactly the same; here it is written while nodes 1B–4 work (one thread
    generates as fast as two), and node 5 takes it ready. Node 1B starts it when the data profile
    has been read already (``only_if_read``: two lanes reading one profile at once would each go at
    half speed); else node 4 does, once node 1B has read it."""
    if ctx.parallel_calls < 2 or not ctx.settings.robust_cross_check or state.get("cross_check") is not None \
            or AHEAD in ctx.pending:
        return
    messages = stable_messages(state, prompts.cross_check(state))
    if only_if_read and not ctx.prefix_ready(messages):
        return
    ctx.ahead(AHEAD, "node_5_evaluate", lambda: (messages, *_independent(ctx, state)))


def _first_check(ctx: RunContext, state: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    """The first independent code: the one started ahead if it was asked what node 5 asks now, else written now."""
    future = ctx.take_ahead(AHEAD)
    if future is not None:
        try:
            messages, check, run = future.result()
        except Exception:  # noqa: BLE001 — a check that failed ahead is written again here
            pass
        else:
            now = stable_messages(state, prompts.cross_check(state))
            if same_prompt(messages, now):
                return check, run
    return _independent(ctx, state)


def _same_code(a: str, b: str) -> bool:
    """The same computation: the same syntax tree but for comments, spacing and imports (the
    sandbox has the libraries bound already); codes that do not parse compare line by line."""
    try:
        return _computation(a) == _computation(b)
    except SyntaxError:
        return _lines(a) == _lines(b)


def _computation(code: str) -> str:
    tree = ast.parse(code)
    tree.body = [node for node in tree.body if not isinstance(node, (ast.Import, ast.ImportFrom))]
    return ast.dump(tree)


def _lines(code: str) -> list[str]:
    return [line.strip() for line in code.splitlines() if line.strip()]


def _votes_with(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two checks agree as two votes: the same result from different codes (a check that copied
    another's code, from the same prompt, is one computation run twice)."""
    return results_agree(a["result_str"], b["result_str"]) and not _same_code(a["code"], b["code"])


def _checks(check: dict[str, Any]) -> list[dict[str, Any]]:
    """The independent computations of a ``cross_check`` state, in the order they ran."""
    return [check, *(check[k] for k in ("second", "third") if check.get(k))]


def agreed() -> dict[str, Any]:
    """Node 5's evaluation when the first independent check agrees with node 4's result."""
    return code_verdict(True, "an independent computation of the question gives the same result", 1.0)


def checking_ahead(ctx: RunContext) -> bool:
    """Whether the first check started ahead is still being written (node 5 would wait for it)."""
    future = ctx.pending.get(AHEAD)
    return future is not None and not future.done()


def _later_round(check: dict[str, Any], result_str: str | None) -> Verdict:
    """Compare with what two computations backed, else with each check."""
    if result_str is None:
        return Verdict(None, check, "")
    backed = [check["reference"]] if check.get("reference") is not None else [
        c["result_str"] for c in _checks(check) if c.get("result_str") is not None]
    if any(results_agree(result_str, other) for other in backed):
        return Verdict(code_verdict(True, "agrees with an independent computation of the question", 1.0), check, "cross-check agrees")
    return Verdict(None, check, "cross-check differs" if backed else "")


def check_result(ctx: RunContext, state: dict[str, Any], result_str: str | None) -> Verdict:
    """Node 5's cross-check of node 4's ``result_str`` (None: node 4's code failed)."""
    if state.get("cross_check") is not None:
        return _later_round(state["cross_check"], result_str)
    first, first_run = _first_check(ctx, state)
    check = {**first, "second": None, "third": None, "reference": None}
    if first["result_str"] is None:
        return Verdict(None, check, "cross-check failed")
    if results_agree(result_str, first["result_str"]):
        check["reference"] = first["result_str"]
        return Verdict(agreed(), check, "cross-check agrees")
    second, second_run = _independent(ctx, state, RESAMPLE_TEMPERATURE, (first,))
    check["second"] = second
    if results_agree(result_str, second["result_str"]):
        check["reference"] = result_str
        return Verdict(code_verdict(True, "a second independent computation gives the same result (2 of 3 agree)", 0.67), check, "cross-check: 2 of 3 agree")
    if _votes_with(first, second):
        return _adopt(ctx, check, first, first_run, result_str, "2 of 3", 0.67)
    if second["result_str"] is not None:
        # Three different results: a third check, warm, can still make two agree (2 of 4).
        third, third_run = _independent(ctx, state, RESAMPLE_TEMPERATURE, (first, second))
        check["third"] = third
        if results_agree(result_str, third["result_str"]):
            check["reference"] = result_str
            return Verdict(code_verdict(True, "a third independent computation gives the same result (2 of 4 agree)", 0.5),
                           check, "cross-check: 2 of 4 agree")
        for other, other_run in ((first, first_run), (second, second_run)):
            if _votes_with(other, third):
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
