"""The code step's pieces: ask for code (:func:`write_code`), take it out of the reply
(:func:`extract_code`, which only extracts), run it (:func:`run_code`), and turn a run's output into
prompt-sized text (:func:`describe_output`) or a reason not to trust it (:func:`unchecked_result`).
The step that puts them together with the mends and the fit check is ``common.attempt``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from dsagent.workflows.common.naming import only_literals_in_result
from dsagent.workflows.common.text import clip, quote_data

if TYPE_CHECKING:
    from langchain_core.messages import BaseMessage

    from dsagent.runtime import RunContext
    from dsagent.sandbox import CodeRun

RESAMPLE_TEMPERATURE = 0.7
CODE_MAX_TOKENS = 768

# A NaN as a value of its own (a scalar, or an item of a flat dict, list or a test's result: `nan`
# as Python and NumPy print it, `<NA>` as pandas does), not a missing cell in a table printed over
# several lines nor in a nested record ({'Age': {1: nan}}), which may be the answer.
_NAN_VALUE = re.compile(r"\A(?:[^\n]*[\[(:,{=] ?)?(?:np\.float64\()?(?:nan\b|<NA>)(?!\n.)")
_FENCE = re.compile(r"```[ \t]*(?:python|py|Python)?[ \t]*\n(.*?)(?:```|\Z)", re.S)


def extract_code(reply: str) -> str:
    """The code inside a reply: the fenced blocks if any (joined), else the reply itself with the
    prose lines before its first code-looking line left out (small models often add a sentence
    before the code). Nothing is rewritten: the mends are the code step's (``common.mends``)."""
    blocks = [b.strip("\n") for b in _FENCE.findall(reply)]
    if blocks:
        return "\n\n".join(b for b in blocks if b.strip()).strip() + "\n"
    lines = reply.strip().splitlines()
    start = 0
    for i, line in enumerate(lines):
        if re.match(r"^(import |from |#|[A-Za-z_][\w\.\[\]'\" ,]*\s*=|print\(|for |if |def |with |result|fig)", line.strip()):
            start = i
            break
    return "\n".join(lines[start:]).strip() + "\n"


def describe_output(execution_result: dict | None) -> str:
    """What the model is shown of a successful run: result, printed output, figures (quoted as data)."""
    if not execution_result:
        return "(no output)"
    parts = []
    if execution_result.get("result_str") is not None:
        parts.append(f"result = {clip(execution_result['result_str'])}")
    if execution_result.get("stdout"):
        parts.append(f"printed:\n{clip(execution_result['stdout'], 800)}")
    if execution_result.get("figures"):
        parts.append(f"figures created: {len(execution_result['figures'])}")
    if execution_result.get("figure_data"):
        parts.append(f"the chart shows:\n{clip(execution_result['figure_data'], 800)}")
    return quote_data("\n".join(parts)) if parts else "(the code ran but set no `result` and printed nothing)"


def unchecked_result(code: str, execution_result: dict | None) -> str | None:
    """Why a successful run's ``result`` cannot be trusted without asking a model, or None.

    Checked by code, not by the model: no ``result``/figure at all, a number in ``result`` that is
    NaN, or every value put into ``result`` is a literal (small models copy numbers or the prompt's
    JSON instead of computing). Values put in count too: ``result[k] = ...`` and
    ``result.append(...)``/``update(...)``.
    """
    import ast

    er = execution_result or {}
    if er.get("result_str") is None and not er.get("figures") and not (er.get("stdout") or "").strip():
        return "the code set no `result`, made no figure and printed nothing"
    nan = nan_problem(er.get("result_str"))
    if nan:
        return nan
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return None
    if not only_literals_in_result(tree):
        return None  # computed from something
    return "`result` is a hardcoded literal, not computed from the data"


def nan_problem(result_str: str | None) -> str | None:
    """Why a result whose number is NaN cannot be an answer, or None."""
    nested = result_str is not None and result_str.count("{") + result_str.count("[") > 1
    if not nested and _NAN_VALUE.search(result_str or ""):
        return ("`result` holds NaN where a number belongs: missing values reached the computation "
                "(drop them first, s.dropna(), or use pandas' own .mean()/.median()/.std()/.corr(), which skip them)")
    return None


def write_code(ctx: "RunContext", messages: list["BaseMessage"], rejected: set[str],
               fresh: list["BaseMessage"] | None = None, max_tokens: int = CODE_MAX_TOKENS) -> tuple[str, bool]:
    """Ask for code; if it repeats a rejected one, ask once more, warmer. Returns (code, resampled).

    Greedy decoding repeats itself, and a code that already failed would fail again. When the
    warmer sample repeats it too (a fix prompt that shows the failing code invites a copy),
    ``fresh`` — a prompt without the failing code — is asked, warm, for a last different one.
    A code repeats a rejected one when it is the same as written or once mended (rejected codes
    are kept as they ran, mended); the code returned is as written (the code step mends it).
    """
    from dsagent.workflows.common.mends import mend_before_run, run_facts

    def repeated(code: str) -> bool:
        return code in rejected or mend_before_run(code, run_facts(ctx))[0] in rejected

    code = extract_code(ctx.llm(messages, max_tokens=max_tokens))
    if not repeated(code):
        return code, False
    code = extract_code(ctx.llm(messages, max_tokens=max_tokens, temperature=RESAMPLE_TEMPERATURE))
    if repeated(code) and fresh is not None:
        code = extract_code(ctx.llm(fresh, max_tokens=max_tokens, temperature=RESAMPLE_TEMPERATURE))
    return code, True


def follow_up(first: list["BaseMessage"], code: str, fix: str) -> list["BaseMessage"]:
    """A fix asked as the next turn of the conversation that wrote ``code``: ``first`` (the
    prompt that asked for it), the code as the model's reply, then ``fix`` (the error and what to
    do). A local model's cache still holds ``first`` and the reply it wrote, so only the fix turn
    is read, not the instructions and the code again."""
    from langchain_core.messages import AIMessage, HumanMessage

    return [*first, AIMessage(content=f"```python\n{code.strip()}\n```"), HumanMessage(content=fix)]


def continues(ctx: "RunContext", first: list["BaseMessage"]) -> bool:
    """Whether the run's last own model call was ``first``'s conversation (``first`` itself, or a
    fix after it), so the model's cache still holds ``first``: a turn after it (:func:`follow_up`)
    then reads only the new text. After any other call it would read ``first`` again (robust's
    node 5 may ask the model between node 4 and node 6)."""
    last = ctx.last_prompt
    return bool(last) and last[: len(first)] == first


def held(ctx: "RunContext", first: list["BaseMessage"]) -> list["BaseMessage"] | None:
    """``first`` when the model's cache holds its conversation (:func:`continues`), else None: what
    an explain step takes to ask its turn after the code, or from the context."""
    return first if continues(ctx, first) else None


def run_code(ctx: "RunContext", code: str, *, record: bool = True, **options: Any) -> tuple["CodeRun", dict[str, Any] | None]:
    """Run in the sandbox (``options`` go to ``sandbox.run``, e.g. react's ``allowed_imports``),
    record its figures in the run log unless ``record`` is False (a workflow that keeps only some
    of them records those with :func:`record_figures`), and return the run and the state's
    execution_result."""
    run = ctx.sandbox.run(code, **options)
    if record:
        record_figures(ctx, run.figures)
    return run, execution_result(run)


def record_figures(ctx: "RunContext", figures: "list[str] | CodeRun") -> None:
    """Each figure path (or each figure of a run) as an artifact of the run in the run log."""
    for path in getattr(figures, "figures", figures):
        ctx.run_log.add_artifact(ctx.run_id, "figure", path)


def execution_result(run: "CodeRun") -> dict[str, Any] | None:
    """The state's execution_result of a run (None if it failed)."""
    if not run.success:
        return None
    return {
        "type": run.output_type, "figures": run.figures, "tables": run.tables,
        "result_str": run.result, "result_type": run.result_type, "stdout": run.stdout, "duration_s": run.duration_s,
        "figure_data": run.figure_data,
    }
