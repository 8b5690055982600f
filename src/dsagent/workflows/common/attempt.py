"""The code step of every workflow: one attempt of freshly written code, from mends to verdict.

    tried = attempt_code(ctx, question, code)
    tried.outcome(last=attempt == max_attempts)   # "success", "misfit" or "failed"

:func:`attempt_code` applies the before-run mends (``mends.BEFORE_RUN``), runs the code in the
sandbox, checks that a successful run's ``result`` fits the question (``fit.result_misfit``), and
on a misfit tries the after-misfit mends (``mends.AFTER_MISFIT``), keeping a mended code only when
its result then fits. The :class:`Attempt` it returns holds the code as it ran (the one a user
sees), the run, the state's ``execution_result``, the misfit, the mends applied and a detail for
the step row. Which attempt this is, how many are allowed and where the graph goes next stay the
workflow's (its nodes, state fields and routing are its seed's).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dsagent.workflows.common.code import run_code
from dsagent.workflows.common.grounded import mend_to_fit, run_misfit
from dsagent.workflows.common.mends import mend_before_run, run_facts

if TYPE_CHECKING:
    from dsagent.runtime import RunContext
    from dsagent.sandbox import CodeRun


@dataclass
class Attempt:
    """One attempt's outcome."""

    code: str
    """The code as it ran last: the written code with the mends applied."""
    run: "CodeRun"
    """The sandbox run of :attr:`code` (for a code refused before running, a failed run that says why)."""
    execution_result: dict[str, Any] | None
    """The state's ``execution_result`` of the run (None when it failed)."""
    misfit: str | None = None
    """Why a run that succeeded does not answer the question (said like an error), else None."""
    mends: list[str] = field(default_factory=list)
    """The labels of the mends that changed the code, before the run and after a misfit."""
    refused: bool = False
    """The workflow's ``check`` refused the code: it did not run."""

    @property
    def error(self) -> str | None:
        """What goes back to the code step: the misfit, else the run's error."""
        return self.misfit or self.run.error

    @property
    def detail(self) -> str:
        """The mends applied, for the step row ("" when none): "label; label; "."""
        return "".join(f"{label}; " for label in self.mends)

    def outcome(self, last: bool = False) -> str:
        """"failed" (the code did not run through), "misfit" (it ran, its result does not fit the
        question, and this is not the ``last`` attempt: it goes back like an error) or "success"
        (a misfit at the last attempt is kept: an answer that may fit beats none)."""
        if not self.run.success:
            return "failed"
        return "misfit" if self.misfit and not last else "success"


def attempt_code(ctx: "RunContext", question: str, code: str, *, check: Callable[[str], str | None] | None = None,
                 options: Mapping[str, Any] | None = None, record: bool = True, fresh: bool = False) -> Attempt:
    """Mend, run, fit-check and mend a misfit of ``code`` written for ``question`` (see the module).

    ``check``: the workflow's own test of the mended code before it runs (react's library
    allow-list), returning an error to refuse it; ``options`` go to the sandbox run (react's
    ``allowed_imports``); ``record``: record the run's figures in the run log (react keeps only
    some and records those itself); ``fresh``: the code is a whole program written anew (quick's
    and robust's retries), so ``df`` and ``datasets`` are the data as loaded again, not as an
    earlier attempt left them (``df = df[...]`` in a failed attempt silently cut the next one's
    rows). React's steps build on each other and keep what earlier steps bound.
    """
    if fresh:
        options = {**dict(options or {}), "fresh_data": True}
    from dsagent.sandbox.base import CodeRun

    facts = run_facts(ctx)
    code, mends = mend_before_run(code, facts)
    refusal = check(code) if check else None
    if refusal is not None:
        return Attempt(code, CodeRun(success=False, code=code, error=refusal), None, mends=mends, refused=True)

    def run(c: str) -> tuple["CodeRun", dict[str, Any] | None]:
        return run_code(ctx, c, record=record, **dict(options or {}))

    outcome, result = run(code)
    found = run_misfit(ctx, question, code, result) if outcome.success else None
    if found:
        mended = mend_to_fit(ctx, question, code, result, run)
        if mended:  # what the code meant, by code: e.g. idxmax's row label → the name at that row
            code, outcome, result, labels = mended
            found = None
            mends += labels
    return Attempt(code, outcome, result, found, mends)
