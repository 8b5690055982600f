"""The LangGraph server door: one thin graph per workflow for ``langgraph.json`` / ``langgraph dev``.

Each graph takes plain JSON — ``{"paths": [...], "question": "..."}`` (or Agent Chat UI's
``{"messages": [...]}`` with ``paths``) — opens a :class:`~dsagent.session.Session` on the
files, runs the named workflow's own graph through :meth:`Session.ask` (no copy of a workflow:
same sandbox, run log, reports) and returns the answer, code, figure and report paths. Progress
streams as custom events (``stream_mode="custom"``). The thread keeps the conversation in
``messages``, so a follow-up on the same thread acts on the latest result (react's contract).
``config["configurable"]["model"]`` picks the model: the settings' ``model`` (default) or one of
``allowed_models``; any other is refused (:mod:`dsagent.access`).

The clean workflow's graph and the assistant's are served as their own packages build them,
looked up in the registry (:func:`dsagent.workflows.build_graph`, ``ctx=None``): they need the server's checkpointer for their interrupts.
Their factories turn on :func:`dsagent.access.serve_clients`, so a model or project folder that
a client writes into a run's configuration or state is held to the operator's settings.
"""

from __future__ import annotations

from typing import Annotated, Any

from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from typing_extensions import NotRequired, TypedDict


class DoorInput(TypedDict):
    paths: list[str]
    """Data files (CSV/TSV, Excel, Parquet, JSON) under the allowed roots."""
    question: NotRequired[str]
    """The question; when absent, the last human message in ``messages``."""
    messages: NotRequired[Annotated[list[AnyMessage], add_messages]]
    """Chat form (Agent Chat UI): the conversation; the thread keeps it."""


class DoorOutput(TypedDict):
    answer: str
    """The grounded explanation (or the question the workflow asks back)."""
    result: str | None
    """str() of the code's ``result``."""
    code: str | None
    figures: list[str]
    report_path: str | None
    run_id: str
    output_type: str | None
    usage: str
    """``3 model calls · 1,204 + 85 tokens · 12.3 s``."""
    error: str | None
    messages: Annotated[list[AnyMessage], add_messages]


class DoorState(DoorInput, DoorOutput, total=False):
    """Input and output of a door graph; ``messages`` accumulates over a thread."""


def _question(state: DoorState) -> str:
    if (state.get("question") or "").strip():
        return state["question"]
    for message in reversed(state.get("messages") or []):
        if isinstance(message, HumanMessage):
            return str(message.content)
    return ""


def make_graph(workflow: str) -> Any:
    """A compiled graph that runs ``workflow`` (one ``ask`` offers, in :data:`dsagent.workflows.WORKFLOWS`) on plain JSON input."""
    from dsagent.workflows import WORKFLOWS

    if workflow not in WORKFLOWS:
        raise ValueError(f"{workflow!r} is not a workflow ask offers ({', '.join(WORKFLOWS)}); clean and assistant are served as built")

    def run(state: DoorState, config: RunnableConfig) -> dict[str, Any]:
        from dsagent.errors import ProviderError, UserError

        # The server shows the message of a ValueError / RuntimeError to the client, not of others.
        try:
            return _run(state, config)
        except UserError as exc:
            raise ValueError(f"dsagent: {exc}") from exc
        except ProviderError as exc:
            raise RuntimeError(f"dsagent: {exc}") from exc

    def _run(state: DoorState, config: RunnableConfig) -> dict[str, Any]:
        from langgraph.config import get_stream_writer

        from dsagent.config import load_settings
        from dsagent.doors.models import shared_model
        from dsagent.access import allowed_paths
        from dsagent.doors.text import usage_line
        from dsagent.errors import UserError
        from dsagent.session import Session

        from dsagent.access import client_model

        settings = load_settings()
        chosen = client_model((config.get("configurable") or {}).get("model"), settings)
        if chosen != settings.model:
            settings = settings.model_copy(update={"model": chosen})
        question = _question(state)
        if not question.strip():
            raise UserError('the input needs a question: {"paths": ["data.csv"], "question": "What is the average price?"}')
        files = allowed_paths(state.get("paths") or [], settings.allowed_roots, settings.allowed_sources)
        writer = get_stream_writer()

        def progress(event: Any) -> None:
            writer({"kind": event.kind, "node": event.node, "seconds": round(event.seconds, 2), "outcome": event.outcome})

        earlier = list(state.get("messages") or [])
        if earlier and isinstance(earlier[-1], HumanMessage) and str(earlier[-1].content) == question:
            earlier = earlier[:-1]  # the question itself, sent as a chat message
        with shared_model(settings) as model, Session(files, settings=settings, progress=progress, chat_model=model) as session:
            session.history = earlier
            result = session.ask(question, workflow=workflow)
        new_messages: list[AnyMessage] = [] if not state.get("question") and state.get("messages") else [HumanMessage(content=question)]
        return {
            "answer": result.explanation, "result": result.result_str, "code": result.code, "figures": result.figures,
            "report_path": result.report_path, "run_id": result.run_id, "output_type": result.output_type, "error": result.error,
            "usage": usage_line(result.llm_calls, result.prompt_tokens, result.completion_tokens, result.duration_s, settings),
            "messages": [*new_messages, AIMessage(content=result.explanation)], "question": "",
        }

    graph = StateGraph(DoorState, input_schema=DoorInput, output_schema=DoorOutput)
    graph.add_node(workflow, run)
    graph.add_edge(START, workflow)
    graph.add_edge(workflow, END)
    return graph.compile(name=f"dsagent-{workflow}")


quick = make_graph("quick")
react = make_graph("react")
robust = make_graph("robust")
# langgraph.json names these five (the registry's, tests/doors/test_langgraph_registry.py checks it).


def clean(config: Any = None) -> Any:
    """The clean workflow (seed 003) as its package builds it; the server compiles in its own
    checkpointer, so the review's ``interrupt()`` (an Agent Inbox action request) is answered with
    ``Command(resume=...)`` through the API. Input: ``{"data_raw": {"name": {"path": "file.csv"}},
    "user_instructions": "..."}`` (other keys are not input); paths outside ``allowed_roots`` are
    refused. Built without a context (``ctx=None``), so each thread's context comes from the
    operator's settings: its workspace is ``<workspace_root>/served-clean/<digest of the thread>/``,
    never a folder the client names in the state or the configuration (workflows/clean/served.py)."""
    from dsagent.access import serve_clients
    from dsagent.workflows import build_graph

    serve_clients()
    return build_graph("clean", ctx=None)


def assistant(config: Any = None) -> Any:
    """The assistant (seed 004) as its package builds it, for a server whose clients are not the
    operator: ``project_dir`` must lie under ``allowed_roots`` and ``agent_llm.model`` must be the
    settings' model or in ``allowed_models`` (checked where each is read, on every run)."""
    from dsagent.access import serve_clients
    from dsagent.workflows import build_graph

    serve_clients()
    return build_graph("assistant")
