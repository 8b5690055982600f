"""``dsagent mcp``: the MCP server door (stdio, or streamable HTTP on loopback).

Four tools, typed arguments, text results a person can read: ``profile_data`` (the profile the
model sees), ``ask`` (one run of a workflow: the grounded answer, code, figure and report paths),
``clean_data`` (the clean workflow: stops at its review; a second call with the answer goes on)
and ``get_report``. Every path must lie under the allowed roots (setting ``allowed_roots``), and
so must the column notes read beside a file. A run id or clean thread id is served only when this
door made it, on files under its roots (``doors/owned.py``): the run log is shared with the CLI.
Bad input comes back as a tool error whose text says the fix. Works with the ``mcp`` SDK 1.x
(FastMCP) and 2.x (MCPServer).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial, wraps
from typing import Any

from dsagent.config import Settings
from dsagent.doors.models import shared_model
from dsagent.doors.owned import MCP, check_thread, owned_run, recorded
from dsagent.access import allowed_paths
from dsagent.doors.text import answer_text
from dsagent.errors import DsagentError, UserError

INSTRUCTIONS = (
    "dsagent answers questions about data files (CSV/TSV, Excel, Parquet, JSON) by writing and running "
    "pandas code in a sandbox. Start with profile_data to see the columns, then ask. Paths must be under "
    "the server's allowed folders."
)


def _sdk() -> tuple[type, type[Exception], int]:
    """The server class and its tool-error class, for mcp 2.x or 1.x."""
    try:
        from mcp.server.mcpserver import MCPServer
        from mcp.server.mcpserver.exceptions import ToolError

        return MCPServer, ToolError, 2
    except ImportError:  # mcp 1.x
        from mcp.server.fastmcp import FastMCP
        from mcp.server.fastmcp.exceptions import ToolError

        return FastMCP, ToolError, 1


class Tools:
    """The tools' logic, free of the SDK (tests call it directly as well)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.pending_clean: dict[tuple[tuple[str, ...], str], str] = {}
        """Threads of clean_data waiting at their review, by (paths, instructions)."""

    def profile_data(self, paths: list[str]) -> str:
        from dsagent.data import load_datasets
        from dsagent.data.sharing import summarize_for_prompt
        from dsagent.sources.attach import open_sources

        files = allowed_paths(paths, self.settings.allowed_roots, self.settings.allowed_sources)
        inputs, broker, tables = open_sources(files, self.settings)  # a database's tables stay in the database
        try:
            datasets = load_datasets(inputs, self.settings.big_file_mb, self.settings.duckdb_threads) if inputs else {}
            datasets.update(tables)
            text = summarize_for_prompt(datasets, None, self.settings, roots=self.settings.allowed_roots)
        finally:
            if broker is not None:
                broker.close()
        head = f"{len(datasets)} dataset(s); what the model is shown (data_sharing = {self.settings.data_sharing}):"
        return f"{head}\n\n{text}"

    def ask(self, paths: list[str], question: str, workflow: str = "quick") -> str:
        from dsagent.session import Session
        from dsagent.workflows import WORKFLOWS

        if workflow not in WORKFLOWS:
            raise UserError(f"unknown workflow {workflow!r}; use one of: {', '.join(WORKFLOWS)}")
        if not question or not question.strip():
            raise UserError("the question is empty: say what you want to know about the data")
        files = allowed_paths(paths, self.settings.allowed_roots, self.settings.allowed_sources)
        with shared_model(self.settings) as model, Session(files, settings=self.settings, chat_model=model) as session:
            result = session.ask(question, workflow=workflow)
            session.run_log.claim_run(result.run_id, MCP, recorded(files))  # get_report serves it, and only what this door made
        return answer_text(result, self.settings)

    def clean_data(self, paths: list[str], instructions: str = "", answer: str | None = None, thread_id: str | None = None) -> str:
        """A thread id is used only when this door made it on these same files (``doors/owned.py``):
        resuming reads the thread's files and writes into its workspace, so another's id is refused."""
        try:
            from dsagent.workflows.clean.api import clean, resume, saved_state
        except ImportError as exc:
            raise UserError("the clean workflow is not installed in this version of dsagent") from exc
        from dsagent.store import RunLog

        files = allowed_paths(paths, self.settings.allowed_roots)
        key = (tuple(files), instructions or "")
        log = RunLog(self.settings.db_url)
        if answer is not None:
            thread_id = thread_id or self.pending_clean.get(key)
            if not thread_id:
                raise UserError("no cleaning waits for an answer for these files and instructions: call clean_data "
                                "without `answer` first (or pass the thread_id it returned)")
            check_thread(log, thread_id, MCP, files, self.settings, saved_state)
            outcome = resume(thread_id, answer, settings=self.settings)
        else:
            if thread_id is not None:
                check_thread(log, thread_id, MCP, files, self.settings, saved_state)
            outcome = clean(files, instructions or "", settings=self.settings, thread_id=thread_id)
            log.record_thread(outcome.thread_id, MCP, files)
        if outcome.status == "needs_review":
            self.pending_clean[key] = outcome.thread_id
        else:
            self.pending_clean.pop(key, None)
        return clean_text(outcome)

    def get_report(self, run_id: str, format: str = "md") -> str:
        from pathlib import Path

        from dsagent.reports.export import FORMATS, export_run
        from dsagent.store import RunLog

        if format not in FORMATS:
            raise UserError(f"unknown report format {format!r}: use one of {', '.join(FORMATS)}")
        log = RunLog(self.settings.db_url)
        run = owned_run(log, run_id, MCP, self.settings)  # full id, made by this door, files under its roots
        workspace = Path(run["workspace"])
        if not workspace.is_dir():  # never write outside a workspace
            raise UserError(f"the workspace of run {run['id']} is gone ({workspace}); "
                            f"`dsagent report {run['id']} --format {format} --out FILE` writes the report elsewhere")
        path = export_run(log, run["id"], format, within=workspace)  # into this run's own workspace only
        if format == "md":
            return f"{Path(path).read_text(encoding='utf-8')}\n\n(saved as {path})"
        return f"The {format} report of run {run_id} is saved as {path}"


def clean_text(outcome: Any) -> str:
    if outcome.status == "error":
        raise UserError(f"cleaning failed: {outcome.error}")
    if outcome.status == "needs_review":
        return (f"Review needed (thread {outcome.thread_id}). Proposed cleaning steps and the code they run:\n\n"
                f"{(outcome.review_text or outcome.recommended_steps).strip()}\n\n"
                "Call clean_data again with the same paths and instructions and answer='yes' to apply them, or with "
                "your changes in `answer`.")
    lines = [f"Cleaning done (thread {outcome.thread_id})."]
    lines += [f"Cleaned file: {p}" for p in outcome.cleaned_files]
    if outcome.function_path:
        lines.append(f"Cleaning function: {outcome.function_path}")
    if outcome.report_path:
        lines.append(f"Report: {outcome.report_path}")
    return "\n".join(lines)


def build_server(settings: Settings) -> Any:
    """The MCP server with dsagent's tools; blocking work runs in a worker thread."""
    import anyio

    server_cls, tool_error, _major = _sdk()
    tools = Tools(settings)
    server = server_cls("dsagent", instructions=INSTRUCTIONS)

    def door(fn: Callable[..., str]) -> Callable[..., Any]:
        @wraps(fn)
        async def run(*args: Any, **kwargs: Any) -> str:
            try:
                return await anyio.to_thread.run_sync(partial(fn, *args, **kwargs))
            except DsagentError as exc:
                raise tool_error(str(exc)) from exc
        return run

    @server.tool()
    @door
    def profile_data(paths: list[str]) -> str:
        """The profile of data files exactly as the model sees it: per column the type, missing and
        unique counts and (unless data_sharing is schema) statistics and example values, plus column notes."""
        return tools.profile_data(paths)

    @server.tool()
    @door
    def ask(paths: list[str], question: str, workflow: str = "quick") -> str:
        """Answer a question about data files: dsagent writes pandas code, runs it in a sandbox and explains
        the result. Returns the answer, the result, the code, figure and report paths, and the run's usage.
        workflow: quick (default), robust (more checks, slower) or react."""
        return tools.ask(paths, question, workflow)

    @server.tool()
    @door
    def clean_data(paths: list[str], instructions: str = "", answer: str | None = None, thread_id: str | None = None) -> str:
        """Clean data files: the first call proposes cleaning steps and stops for review; call again with
        the same paths and instructions and answer='yes' (or your changes) to apply them. The user's files
        are never changed: cleaned copies are written to the workspace."""
        return tools.clean_data(paths, instructions, answer, thread_id)

    @server.tool()
    @door
    def get_report(run_id: str, format: str = "md") -> str:
        """A past run's report: format md returns the Markdown text; html or ipynb writes the file and returns its path."""
        return tools.get_report(run_id, format)

    return server


def serve(settings: Settings, http_port: int | None = None) -> None:
    """Serve over stdio, or streamable HTTP on 127.0.0.1:``http_port`` (path /mcp)."""
    server = build_server(settings)
    _cls, _err, major = _sdk()
    if http_port is None:
        server.run("stdio")
    elif major >= 2:
        server.run("streamable-http", host="127.0.0.1", port=http_port)
    else:
        server.settings.host, server.settings.port = "127.0.0.1", http_port
        server.run("streamable-http")
