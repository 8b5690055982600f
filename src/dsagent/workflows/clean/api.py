"""The clean workflow's Python API: :func:`clean` and :func:`resume`, both returning a :class:`CleanOutcome`.

Each call opens the SQLite checkpointer under the dsagent home, a session (workspace, warm
sandbox, run log) and runs the graph until it ends or waits for the review. A thread waiting for
review can be resumed from any later process by its id: the raw files are read again from their
paths and the run goes on in the same workspace.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from dsagent.errors import UserError
from dsagent.workflows.clean import cleaner_file


@dataclass
class CleanOutcome:
    thread_id: str
    status: str
    """"needs_review", "done" or "error"."""
    recommended_steps: str = ""
    cleaned_files: list[str] = field(default_factory=list)
    """The cleaned CSV first, then the Parquet (for each table in turn)."""
    function_path: str | None = None
    report_path: str | None = None
    error: str | None = None
    workspace: str | None = None
    run_id: str | None = None
    llm_calls: int = 0
    duration_s: float = 0.0
    review: dict | None = None
    """The interrupt value while the thread waits for review (an Agent Inbox HumanInterrupt)."""
    review_text: str = ""
    """What the reviewer reads while the thread waits: the steps, then every line of code a "yes" runs and saves."""
    code: dict[str, str] = field(default_factory=dict)
    """{file name: source}: waiting, the code under review; else the approved code (what ran, as data_cleaner.py holds it)."""

    def to_json(self) -> dict:
        return asdict(self)


def _outcome(thread_id: str, values: dict[str, Any], waiting: dict | None, **extra: Any) -> CleanOutcome:
    files: list[str] = []
    for out in (values.get("data_cleaned") or {}).values():
        files += [out["csv"], out["parquet"]]
    error = values.get("data_cleaner_error")
    status = "needs_review" if waiting is not None else "error" if error else "done"
    if waiting is not None:
        code = dict(((waiting.get("action_request") or {}).get("args") or {}).get("code") or {})
    else:
        approved = values.get("approved_functions") or {}
        code = {cleaner_file.file_name(ds_id, len(approved)): src for ds_id, src in approved.items()}
    return CleanOutcome(review_text=(waiting or {}).get("review_text") or "", code=code, thread_id=thread_id, status=status, recommended_steps=values.get("recommended_steps") or "",
                        cleaned_files=files if status != "needs_review" else [], function_path=values.get("data_cleaner_function_path"),
                        report_path=values.get("report_path"), error=error, workspace=values.get("workspace"), review=waiting, **extra)


def _config(thread_id: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread_id}, "recursion_limit": 200}


def _waiting(graph: Any, config: dict[str, Any]) -> dict | None:
    snapshot = graph.get_state(config)
    for task in snapshot.tasks:
        for intr in getattr(task, "interrupts", ()) or ():
            return intr.value
    return None


def _run(paths: Sequence[Any], payload: Any, thread_id: str, flags: dict[str, bool], *, settings: Any, instructions: str,
         workspace: Path | None, on_progress: Callable | None) -> CleanOutcome:
    import time

    from dsagent.data import summarize_datasets
    from dsagent.session import Session
    from dsagent.store.checkpoint import sqlite_checkpointer
    from dsagent.workflows.clean.bigpath import big_limits
    from dsagent.workflows.clean.graph import build_graph
    from dsagent.workflows.clean.state import initial_state

    started = time.perf_counter()
    settings = big_limits(settings, list(paths))  # a file above big_file_mb: room on disk for its cleaned copies
    with Session(list(paths), settings=settings, progress=on_progress, workspace=workspace) as session:
        # The nodes read the sandbox's printed results as data: they are never cut (data_sharing = sample).
        with session.open_run("clean", instructions or "(clean with the default steps)", cut_results=False) as ctx:
            if payload is None:
                data_raw = {ds_id: {"name": ds.name, "path": str(Path(ds.source_path).resolve()) if ds.source_path else None, "sheet": ds.sheet,
                                    "rows": ds.rows, "columns": [str(c) for c in ds.frame.columns]} for ds_id, ds in session.datasets.items()}
                state = initial_state(instructions, data_raw, summarize_datasets(session.datasets, instructions or None), session.settings.clean_max_retries)
                state.update(workspace=str(session.workspace), flags=flags)
                payload = state
            with sqlite_checkpointer(session.settings.home) as saver:
                graph = build_graph(saver, ctx=ctx, **flags)
                config = _config(thread_id)
                graph.invoke(payload, config)
                values = dict(graph.get_state(config).values)
                waiting = _waiting(graph, config)
            outcome = _outcome(thread_id, values, waiting, run_id=ctx.run_id, llm_calls=ctx.llm_calls, duration_s=round(time.perf_counter() - started, 2))
            status = {"needs_review": "needs_review", "done": "ok"}.get(outcome.status, "error")
            ctx.finish(status, final_output=outcome.to_json(), error=outcome.error)
        return outcome


def clean(paths: Any, instructions: str = "", *, yes: bool = False, model: str | None = None, settings: Any = None,
          on_progress: Callable | None = None, thread_id: str | None = None, bypass_recommended_steps: bool = False,
          bypass_explain_code: bool = False) -> CleanOutcome:
    """Clean the tables at ``paths`` (a path or a list). Without ``yes`` the run stops at the review
    with status ``needs_review``; answer it with :func:`resume`. ``yes`` runs unattended."""
    from dsagent.config import load_settings

    settings = settings or load_settings(model=model)
    if model and settings.model != model:
        settings = settings.model_copy(update={"model": model})
    items = [paths] if isinstance(paths, (str, Path)) else list(paths)
    if not items:
        raise UserError("no data files given: pass at least one CSV, Excel, Parquet or JSON file to clean")
    flags = {"human_in_the_loop": not yes, "bypass_recommended_steps": bypass_recommended_steps, "bypass_explain_code": bypass_explain_code}
    return _run(items, None, thread_id or uuid.uuid4().hex[:12], flags, settings=settings, instructions=instructions or "",
                workspace=None, on_progress=on_progress)


def saved_state(thread_id: str, settings: Any) -> dict[str, Any]:
    """The last checkpointed state of a thread, or a UserError naming the fix."""
    from dsagent.store.checkpoint import checkpoint_path, sqlite_checkpointer

    if not checkpoint_path(settings.home).exists():
        raise UserError(f"no clean thread {thread_id!r}: nothing has been checkpointed under {settings.home} yet")
    with sqlite_checkpointer(settings.home) as saver:
        found = saver.get_tuple({"configurable": {"thread_id": thread_id}})
    if found is None:
        raise UserError(f"no clean thread {thread_id!r} under {settings.home}: use the thread id that `dsagent clean` printed")
    return dict(found.checkpoint.get("channel_values") or {})


def resume(thread_id: str, answer: Any, *, model: str | None = None, settings: Any = None, on_progress: Callable | None = None) -> CleanOutcome:
    """Answer a thread's review: "yes" goes on, anything else is added to the instructions and the
    steps are recommended again. A thread that is not waiting returns its outcome unchanged."""
    from langgraph.types import Command

    from dsagent.config import load_settings

    settings = settings or load_settings(model=model)
    if model and settings.model != model:
        settings = settings.model_copy(update={"model": model})
    if isinstance(answer, str) and not answer.strip():
        raise UserError("the answer is empty: answer 'yes' to run the steps, or say the change in plain words")
    values = saved_state(thread_id, settings)
    if not _pending(thread_id, settings, values):
        return _outcome(thread_id, values, None)
    paths = [raw["path"] for raw in (values.get("data_raw") or {}).values()]
    missing = [p for p in paths if not p or not Path(p).exists()]
    if missing:
        raise UserError(f"cannot resume {thread_id}: the raw file {missing[0]} is gone; put it back at that path")
    return _run(paths, Command(resume=answer), thread_id, dict(values.get("flags") or {}), settings=settings,
                instructions=values.get("user_instructions", ""), workspace=Path(values["workspace"]), on_progress=on_progress)


def _pending(thread_id: str, settings: Any, values: dict[str, Any]) -> bool:
    """Is the thread stopped at the review (a checkpoint with a next node)?"""
    from dsagent.store.checkpoint import sqlite_checkpointer
    from dsagent.workflows.clean.graph import build_graph

    with sqlite_checkpointer(settings.home) as saver:
        graph = build_graph(saver, ctx=None, **dict(values.get("flags") or {}))
        return bool(graph.get_state(_config(thread_id)).next)
