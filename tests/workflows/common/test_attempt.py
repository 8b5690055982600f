"""The code step shared by quick, robust and react (common/attempt.py): before-run mends, the run,
the fit check, the after-misfit mends and the verdict, on a table of the test's own."""

from types import SimpleNamespace

import pandas as pd

from dsagent.sandbox.base import CodeRun
from dsagent.workflows.common.attempt import attempt_code

FRAME = pd.DataFrame({"shop": ["Ash", "Birch", "Cedar"], "units": [3, 9, 4], "returned": ["no", "yes", "no"]})


class Sandbox:
    """Runs code with exec on a copy of the frame; records what it was asked."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict]] = []

    def run(self, code: str, **options) -> CodeRun:
        self.calls.append((code, options))
        ns = {"df": FRAME.copy(), "pd": pd}
        try:
            exec(code, ns)  # noqa: S102 — the test's own code
        except Exception as exc:  # noqa: BLE001
            return CodeRun(success=False, code=code, error=f"{type(exc).__name__}: {exc}")
        result = ns.get("result")
        return CodeRun(success=True, code=code, result=None if result is None else str(result),
                               result_type=type(result).__name__, figures=["/tmp/f.png"] if "fig" in ns else [])


def make_ctx():
    artifacts: list[str] = []
    run_log = SimpleNamespace(add_artifact=lambda run_id, kind, path: artifacts.append(path))
    return SimpleNamespace(sandbox=Sandbox(), datasets={"orders": FRAME}, run_log=run_log, run_id="r1"), artifacts


def test_before_run_mends_are_applied_and_named():
    ctx, _ = make_ctx()
    tried = attempt_code(ctx, "How many orders were returned?", "result = df['returned'].sum()\n")
    assert tried.code == "result = (df['returned'] == 'yes').sum()\n"
    assert ctx.sandbox.calls[0][0] == tried.code and tried.run.result == "1"
    assert tried.mends == ["Yes/No counted"] and tried.detail == "Yes/No counted; " and tried.outcome() == "success"


def test_a_misfit_is_mended_by_code_and_kept_only_when_it_then_fits():
    ctx, _ = make_ctx()
    tried = attempt_code(ctx, "Which shop sold the most units?", "result = df['units'].idxmax()\n")
    assert tried.code.endswith("result = df.loc[result, 'shop']\n") and tried.run.result == "Birch"
    assert tried.misfit is None and tried.mends == ["row label → name"] and len(ctx.sandbox.calls) == 2


def test_a_misfit_no_mend_fixes_goes_back_unless_it_is_the_last_attempt():
    ctx, _ = make_ctx()
    tried = attempt_code(ctx, "Which shop sold the most units?", "result = float(df['units'].max())\n")
    assert tried.misfit.startswith("ResultDoesNotFitQuestion") and tried.error == tried.misfit
    assert tried.outcome(last=False) == "misfit" and tried.outcome(last=True) == "success"
    assert tried.execution_result is not None  # kept at the last attempt: the workflow may use it


def test_a_failed_run_fails():
    ctx, _ = make_ctx()
    tried = attempt_code(ctx, "What is the total?", "result = df['nope'].sum()\n")
    assert tried.outcome(last=True) == "failed" and "KeyError" in tried.error and tried.execution_result is None


def test_the_workflows_check_refuses_before_the_run_and_options_reach_the_sandbox():
    ctx, artifacts = make_ctx()
    refuse = lambda code: "ImportError: not allowed" if "scipy" in code else None  # noqa: E731
    tried = attempt_code(ctx, "x", "import scipy\nresult = 1\n", check=refuse)
    assert tried.refused and tried.outcome() == "failed" and tried.error == "ImportError: not allowed" and not ctx.sandbox.calls
    tried = attempt_code(ctx, "Plot units", "fig = 1\nresult = df['units'].sum()\n", options={"allowed_imports": ("pandas",)},
                         record=False)
    assert ctx.sandbox.calls[-1][1] == {"allowed_imports": ("pandas",)} and tried.run.figures and not artifacts
    attempt_code(ctx, "Plot units", "fig = 1\nresult = df['units'].sum()\n")
    assert artifacts == ["/tmp/f.png"]
