"""The turn's reply: checked against what the turn's tools computed, and the answer said first.

Every number and data label the reply states must be in the outputs of the tools called for this
message (their results, and the full result a stage-4 task stored), by the same grounding check
quick's explanation gets (:func:`ground_in_run`): regenerated once with the discrepancy named, then
mended by code. The record goes to the turn's run (its final output) and to the state.

When a tool computed one value (answer_question's or an executed task's result), the reply's
first sentence states it: the sentence that does is moved first, else the value is put before the
reply. After ``answer_question`` the reply is its answer, already grounded by the workflow that
computed it; no model call rewrites it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from dsagent.workflows.common.computed import is_number
from dsagent.workflows.common.wording import WHICH

if TYPE_CHECKING:
    from dsagent.runtime import RunContext
    from dsagent.workflows.assistant.project import Project
    from dsagent.workflows.assistant.router import Turn

COMPUTING = ("answer_question", "execute_analysis", "view_results")
"""Tools whose ``Result:`` line is a computed value."""
_NUMPY = re.compile(r"^np\.\w+\((.*)\)$")
_ANSWER = re.compile(r"^Answer: (.*?)(?=\nResult: |\nReport: |\Z)", re.S)
_NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?(?![\w])")
_SENTENCE = re.compile(r"(?<=[.!?。])\s+")


def outputs(turn: "Turn", project: "Project") -> list[str]:
    """What the turn's tools computed: each result text (answer_question's without its own prose,
    which is no output), the whole result a tool kept beside it, and an executed task's stored result."""
    found = [_ANSWER.sub("", c["result"]) if c["name"] == "answer_question" else c["result"] for c in turn.calls if c.get("result")]
    found += [str(c["artifact"].get("result_str") or "") for c in turn.calls if isinstance(c.get("artifact"), dict)]
    for call in turn.calls:
        task = project.task(call["args"].get("task_id")) if call["name"] in ("execute_analysis", "view_results") and call["args"].get("task_id") else None
        record = project.result(task) if task else None
        if record:
            found += [str(record.get("result") or ""), str(record.get("explanation") or "")]
    return found


def one_value(turn: "Turn", project: "Project") -> str | None:
    """The value the last computing tool of the turn produced (answer_question's whole result, kept
    beside its message; an executed task's stored result), when it is one value: a number or a
    short label on one line. None otherwise."""
    for call in reversed(turn.calls):
        if call["name"] not in COMPUTING or call["result"].startswith("Error"):
            continue
        if call["name"] == "answer_question":
            result = (call.get("artifact") or {}).get("result_str")
        else:
            task = project.task(call["args"].get("task_id")) if call["args"].get("task_id") else None
            result = (project.result(task) or {}).get("result") if task else None
        value = _NUMPY.sub(r"\1", str(result or "").strip()).strip("'\"")
        return value if value and "\n" not in value and len(value) <= 60 and len(value.split()) <= 3 and "{" not in value else None
    return None


def tool_answer(turn: "Turn") -> tuple[str, dict[str, Any] | None] | None:
    """answer_question's answer when it is the turn's last call and succeeded, with the grounding
    record the question's run made of it (checked against all that run's outputs), or None."""
    if not turn.calls or turn.calls[-1]["name"] != "answer_question":
        return None
    match = _ANSWER.match(turn.calls[-1]["result"])
    if not match or not match.group(1).strip():
        return None
    return match.group(1).strip(), (turn.calls[-1].get("artifact") or {}).get("grounding")


def states(sentence: str, value: str) -> bool:
    """Does ``sentence`` state ``value`` (a number as rounded to the decimals shown, or a label as a word)?"""
    try:
        number = float(value.replace(",", ""))
    except ValueError:
        return re.search(rf"(?<!\w){re.escape(value)}(?!\w)", sentence, re.I) is not None
    for token in _NUMBER.findall(sentence):
        plain = token.replace(",", "")
        decimals = len(plain.partition(".")[2])
        if decimals == 0 and not (number.is_integer() or abs(number) >= 100):
            continue
        if abs(round(number, decimals) - float(plain)) <= 0.5001 * 10 ** -decimals:
            return True
    return False


def lead_with(text: str, value: str | None) -> str:
    """``text`` with the sentence that states ``value`` first (``value`` put before it when none does)."""
    text = text.strip()
    if not value:
        return text
    sentences = [s for s in _SENTENCE.split(text) if s.strip()]
    if sentences and states(sentences[0], value):
        return text
    stating = next((i for i, s in enumerate(sentences) if states(s, value)), None)
    if stating is None:
        return f"Answer: {value}. {text}".strip()
    return " ".join([sentences[stating], *sentences[:stating], *sentences[stating + 1:]])


def grounded_reply(ctx: "RunContext", text: str, turn: "Turn", project: "Project", messages: list[Any] | None,
                   max_tokens: int | None) -> tuple[str, dict[str, Any] | None]:
    """The reply checked against the turn's tool outputs (regenerated once when ``messages``, the
    prompt that wrote it, is given; mended by code otherwise), then led by the one computed value."""
    from dsagent.workflows.common.grounded import ground_in_run, regenerate_with

    record = None
    computed = tool_answer(turn)
    if computed is not None and computed[1] is not None and text == computed[0]:
        record = computed[1]  # the question's run's own check, against all of its outputs
    elif turn.calls:
        regenerate = regenerate_with(ctx, messages, text, max_tokens or 300) if messages else None
        grounded = ground_in_run(ctx, text, outputs(turn, project), turn.request, regenerate)
        text, record = grounded.text, grounded.record()
    return lead_with(text, leading_value(turn.request, one_value(turn, project))), record


def leading_value(request: str | None, value: str | None) -> str | None:
    """The computed value a reply leads with: none when the request asks which / who (a name) and
    the value is a number (the number computed on the way is not the answer asked for)."""
    if value is not None and WHICH.search(request or "") and is_number(value):
        return None
    return value

