"""Seed 004's ``agent_node``: read the project's progress, then call a tool or answer.

Hosted providers choose tools with their native tool calling (``bind_tools``) where their server
has it; a server that refuses ``tools`` or writes the call as text instead of returning it, and
other models (the embedded one, the scripted one), go through :mod:`router`: constrained choice of the tool,
arguments by code, the pipeline's order kept by code. Either way the node stops at
``max_tool_iterations`` tool calls for one user message with an honest message.
"""

from __future__ import annotations

import uuid
from typing import Any

from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.runnables import RunnableConfig

from dsagent.workflows.assistant import prompts, router
from dsagent.workflows.assistant import reply as replies
from dsagent.workflows.assistant import turn as turns
from dsagent.workflows.assistant.configuration import Configuration
from dsagent.workflows.assistant.project import Project
from dsagent.workflows.assistant.state import AssistantState
from dsagent.workflows.common.prompting import quote_data

ANSWER_TAG = "assistant:answer"
NATIVE = {"ChatOpenAI", "ChatAnthropic", "ChatOllama"}
TOOL_RESULT_CHARS = 1200
LOOKING = {"list_data_files", "view_summary", "view_tasks", "view_results"}
"""Tools that only look: never the model's next step after the seed's first look (list_data_files)."""


def pipeline_view(project: Project) -> dict[str, Any]:
    """The seed's pipeline fields, read from the project's files."""
    files = project.raw_files()
    summaries = project.current_summaries()
    tasks = project.tasks()
    results = {t["id"]: r["report"] for t in tasks if (r := project.result(t))}
    return {
        "available_files": [p.name for p in files], "summary_files": [project.rel(p) for p in summaries],
        "summaries_generated": bool(files) and len(summaries) == len(files), "tasks_suggested": bool(tasks),
        "suggested_tasks": tasks, "analysis_results": results,
    }


def _model(conf: Configuration) -> Any:
    from dsagent.config import load_settings
    from dsagent.workflows.assistant.runtime import chat_model

    settings = load_settings(temperature=conf.agent_llm.temperature)
    return chat_model(conf.agent_llm.model or settings.model, settings)


def _tool_call(name: str, args: dict[str, Any]) -> AIMessage:
    return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": f"call_{uuid.uuid4().hex[:12]}", "type": "tool_call"}])


def make_agent_node() -> Any:
    def agent_node(state: AssistantState, config: RunnableConfig) -> dict[str, Any]:
        from dsagent.workflows.assistant.runtime import runtime_for

        conf = Configuration.from_runnable_config(config)
        runtime = runtime_for(state.get("project_dir"), conf.agent_llm.model or _spec())  # the folder held to the allowed roots first
        model = _model(conf)
        ctx = turns.context(state, runtime)
        try:
            with ctx.step("agent_node") as step:  # the run log names each call's node
                update = _step(state, conf, model, ctx)
                calls = update["messages"][-1].tool_calls
                step["detail"] = f"next: {', '.join(c['name'] for c in calls)}" if calls else "answered"
        except BaseException as exc:
            turns.finish(state, error=exc)
            raise
        reply = update["messages"][-1]
        if not reply.tool_calls:  # the turn's answer: its run ends here
            turns.finish(state, {"answer": str(reply.content), "grounding": reply.response_metadata.get("grounding"),
                                 "tools": [c["name"] for c in router.current_turn(state["messages"]).calls]})
        return update

    return agent_node


def _spec() -> str:
    from dsagent.config import load_settings

    return load_settings().model


def _step(state: AssistantState, conf: Configuration, model: Any, ctx: Any) -> dict[str, Any]:
    """One decision of the agent node: its update (a tool call, or the turn's answer)."""
    from dsagent.workflows.assistant.tools import pending_review

    project = Project.at(state.get("project_dir"))
    view = pipeline_view(project)
    turn = router.current_turn(state["messages"])
    last = turn.calls[-1] if turn.calls else None
    error = last["result"] if last and last["result"].startswith("Error") else None
    task_ids = [c["args"]["task_id"] for c in turn.calls if c["args"].get("task_id")]
    update: dict[str, Any] = {**view, "last_error": error, "current_task_id": task_ids[-1] if task_ids else state.get("current_task_id")}
    current = update["current_task_id"]
    if current and (task := project.task(current)):
        update["plan_created"] = project.plan(task) is not None
        update["analysis_executed"] = project.result(task) is not None
    if len(turn.calls) >= conf.max_tool_iterations:
        steps = ", ".join(c["name"] for c in turn.calls)
        return {**update, "pending_tools": [], "messages": [AIMessage(content=prompts.LIMIT_MESSAGE.format(n=conf.max_tool_iterations, steps=steps))]}
    pending_clean = pending_review(project) is not None
    queue = list(state.get("pending_tools") or [])
    done = router.request_done(turn) and not queue
    if native_tools(model) and not done and (reply := _native_step(model, state, project, ctx)) is not None:
        if not reply.tool_calls:
            reply = _checked(ctx, reply, turn, project, None, conf)
        return {**update, "messages": [reply]}
    if error:
        queue = []  # a failed stage stops the queue; the model reads the error
    if queue:
        name = queue.pop(0)
    elif turn.calls and not error and not router.only_prerequisites(turn):
        name = "none"  # what the request asked for has run: answer
    else:
        # The first choice of a message; or, after a prerequisite (a listing, a summary: the seed's
        # list → summarize, or a question still to answer) or an error, whether to go on — then only
        # the next tool is taken.
        name, then = router.decide(ctx, project, turn, pending_clean)
        queue = [then] if not turn.calls and router.keep_then(name, then) else []
        if turn.calls and name in LOOKING:
            name = "none"  # after the first look, only an action may follow (a resumed run wandered view → view → execute)
    if name != "none":
        # The pipeline's order is code: a stage whose input is missing gets its prerequisites first.
        task = router.fill_args(name, turn, project, current, pending_clean, ctx).get("task_id")
        before = [t for t in router.prerequisites(name, project, task) if t not in {c["name"] for c in turn.calls}]
        if before:
            queue, name = before[1:] + [name] + queue, before[0]
    if conf.verbose:
        import sys

        print(f"[assistant] next: {name}; queued: {queue}", file=sys.stderr)
    if name == "none":
        return {**update, "pending_tools": [], "messages": [_answer(ctx, conf, project, turn, pending_clean)]}
    args = router.fill_args(name, turn, project, current, pending_clean, ctx)
    return {**update, "pending_tools": queue, "messages": [_tool_call(name, args)]}


def _answer(ctx: Any, conf: Configuration, project: Project, turn: router.Turn, pending_clean: bool) -> AIMessage:
    """The turn's reply: answer_question's own answer when it answered the request, else the model's
    reply to the tool results; either way checked against them and led by the computed value."""
    computed = replies.tool_answer(turn)
    if computed is not None:  # its verified mark (common.verify) rides along, as the grounding record does
        artifact = turn.calls[-1].get("artifact") or {}
        mark = {k: artifact[k] for k in ("verified", "verification") if k in artifact}
        return _checked(ctx, AIMessage(content=computed[0], response_metadata=mark), turn, project, None, conf)
    results = "\n".join(f"[{c['name']}] {c['result'][:TOOL_RESULT_CHARS]}" for c in turn.calls)
    tail = prompts.RESPOND.format(
        status=router.status_line(project, pending_clean), history=router._history(turn), request=turn.request,
        results=prompts.RESULTS.format(results=quote_data(results)) if results else "",
        grounding=prompts.GROUNDING_TOOLS if results else prompts.GROUNDING_NONE,
    )
    messages = [router.system_message(), HumanMessage(content=tail)]
    text = ctx.llm(messages, max_tokens=conf.agent_llm.max_tokens).strip() or (turn.calls[-1]["result"] if turn.calls else "")
    return _checked(ctx, AIMessage(content=text), turn, project, messages, conf)


def _checked(ctx: Any, answer: AIMessage, turn: router.Turn, project: Project, messages: list[Any] | None, conf: Configuration) -> AIMessage:
    """``answer`` grounded in the turn's tool outputs and led by its computed value; the grounding
    record rides in its ``response_metadata`` (the thread keeps it; the turn's run logs it)."""
    text, record = replies.grounded_reply(ctx, str(answer.content), turn, project, messages, conf.agent_llm.max_tokens)
    return AIMessage(content=text, response_metadata={**(answer.response_metadata or {}), "grounding": record, "run_id": ctx.run_id})


def native_tools(model: Any) -> bool:
    """Does the model choose tools by native tool calling? A hosted provider's model does, unless its
    server has shown it lacks tool calling (:func:`_native_step`; remembered for the process)."""
    from dsagent.llm import capabilities
    from dsagent.llm.guard import unwrap

    return type(unwrap(model)).__name__ in NATIVE and "tools" not in capabilities.refused(model)


def _written_call(reply: AIMessage, names: set[str]) -> bool:
    """A reply that writes a tool call as text (``{"name": "list_data_files", ...}``, ``<tool_call>``)
    instead of returning it: the server took the tools into the prompt but does not parse calls."""
    text = str(reply.content)
    return not reply.tool_calls and ("<tool_call>" in text or ('"name"' in text and any(f'"{n}"' in text for n in names)))


def _native_step(model: Any, state: AssistantState, project: Project, ctx: Any = None) -> AIMessage | None:
    """A hosted model with native tool calling: the seed's own agent step. None when the server
    refuses ``tools`` or writes the call as text: the node routes instead (and will from now on)."""
    from dsagent.llm import capabilities
    from dsagent.workflows.assistant.tools import get_all_tools, pending_review

    from dsagent.config import load_settings
    from dsagent.workflows.common.history import cap_history, without_unanswered_calls

    status = router.status_line(project, pending_review(project) is not None)
    system = router.system_message()
    system.content += f"\nProject now: {status}"
    # The thread keeps every message; the prompt carries the current request and the latest exchanges that fit.
    # A turn killed in its tool left a call without a result: it is not sent (a resumed thread goes on).
    messages, _ = cap_history(without_unanswered_calls(state["messages"]), load_settings().history_max_tokens, keep_last=True)
    tools = get_all_tools()
    try:
        bound, sent = model.bind_tools(tools), [system, *messages]
        reply = turns.invoke(ctx, bound, sent) if ctx is not None else bound.invoke(sent)  # the node always logs through ctx
    except capabilities.FeatureRefused as exc:
        if exc.feature != "tools":
            raise
        capabilities.note_refused(model, "tools")
        return None
    reply = reply if isinstance(reply, AIMessage) else AIMessage(content=str(reply.content))
    if _written_call(reply, {t.name for t in tools}):
        capabilities.note_refused(model, "tools")
        return None
    return reply
