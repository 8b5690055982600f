"""Tool choice for models without native tool calling (the embedded model, the scripted one, a
server that lacks it).

The model picks the next tool by constrained decoding over an enum of tool names plus "none";
code does the rest: the pipeline's order (a stage whose input is missing gets its prerequisites
queued first), arguments it can read exactly (file names and task ids the request mentions, the
request itself as the question), and the task a request means when it names none (the task
whose words it shares most, else the current one; the model picks among the tasks only when
that is a tie). Only choices that can do something are offered (:func:`offered`): not a tool
already run for this request, not a viewer of what does not exist yet, and only the task tools
for a request that names a task.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from pydantic import BaseModel, Field, create_model

from dsagent.workflows.assistant import prompts
from dsagent.workflows.assistant.project import Project, normalize_task_id

TOOL_NAMES = list(prompts.TOOL_LINES)
PIPELINE = ["summarize_data", "suggest_tasks", "plan_analysis", "execute_analysis"]
HISTORY_TURNS = 2
HISTORY_CHARS = 240
_TASK_ID = re.compile(r"(?<![A-Za-z0-9])[Tt]\s?(\d{1,2})(?!\d)|(?:task|tarea|tâche|aufgabe|タスク|compito)\s*(?:n[o°º.]?\s*)?#?\s*(\d{1,2})(?!\d)", re.I)
_WORD = re.compile(r"[^\W_]{3,}", re.U)


@dataclass
class Turn:
    """The current user message and what ran for it so far."""

    request: str
    calls: list[dict[str, Any]] = field(default_factory=list)
    """[{name, args, result, artifact}] in call order (artifact: what a tool kept beside its result, or None)."""
    history: list[tuple[str, str]] = field(default_factory=list)
    """Earlier (user, answer) exchanges, oldest first: the latest :data:`HISTORY_TURNS` of them."""
    left_out: int = 0
    """How many older exchanges the thread has beyond ``history`` (the prompt says so)."""


def current_turn(messages: list[BaseMessage]) -> Turn:
    last_human = max((i for i, m in enumerate(messages) if isinstance(m, HumanMessage)), default=-1)
    request = str(messages[last_human].content) if last_human >= 0 else ""
    results = {m.tool_call_id: m for m in messages[last_human + 1:] if isinstance(m, ToolMessage)}
    calls = [{"name": c["name"], "args": c.get("args") or {}, "result": str(getattr(results.get(c.get("id")), "content", "")),
              "artifact": getattr(results.get(c.get("id")), "artifact", None)}
             for m in messages[last_human + 1:] if isinstance(m, AIMessage) for c in m.tool_calls]
    history: list[tuple[str, str]] = []
    user = None
    for m in messages[:max(last_human, 0)]:
        if isinstance(m, HumanMessage):
            user = str(m.content)
        elif isinstance(m, AIMessage) and not m.tool_calls and user is not None:
            history.append((user, str(m.content)))
            user = None
    return Turn(request, calls, history[-HISTORY_TURNS:], max(0, len(history) - HISTORY_TURNS))


def status_line(project: Project, pending_clean: bool) -> str:
    files = project.raw_files()
    summarized = sum(project.summary_is_current(p) for p in files)
    tasks = project.tasks()
    parts = [f"{len(files)} data file(s) in data/raw ({', '.join(p.name for p in files) or 'none'})",
             f"summarized: {summarized}/{len(files)}",
             f"tasks: {', '.join(t['id'] for t in tasks) if tasks else 'none yet'}"]
    if tasks:
        executed = [t["id"] for t in tasks if project.result(t)]
        parts.append(f"executed: {', '.join(executed) if executed else 'none yet'}")
    if pending_clean:
        parts.append("clean_data's review is waiting for the user's answer (yes or a change)")
    return "; ".join(parts) + "."


def system_message() -> SystemMessage:
    tools = "\n".join(f"- {name}: {line}" for name, line in prompts.TOOL_LINES.items())
    return SystemMessage(content=prompts.SYSTEM.format(tools=tools) + "\n\n" + prompts.EXAMPLES)


def _history(turn: Turn) -> str:
    if not turn.history:
        return ""
    clip = lambda t: " ".join(t.split())[:HISTORY_CHARS]  # noqa: E731
    older = f" (the {turn.left_out} older exchange{'s' if turn.left_out > 1 else ''} of this conversation left out)" if turn.left_out else ""
    return f"Earlier{older}:\n" + "\n".join(f"user: {clip(u)}\nassistant: {clip(a)}" for u, a in turn.history) + "\n"


def decide(ctx: Any, project: Project, turn: Turn, pending_clean: bool) -> tuple[str, str]:
    """The model's choice of the next tool and of a second one the request asks for ("none": no
    tool), by constrained decoding over the tools not run yet for this request."""
    from dsagent.errors import StructuredOutputError

    done = [c["name"] for c in turn.calls]
    allowed = offered(project, turn)
    if len(allowed) == 1:
        return allowed[0], "none"  # one way on: no model call
    error = _last_line_error(turn)
    tail = prompts.DECIDE.format(
        status=status_line(project, pending_clean), history=_history(turn), request=turn.request,
        done=(prompts.DONE.format(steps=", ".join(done)) if done else "") + (prompts.FAILED.format(error=error) if error else "")
        + (prompts.PREREQUISITE_DONE if only_prerequisites(turn) and not error else ""),
        or_done=" or everything it asks for is done" if done else "",
    )
    try:
        parsed = ctx.llm_structured([system_message(), HumanMessage(content=tail)], _choice(allowed))
    except StructuredOutputError:
        parsed = None
    fallback = "none" if "none" in allowed else allowed[0]
    first = parsed.tool if parsed is not None and parsed.tool in allowed else fallback
    then = parsed.then if parsed is not None and parsed.then in allowed else "none"
    if first == "none" or then == first or not two_parts(turn.request):
        then = "none"
    return first, then


def _choice(allowed: list[str]) -> type[BaseModel]:
    """The schema of a choice among ``allowed``: the enum constrains the embedded model's grammar and
    a server's JSON schema; any other string still parses, and the caller holds it to ``allowed``."""
    enum = {"enum": allowed}
    return create_model("ToolChoice", tool=(str, Field(json_schema_extra=enum)), then=(str, Field("none", json_schema_extra=enum)))


PREREQUISITES = {"list_data_files", "summarize_data"}
"""What the assistant runs to get at the data; never, alone, the answer to a question about it."""
FINISHING = {"answer_question", "clean_data"}
"""Tools that do what a request asks: once one has run, the turn answers."""


_ABOUT_FILES = re.compile(r"\b(files?|datasets?|data\s+sets?|tables?|sheets?|folders?|columns?)\b", re.I)


def asks_about_values(request: str) -> bool:
    """Does the request ask one value of the data ("which day has the highest …", "how many …"),
    not something of the files themselves ("which files do I have?")?"""
    from dsagent.workflows.common.fit import asks_one_value

    return asks_one_value(request) and not _ABOUT_FILES.search(request or "")


def only_prerequisites(turn: Turn) -> bool:
    """Has only a listing or a summary run for this request? Then it may still ask a question."""
    return bool(turn.calls) and {c["name"] for c in turn.calls} <= PREREQUISITES


def request_done(turn: Turn) -> bool:
    """Has a tool that does what a request asks (answer_question, clean_data) run for it without error?"""
    return bool(turn.calls) and turn.calls[-1]["name"] in FINISHING and not turn.calls[-1]["result"].startswith("Error")


def keep_then(first: str, then: str) -> bool:
    """Is the second tool of a two-part request taken? Not "none"; and after a tool that does what a
    request asks (answer_question, clean_data), only another such tool: a question answered or a
    table cleaned is no reason to summarize, suggest, plan and execute. (A request that names a task
    is offered the task tools first: :func:`offered`.)"""
    return then != "none" and (first not in FINISHING or then in FINISHING)


TASK_TOOLS = ["plan_analysis", "execute_analysis", "view_results", "view_tasks"]


def offered(project: Project, turn: Turn) -> list[str]:
    """The choices that can do something now, "none" last: not a tool already run for this request;
    not a viewer of what does not exist yet (view_summary before any summary, view_tasks before any
    task, view_results before any result; the status line says what exists, so a reply can say so);
    not list_data_files, nor "none" before a tool has run, for a request that names a data file;
    and a request that names a task (T2, "task 3") gets the task tools only, until one has run."""
    done = {c["name"] for c in turn.calls}
    tasks = project.tasks()
    useful = {"view_summary": bool(project.current_summaries()), "view_tasks": bool(tasks),
              "view_results": any(project.result(t) for t in tasks),
              "list_data_files": not mentioned_files(project, turn.request)}
    names = [t for t in TOOL_NAMES if t not in done and useful.get(t, True)]
    if only_prerequisites(turn):  # after a listing or a summary: the summary, the question, or done
        if asks_about_values(turn.request) and "answer_question" in names:
            return ["answer_question"]  # no listing or summary holds a count, a mean or a "which one"
        names = [t for t in names if t in ("summarize_data", "answer_question")]
    task_tools = [t for t in TASK_TOOLS if t in names]
    if task_tools and mentioned_task(turn.request) and not done & set(TASK_TOOLS):
        return task_tools
    if names and not done and not useful["list_data_files"]:
        return names  # a request that names a data file wants something of it: a reply without a tool cannot see it
    return names + ["none"]


# A second tool is taken only from a request with a joint in it: a conjunction or a list mark.
_JOINT = re.compile(r"\b(and|then|also|afterwards?|und|dann|danach|anschließend|et|puis|ensuite|y|luego|después|también|e|poi|quindi)\b"
                    r"|[,;、]|そして|それから|その後|てから|ながら", re.I)


def two_parts(request: str) -> bool:
    """Could the request ask for two things? (a joint between two parts: "…, then …", "… und …", "…、…")"""
    return bool(_JOINT.search(request.strip().rstrip(".!?。！？")))


def _last_line_error(turn: Turn) -> str:
    """The last tool result when it is an error (its guidance decides what comes next)."""
    last = turn.calls[-1]["result"] if turn.calls else ""
    return " ".join(last.split())[:300] if last.startswith("Error") else ""


# -- the pipeline's order, by code ---------------------------------------------------------------
def prerequisites(tool: str, project: Project, task_id: str | None) -> list[str]:
    """The pipeline stages that must run before ``tool`` (earliest first), from the files."""
    if tool not in PIPELINE[1:]:
        return []
    files = project.raw_files()
    missing: list[str] = []
    if files and not any(project.summary_is_current(p) for p in files):
        missing.append("summarize_data")
    tasks = [] if missing else project.tasks()
    if tool in ("plan_analysis", "execute_analysis") and not tasks:
        missing.append("suggest_tasks")
    if tool == "execute_analysis":
        task = project.task(task_id) if tasks and task_id else None
        if task is None or project.plan(task) is None:
            missing.append("plan_analysis")
    return [t for t in PIPELINE if t in missing and PIPELINE.index(t) < PIPELINE.index(tool)]


# -- arguments -----------------------------------------------------------------------------------
def mentioned_files(project: Project, text: str) -> list[str]:
    """Raw files the text names (by file name or by stem as a word)."""
    lower = text.lower()
    found = []
    for path in project.raw_files():
        stem = path.stem.lower()
        edge = "A-Za-z0-9" if stem.isascii() else r"^\W_"  # an ASCII name ends where ASCII letters end (「irisの」)
        if path.name.lower() in lower or re.search(rf"(?<![{edge}]){re.escape(stem)}(?![{edge}])", lower):
            found.append(path.name)
    return found


def mentioned_task(text: str) -> str | None:
    match = _TASK_ID.search(text)
    return normalize_task_id(match.group(1) or match.group(2)) if match else None


def closest_task(tasks: list[dict[str, Any]], text: str) -> str | None:
    """The task sharing most words with ``text`` (None on a tie or no overlap)."""
    words = {w.lower() for w in _WORD.findall(text)}
    scored = sorted(((len(words & {w.lower() for w in _WORD.findall(" ".join(str(v) for v in t.values()))}), t["id"]) for t in tasks), reverse=True)
    if not scored or scored[0][0] == 0 or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1]


def pick_task(ctx: Any, tasks: list[dict[str, Any]], request: str) -> str:
    """The model's pick among the tasks (constrained to their ids) when the request's words do not decide."""
    listing = "\n".join(f"{t['id']}: {t['title']} ({t['file']})" for t in tasks)
    tail = f"Tasks:\n{listing}\n{prompts.ARGS.format(request=request, tool='execute_analysis')}"
    from dsagent.errors import StructuredOutputError

    schema = create_model("TaskChoice", task_id=(str, Field(json_schema_extra={"enum": [t["id"] for t in tasks]})))
    try:
        return normalize_task_id(ctx.llm_structured([system_message(), HumanMessage(content=tail)], schema).task_id) or tasks[0]["id"]
    except StructuredOutputError:
        return tasks[0]["id"]


def fill_args(tool: str, turn: Turn, project: Project, current_task: str | None, pending_clean: bool, ctx: Any) -> dict[str, Any]:
    """The arguments of ``tool`` for this request (exact by code where the request says them)."""
    request = turn.request
    files = mentioned_files(project, request)
    if tool == "summarize_data":
        return {"file_names": files} if files else {}
    if tool == "view_summary":
        return {"file_name": files[0]} if files else {}
    if tool in ("plan_analysis", "execute_analysis", "view_results"):
        named = mentioned_task(request)
        earlier = next((c["args"].get("task_id") for c in reversed(turn.calls) if c["args"].get("task_id")), None)
        if named or earlier:
            return {"task_id": named or earlier}
        tasks = project.tasks()
        if tool == "view_results" or not tasks:
            return {"task_id": current_task} if current_task and tool != "view_results" else ({"task_id": "T1"} if tool != "view_results" else {})
        scoped = [t for t in tasks if t["file"] in files] or tasks
        chosen = closest_task(scoped, request) or (current_task if current_task and not files else None)
        return {"task_id": chosen or (scoped[0]["id"] if len(scoped) == 1 else pick_task(ctx, scoped, request))}
    if tool == "answer_question":
        return {"question": request}
    if tool == "clean_data":
        if pending_clean:
            return {"answer": request}
        return {**({"file_names": files} if files else {}), "instructions": request}
    if tool == "list_data_files":
        ext = re.search(r"\b(csv|tsv|xlsx|parquet|json)\b", request, re.I)
        return {"pattern": f"*.{ext.group(1).lower()}"} if ext and not files else {}
    return {}
