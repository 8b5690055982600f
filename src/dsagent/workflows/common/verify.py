"""Two independent routes to one answer, compared by code: a confidence the user can bet on.

A small model asked whether its own result is right tends to say yes, while two codes written from
different prompts rarely make the same mistake. So an answer is checked by independent
computations of the question — codes written from the question and the code rules alone, none of
the run's plan, code or errors, run apart from the session's names — compared by code
(:func:`common.agreement.answers_agree`: the same numbers at the precision the less precise one
shows, or the same words, or for a "which … highest" question the same label at the asked end).
Two checks run for every answer with a result: the first (greedy), then a second sampled warm
(:func:`second_check`). The greedy check is the model's first habit and can share the answer's
misreading, so agreement alone is not the mark:

- the first backs the answer → verified unless the warm one gives another result (then "not
  sure", naming it); a warm one that failed or copied the answer's code is no vote;
- the first wrote the answer's very code (:func:`common.votes.echoes`: one computation run twice,
  no second opinion) → the warm one decides alone;
- the first differs → the warm one breaks the tie: with the answer it verifies it (2 of 3); with
  the first check, the two outvote the answer and their result is shown instead (2 of 3, said so);
  with neither, the answer stays and is marked not sure, with the other candidates named.

A check whose result is NaN or does not fit the question (:func:`common.fit.result_misfit`) gets
one fix with the reason and is no vote. Measured in docs/benchmarks.md, "A check that copies the
answer; a second sampled warm".

The first check takes the other route than the answer where it can (:func:`first_check`): an
answer whose code the model wrote freely (the setting ``operations`` off) is checked by an analysis
operation the model chooses, compiled by code (``dsagent.ops``), when one fits (the setting
``check_operations``); two codes from one model and one prompt style can share a misreading, a
chosen operation shares none of the answer's code. Free code when no operation fits or it fails.

:func:`independent` writes and runs one such code; robust's node 5 builds its cross-check on it.
:func:`start_check` starts the first one on the model's spare lane (``RunContext.ahead``) while the
run writes its own code, and the warm one after it on the same lane, while the run explains;
:func:`verify` takes them ready. The mark goes into every workflow's
``final_output`` as ``verified`` (bool) and ``verification`` (what agreed or disagreed), which
every door shows (``reports.build.verification_line``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dsagent.workflows.common.agreement import answers_agree
from dsagent.workflows.common.code import CODE_MAX_TOKENS, RESAMPLE_TEMPERATURE, clip, execution_result, extract_code, nan_problem
from dsagent.workflows.common.prompting import code_rules, quote_data, same_prompt, stable_messages
from dsagent.workflows.common.votes import echoes, same_code, votes_with

if TYPE_CHECKING:
    from dsagent.runtime import RunContext

CHECK = """Write Python code with pandas and numpy that computes the answer to this question.

{rules}

Question: {question}
Return ONLY the Python code, no explanations or markdown."""

CHECK_FIX = """This code failed:
```python
{code}
```
Error:
{error}
Fix it. Return ONLY the Python code, no explanations or markdown."""

AHEAD = "verify_check"
"""The key of the first independent code when it was started ahead (:func:`start_check`)."""
WARM = ":warm"
"""Added to a key: the check after the first, started ahead when the first had a result."""


def check_instruction(state: Mapping[str, Any], failed: Mapping[str, Any] | None = None) -> str:
    """An independent computation: the question and the code rules only, nothing of the run's steps.
    ``failed`` is its own first try ({code, error}) when that failed: one fix, same prompt opening."""
    text = CHECK.format(rules=code_rules(state["datasets"], state["question"]), question=state["question"])
    if failed:
        text += "\n\n" + CHECK_FIX.format(code=failed["code"].strip(), error=quote_data(failed.get("error"), 800))
    return text


def _check_problem(ctx: "RunContext", question: str, code: str, run: Any) -> str | None:
    """Why a check's run answers nothing: its error, a NaN, or a result that misfits the question."""
    if not run.success:
        return run.error or "the check's code failed"
    from dsagent.workflows.common.grounded import run_misfit

    return nan_problem(run.result) or run_misfit(ctx, question, code, execution_result(run))


def _mended_check(ctx: "RunContext", question: str, code: str, run: Any) -> tuple[str, Any] | None:
    """A check whose result misfits the question, mended by code as the code step's is
    (``grounded.mend_to_fit``: a month's number where its name is asked, idxmax's row label …), run
    apart: (code, run) once it fits, else None. Saves the model the fix a mend can make."""
    from dsagent.workflows.common.grounded import mend_to_fit

    def again(c: str) -> tuple[Any, dict[str, Any] | None]:
        r = ctx.sandbox.run(c, apart=True)
        return r, execution_result(r)

    found = mend_to_fit(ctx, question, code, execution_result(run), again)
    return (found[0], found[1]) if found and not nan_problem(found[1].result) else None


def independent(ctx: "RunContext", state: Mapping[str, Any], temperature: float | None = None,
                earlier: tuple[dict[str, Any], ...] = ()) -> tuple[dict[str, Any], Any]:
    """One independent code, run apart; if it fails, one fix with its error (a failed check decides
    nothing). A code that repeats an ``earlier`` check's (the same prompt, sampled again) is sampled
    once more, warm: a copy is no second opinion. A result that is NaN or misfits the question is no
    answer: it gets the fix too. Returns the check ({code, result_str, error}) and its sandbox run."""
    from dsagent.workflows.common.mends import mend_before_run, run_facts

    failed, warm = None, temperature is not None
    for _ in range(2):
        messages = stable_messages(state, check_instruction(state, failed))
        code = extract_code(ctx.llm(messages, max_tokens=CODE_MAX_TOKENS, temperature=temperature))
        if failed is None and any(same_code(code, e["code"]) for e in earlier):
            code, warm = extract_code(ctx.llm(messages, max_tokens=CODE_MAX_TOKENS, temperature=RESAMPLE_TEMPERATURE)), True
        code = mend_before_run(code, run_facts(ctx))[0]  # the code step's before-run mends (common.mends)
        run = ctx.sandbox.run(code, apart=True)  # its names and data changes are its own
        problem = _check_problem(ctx, state["question"], code, run)
        if problem and run.success and not nan_problem(run.result):
            mended = _mended_check(ctx, state["question"], code, run)
            if mended:
                (code, run), problem = mended, None
        if not problem:
            return {"code": code, "result_str": run.result, "error": None, "warm": warm}, run
        failed = {"code": code, "error": problem}
    return {"code": code, "result_str": None, "error": failed["error"], "warm": warm}, run


def operation_check(ctx: "RunContext", state: Mapping[str, Any]) -> tuple[dict[str, Any], Any] | None:
    """The question answered by an analysis operation the model chooses (common.compose), run apart:
    the check of an answer written as free code. None when no operation fits, or its result fails or
    misfits (a composed code is not fixed): free code checks instead."""
    from dsagent.workflows.common.compose import composed_code

    step: dict[str, Any] = {}
    code = composed_code(ctx, state["question"], lambda text: stable_messages(state, text), step, enabled=True)
    if code is None:
        return None
    run = ctx.sandbox.run(code, apart=True)
    if _check_problem(ctx, state["question"], code, run):
        return None
    return {"code": code, "result_str": run.result, "error": None, "route": "operation"}, run


def first_check(ctx: "RunContext", state: Mapping[str, Any]) -> tuple[dict[str, Any], Any]:
    """The first independent computation: an operation when the answer's code is the model's own
    (see the module), else, or when none fits, an independent code (:func:`independent`)."""
    if ctx.settings.check_operations and not ctx.settings.operations:
        try:
            found = operation_check(ctx, state)
        except Exception:  # noqa: BLE001 - the route is optional: any failure of it (a compile, the run, the model) means free code
            found = None
        if found is not None:
            return found
    return independent(ctx, state)


def second_temperature(first: Mapping[str, Any]) -> float | None:
    """The temperature of the check after ``first``: warmer than the first free code (the same
    prompt again would give the same code), the model's own when the first was an operation (no free
    code has been sampled yet)."""
    return None if first.get("route") == "operation" else RESAMPLE_TEMPERATURE


def _check_after(ctx: "RunContext", state: Mapping[str, Any], first: Mapping[str, Any]) -> tuple[dict[str, Any], Any]:
    """The check after ``first`` written now, at :func:`second_temperature`, told of ``first``."""
    return independent(ctx, state, second_temperature(first), (first,))


def start_check(ctx: "RunContext", state: Mapping[str, Any], node: str, key: str = AHEAD, only_if_read: bool = False,
                warm: bool = False) -> None:
    """Start the first independent code now, on a thread of its own, when the model runs calls side
    by side (the embedded model's lanes): it needs only the question and the data, so it is written
    while the run writes its own code, and :func:`take_check` takes it ready. ``only_if_read``: only
    when the data profile has been read already (two lanes reading one profile at once would each go
    at half speed). ``warm``: when it has a result, the check after it (:func:`second_check`, sampled
    warm) is started on the same lane next. Its model calls are logged under ``node``."""
    if ctx.parallel_calls < 2 or key in ctx.pending:
        return
    messages = stable_messages(state, check_instruction(state))
    if only_if_read and not ctx.prefix_ready(messages):
        return

    def work() -> tuple[Any, ...]:
        first, run = first_check(ctx, state)
        if warm and first["result_str"] is not None:
            ctx.ahead(key + WARM, node, lambda: (messages, *_check_after(ctx, state, first)))
        return messages, first, run

    ctx.ahead(key, node, work)


def checking_ahead(ctx: "RunContext", key: str = AHEAD) -> bool:
    """Whether the check started ahead is still being written (taking it would wait)."""
    future = ctx.pending.get(key)
    return future is not None and not future.done()


def _taken(ctx: "RunContext", state: Mapping[str, Any], key: str) -> tuple[dict[str, Any], Any] | None:
    """The check started ahead under ``key`` if it was asked what would be asked now (a check that
    failed ahead, or was asked for another prompt, is written again by the caller), else None."""
    future = ctx.take_ahead(key)
    if future is None:
        return None
    try:
        messages, check, run = future.result()
    except Exception:  # noqa: BLE001 — a check that failed ahead is written again
        return None
    return (check, run) if same_prompt(messages, stable_messages(state, check_instruction(state))) else None


def take_check(ctx: "RunContext", state: Mapping[str, Any], key: str = AHEAD) -> tuple[dict[str, Any], Any]:
    """The first independent code: the one started ahead if it was asked what would be asked now, else written now."""
    return _taken(ctx, state, key) or first_check(ctx, state)


def second_check(ctx: "RunContext", state: Mapping[str, Any], first: Mapping[str, Any], key: str = AHEAD) -> tuple[dict[str, Any], Any]:
    """The check after ``first``, warm where ``first`` was free code (:func:`second_temperature`; a
    copy of ``first`` is sampled once more): the one started ahead for the same prompt, else written now."""
    return _taken(ctx, state, key + WARM) or _check_after(ctx, state, first)


@dataclass
class Verification:
    """The mark of one answer: verified or not, and what agreed or disagreed, in a sentence."""

    verified: bool
    verification: str
    checks: list[dict[str, Any]] = field(default_factory=list)
    """The independent computations ({code, result_str, error}), in the order they ran."""
    adopted: dict[str, Any] | None = None
    """{code, execution_result} of two agreeing checks whose result replaces the run's."""
    others: list[str] = field(default_factory=list)
    """Results of the checks that differ from the answer shown (for "not sure" in the explanation)."""

    def record(self) -> dict[str, Any]:
        """What ``final_output`` carries: ``verified``, ``verification``, and the checks' codes, results,
        routes (``operation`` or ``code``) and whether each was sampled warm."""
        return {"verified": self.verified, "verification": self.verification,
                "verification_checks": [{"code": c["code"], "result": c.get("result_str"), "error": c.get("error"),
                                         "route": c.get("route", "code"), "warm": bool(c.get("warm"))} for c in self.checks]}


def not_checked(why: str) -> Verification:
    return Verification(False, f"not checked: {why}")


def _setting_off(ctx: "RunContext") -> Verification | None:
    """The "not checked" mark when the setting verify is off (no extra model calls), else None: the gate of
    :func:`verify` and :func:`verify_rescued`, so no workflow repeats it."""
    return None if ctx.settings.verify else not_checked("the setting verify is off")


def verify(ctx: "RunContext", state: Mapping[str, Any], answer: str | list[str] | None, key: str = AHEAD,
           adopt: bool = True, codes: Sequence[str | None] = (), misfit: str | None = None) -> Verification:
    """Verify ``answer``, the run's result for ``state['question']``, against independent codes (see
    the module). A list: the results of a run's steps (react), any of which the check may back.
    ``adopt``: two checks that agree against the answer replace it (False: a report already written
    is marked not sure instead). ``codes``: the codes that computed the answer; a greedy check that
    copies one backs nothing by itself (:func:`common.votes.echoes`). ``misfit``: why the answer, kept at
    the last attempt, does not fit the question: then no check can verify it (a check that computes
    the same value another way shares its misreading), though two that agree on another result
    still replace it, and with ``adopt`` one check that fits and differs is given instead, marked not
    sure (a result known not to fit is seldom right: docs/benchmarks.md). "not checked" when
    the setting verify is off."""
    if (off := _setting_off(ctx)) is not None:
        return off
    answers = [a for a in ([answer] if isinstance(answer, str) or answer is None else answer) if a]
    if not answers:
        ctx.cancel_ahead(key)
        return not_checked("the answer has no result value to compare (a chart or printed output only)")

    def backs(check: dict[str, Any]) -> bool:
        return not echoes(check, codes) and any(answers_agree(state["question"], a, check.get("result_str")) for a in answers)

    first, first_run = take_check(ctx, state, key)
    if first["result_str"] is None:
        ctx.cancel_ahead(key + WARM)
        return Verification(False, f"not verified: the independent computation failed ({clip(first['error'] or '', 120)})", [first])
    second, second_run = second_check(ctx, state, first, key)
    checks = [first, second]
    if misfit and not (adopt and not backs(first) and not backs(second) and votes_with(first, second)):
        why = clip(misfit.split(": ", 1)[-1], 120)
        standing = [(c, r) for c, r in ((first, first_run), (second, second_run))
                    if c["result_str"] is not None and not backs(c) and not echoes(c, codes)]
        if adopt and standing:  # a result that fits the question beats one known not to: given instead, not sure
            check, run = standing[0]
            return Verification(False, f"not sure: the code's result ({clip(answers[-1], 60)}) does not fit the question ({why}); "
                                       "an independent computation's result, which fits it, is given instead", checks,
                                adopted={"code": check["code"], "execution_result": execution_result(run)})
        return Verification(False, f"not verified: the result does not fit the question ({why})",
                            checks, others=[c["result_str"] for c in checks if c["result_str"] is not None and not backs(c)])
    if backs(first):
        return _confirmed(checks, backs, codes)
    if echoes(first, codes):
        return _copied(checks, backs)
    if backs(second):
        return Verification(True, f"verified: 2 of 3 computations agree (one independent computation gave {clip(first['result_str'], 80)})",
                            checks, others=[first["result_str"]])
    if adopt and votes_with(first, second):
        return Verification(True, f"verified: two independent computations agree on this result; the first code's result "
                                  f"({clip(answers[-1], 80)}) differed and was replaced (2 of 3)", checks,
                            adopted={"code": second["code"], "execution_result": execution_result(second_run)}, others=[answers[-1]])
    return _unsure(checks, [c["result_str"] for c in checks if c["result_str"] is not None
                            and not any(answers_agree(state["question"], a, c["result_str"]) for a in answers)])


def _confirmed(checks: list[dict[str, Any]], backs: Any, codes: Sequence[str | None]) -> Verification:
    """The mark when the first check backs the answer: the second, sampled warm, must not differ. A
    model's first habit (the greedy code) can share the answer's misreading; a code sampled warm
    rarely lands on the same wrong result by another way (docs/benchmarks.md, "A check that copies
    the answer"). A second that failed or copied the answer's code is no vote: the first decides."""
    first, second = checks
    if backs(second):
        return Verification(True, "verified: two independent computations of the question give the same result", checks)
    if second["result_str"] is None or echoes(second, codes):
        return Verification(True, "verified: an independent computation of the question gives the same result", checks)
    return Verification(False, "not sure: an independent computation agrees, another (sampled warm) gave "
                        + clip(second["result_str"], 80), checks, others=[second["result_str"]])


def _copied(checks: list[dict[str, Any]], backs: Any) -> Verification:
    """The mark when the first check wrote the answer's own code: the second, sampled warm, decides
    alone. It backs the answer (by any code: the model kept its computation under sampling) →
    verified; it differs → not sure, naming its result; it fails → not verified."""
    second = checks[1]
    if backs(second):
        return Verification(True, "verified: a check sampled warm gives the same result (the first check repeated the "
                                  "answer's own code)", checks)
    if second["result_str"] is None:
        return Verification(False, "not verified: the first check repeated the answer's own code and another failed "
                                   f"({clip(second['error'] or '', 120)})", checks)
    return _unsure(checks, [second["result_str"]])


def rescue(ctx: "RunContext", state: Mapping[str, Any], key: str = AHEAD) -> tuple[dict[str, Any], Any] | None:
    """The independent computation of the question (the one started ahead, else written now) when the
    run's own code failed every attempt: its result, if it has one that fits the question, answers
    instead of an error (robust's node 5 does the same for a failed round); :func:`verify_rescued`
    then marks it. None when it failed too."""
    check, run = take_check(ctx, state, key)
    return (check, run) if check["result_str"] is not None else None


def verify_rescued(ctx: "RunContext", state: Mapping[str, Any], check: dict[str, Any]) -> Verification:
    """The mark of an answer that is an independent computation's (:func:`rescue`): verified only when a
    second one, sampled warmer, agrees with it from another code; "not checked" when the setting verify is off."""
    if (off := _setting_off(ctx)) is not None:
        return off
    second, _ = second_check(ctx, state, check)
    if votes_with(check, second):
        return Verification(True, "verified: the code step failed every attempt; two independent computations of the question "
                                  "agree on this result", [check, second])
    other = second["result_str"]
    return Verification(False, "not sure: the code step failed every attempt; this result is one independent computation's"
                        + (f", another gave {clip(other, 80)}" if other else ""), [check, second], others=[other] if other else [])


def from_checks(result_str: str | None, checks: list[dict[str, Any]], code: str | None = None, question: str = "") -> Verification:
    """The mark of an answer that checks have already been run for (robust's node 5): verified when
    another computation agrees with ``result_str`` on ``question``; ``code`` is the answer's code, to
    tell a check that is the answer's own computation (adopted as the answer, or a copy of its code:
    :func:`common.votes.echoes`), which does not vote twice."""
    ran = [c for c in checks if c]
    if not result_str:
        return not_checked("the answer has no result value to compare (a chart, printed output only, or a failed run)")
    if not ran:
        return not_checked("no independent computation was run")
    own = [c for c in ran if echoes(c, (code,))]
    agreeing = sum(1 for c in ran if c not in own and answers_agree(question, result_str, c.get("result_str"))) + 1
    adopted = any(c["code"] == code for c in ran)  # the result node 4 had before counts among the computations
    total = len(ran) + 1 if adopted else len(ran) - len(own) + 1
    others = [c["result_str"] for c in ran if c.get("result_str") is not None and not answers_agree(question, result_str, c["result_str"])]
    if agreeing >= 2:
        how = "an independent computation of the question gives the same result" if total == 2 else f"{agreeing} of {total} computations agree"
        return Verification(True, f"verified: {how}", ran, others=others)
    return _unsure(ran, others)


def _unsure(checks: list[dict[str, Any]], others: list[str]) -> Verification:
    """The mark when no computation backs the answer: "not sure", naming the results the checks gave
    instead (``others``), or "not verified" when every check failed (no result to name). One sentence
    for :func:`verify` and :func:`from_checks`, so every door reads the same words."""
    if not others:
        return Verification(False, "not verified: the independent computations failed", checks, others=others)
    return Verification(False, "not sure: independent computations gave " + "; ".join(clip(o, 80) for o in others), checks, others=others)


UNSURE = "Not verified: an independent computation of the question gave {other}, so this answer may be wrong."


def unsure_note(verification: Verification) -> str:
    """The sentence an explanation ends with when another computation disagreed and none agreed (honest, not hidden)."""
    if verification.verified or not verification.others:
        return ""
    return UNSURE.format(other=clip(verification.others[0], 120).strip())
