"""The human review's interrupt value and the answers it accepts.

The value is a plain JSON dict shaped as an Agent Inbox / Agent Chat UI ``HumanInterrupt``; the
answer (``Command(resume=...)``) is "yes", a change in plain words, or the Agent Inbox response
list ``[{"type": "accept" | "edit" | "response", "args": ...}]``.
"""

from __future__ import annotations

import json
from typing import Any

from dsagent.workflows.clean.routing import is_yes

ACTION = "review_cleaning_steps"
QUESTION = "Are the following data cleaning instructions correct? (Answer 'yes' or provide modifications)"
QUESTION_FIX = ("The cleaner did not pass and the model rewrote it. Run the rewritten code below (and save it as the cleaner)? "
                "(Answer 'yes' or provide modifications)")


def review_text(recommended_steps: str, code: dict[str, str], error: str | None = None) -> str:
    """What the reviewer reads: the steps (or, after a fix, why the code was rewritten), then every
    file's code in full: the code a "yes" runs in the sandbox and saves, nothing else (issue 38, finding 7)."""
    head = f"The last run failed:\n{error.strip()}\n\nThe steps:\n{recommended_steps}" if error else recommended_steps
    files = "".join(f"\n\n{name} (runs in the sandbox, then is saved; re-run it with dsagent clean --rerun {name} NEW.csv):\n"
                    f"```python\n{source.rstrip()}\n```" for name, source in code.items())
    return head + files


def interrupt_value(recommended_steps: str, user_instructions: str, round_: int, code: dict[str, str] | None = None,
                    error: str | None = None) -> dict[str, Any]:
    """The Agent Inbox ``HumanInterrupt``: ``args.code`` ({file name: source}) is the code a "yes"
    approves; ``error`` is set when the fix node rewrote the code after a failed run."""
    code = dict(code or {})
    question = QUESTION_FIX if error else QUESTION
    text = review_text(recommended_steps, code, error)
    return {
        "action_request": {"action": ACTION, "args": {"recommended_steps": recommended_steps, "user_instructions": user_instructions,
                                                      "code": code}},
        "config": {"allow_accept": True, "allow_edit": True, "allow_respond": True, "allow_ignore": False},
        "description": f"{question}\n\n{text}",
        "question": question,
        "recommended_steps": recommended_steps,
        "review_text": text,
        "review_round": round_,
    }


def answer_text(answer: Any) -> str:
    """The reviewer's answer as text: "yes", or the change to make."""
    if isinstance(answer, str):
        stripped = answer.strip()
        if stripped.startswith(("[", "{")):
            try:
                return answer_text(json.loads(stripped))
            except ValueError:
                return stripped
        return stripped
    if isinstance(answer, dict) and "type" not in answer:
        for key in ("answer", "instructions", "response", "text"):
            if isinstance(answer.get(key), str):
                return answer_text(answer[key])
        return json.dumps(answer)
    if isinstance(answer, dict):
        answer = [answer]
    if isinstance(answer, list) and answer and isinstance(answer[0], dict):
        first = answer[0]
        kind, args = first.get("type"), first.get("args")
        if kind == "accept":
            return "yes"
        if kind == "response":
            return str(args or "").strip() or "yes"
        if kind == "edit":
            inner = (args or {}).get("args", args) if isinstance(args, dict) else args
            if isinstance(inner, dict):
                for key in ("instructions", "user_instructions", "recommended_steps"):
                    if isinstance(inner.get(key), str) and inner[key].strip():
                        return inner[key].strip()
            return str(inner or "").strip() or "yes"
        if kind == "ignore":
            return "yes"
    return str(answer).strip()


def added_instructions(previous: str, answer: str) -> str:
    """The user's instructions after a change asked for in review (the seed adds it to them)."""
    change = answer.strip()
    if not change or is_yes(change):
        return previous
    return (previous.strip() + "\n" if previous.strip() else "") + f"Added instructions: {change}"
