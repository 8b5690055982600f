"""The core every front end calls: a :class:`Session` over some datasets, and :func:`analyze`.

A session owns one workspace ``<workspace_root>/<yyyymmddhhmmss>/``, one warm sandbox and the run
log; each :meth:`Session.ask` is one run of a workflow graph.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from dsagent.errors import DsagentError, UserError
from dsagent.reports.model import Report
from dsagent.runtime import ProgressEvent, RunContext

REMEMBERED_RESULT_CHARS = 400
"""How much of an answer's result the history keeps for follow-up questions (it is in every later prompt)."""


class AnalysisResult(BaseModel):
    """Seed 000's ``final_output`` package plus where to find everything."""

    explanation: str = ""
    evaluation: str | dict[str, Any] | None = None
    code: str | None = None
    plan: dict[str, Any] | None = None
    requirements: dict[str, Any] | None = None
    alignment_caveats: list[str] = Field(default_factory=list)
    output_type: str | None = None
    figures: list[str] = Field(default_factory=list)
    result_str: str | None = None
    failed_attempts: list[dict[str, Any]] = Field(default_factory=list)
    error: str | None = None
    run_id: str = ""
    attempts: int = 0
    report_path: str | None = None
    workspace: str = ""
    workflow: str = "quick"
    model: str = ""
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    duration_s: float = 0.0
    grounding: dict[str, Any] | None = None
    """The grounding check's record: claims checked, ungrounded ones caught and left, what was done."""
    verified: bool = False
    """True when an independent computation of the question agreed with the answer (common.verify)."""
    verification: str = ""
    """What agreed or disagreed ("verified: …", "not sure: …", "not checked: …"); empty when the workflow makes no such claim."""
    verification_checks: list[dict[str, Any]] = Field(default_factory=list)
    """The independent computations compared: {code, result, error} each."""
    report: Report | None = None
    """The structured report (sections, suggestions, caveats) that report.md is rendered from."""


def new_workspace(root: Path) -> Path:
    """A new folder ``<root>/<yyyymmddhhmmss>[-n]/``, never one another session (or browser) made:
    mkdir claims the name atomically, so two made in the same second get two names."""
    stamp = datetime.now().strftime("%Y%m%d%H%M%S")
    root.mkdir(parents=True, exist_ok=True)
    n = 1
    while True:
        path = root / (stamp if n == 1 else f"{stamp}-{n}")
        try:
            path.mkdir()
        except FileExistsError:
            n += 1
            continue
        return path.resolve()


class Session:
    def __init__(
        self,
        files_or_frames: Any,
        *,
        model: str | None = None,
        settings: Any = None,
        progress: Callable[[ProgressEvent], None] | None = None,
        chat_model: Any = None,
        workspace: Path | None = None,
        **overrides: Any,
    ) -> None:
        from dsagent.config import load_settings
        from dsagent.data import load_datasets
        from dsagent.sandbox import Limits, Sandbox
        from dsagent.sandbox.duck import options_from_settings
        from dsagent.store import RunLog

        self.settings = settings or load_settings(model=model, **overrides)
        if model and settings is not None:
            self.settings = self.settings.model_copy(update={"model": model})
        from dsagent.sources.attach import open_sources

        inputs = files_or_frames if isinstance(files_or_frames, (Mapping, Sequence)) and not isinstance(files_or_frames, str) else [files_or_frames]
        # A database URL (or engine = "spark") gives tables that stay in the database: the broker
        # holds the connection in this process, the sandbox's sql() asks it (sources/, sql_bridge.py).
        inputs, self.broker, tables = open_sources(inputs, self.settings)
        self.datasets = load_datasets(inputs, self.settings.big_file_mb, self.settings.duckdb_threads) if inputs else {}
        self.datasets.update({k if k not in self.datasets else f"{k}_table": ds for k, ds in tables.items()})
        self.progress = progress or (lambda _e: None)
        self.run_log = RunLog(self.settings.db_url)
        # An existing workspace is reused when a run is resumed (the clean workflow's review).
        self.workspace = Path(workspace).resolve() if workspace else new_workspace(Path(self.settings.workspace_root))
        self.sandbox = Sandbox(
            self.workspace,
            {ds_id: ds.big.scan if ds.big else ds.frame for ds_id, ds in self.datasets.items() if ds.table is None},
            Limits.from_settings(self.settings),
            source_files=[ds.source_path for ds in self.datasets.values() if ds.source_path],
            file_names={ds_id: (ds.source_path.name, ds.sheet) for ds_id, ds in self.datasets.items() if ds.source_path},
            broker=self.broker,
            sql_options=options_from_settings(self.settings),
        )
        self._model: Any = chat_model  # a model already loaded (a server's or a notebook's), else built on first use
        self.history: list[Any] = []
        # Warm the worker while the first model call runs; joined before the first execution.
        self._warm = threading.Thread(target=self._start_sandbox, daemon=True)
        self._warm_error: BaseException | None = None
        self._warm.start()

    def _start_sandbox(self) -> None:
        try:
            self.sandbox.start()
        except BaseException as exc:  # surfaced on first use
            self._warm_error = exc

    def _ready_sandbox(self) -> Any:
        self._warm.join()
        if self._warm_error is not None:
            raise self._warm_error
        return self.sandbox

    @property
    def model(self) -> Any:
        if self._model is None:
            from dsagent.llm import get_chat_model

            self._model = get_chat_model(self.settings.model, self.settings)
        return self._model

    def start_run(self, workflow: str, question: str, *, cut_results: bool = True) -> RunContext:
        """Open one run of ``workflow``: its row in the run log (first, so a run killed while the
        model loads is logged and later read as interrupted), the model, and the :class:`RunContext`
        its nodes are handed (lazy sandbox, progress, every model call logged). The setting
        ``data_sharing`` holds for every workflow: ``schema`` masks cell values in each prompt;
        ``sample`` cuts each printed result unless ``cut_results`` is False (a workflow whose nodes
        read the printed results as data). The caller finishes the run (:meth:`RunContext.finish`);
        :meth:`open_run` does that for a block."""
        from dsagent.data.sharing import Redactor
        from dsagent.llm.registry import model_label

        run_id = self.run_log.start_run(
            workflow=workflow, model=str(self.settings.model), question=question,
            datasets=[ds.name for ds in self.datasets.values()], workspace=str(self.workspace),
        )
        try:
            model = self.model
            label = model_label(model)
            self.run_log.set_model(run_id, label)
            sharing = self.settings.data_sharing
            sandbox = _SampledSandbox(self) if sharing == "sample" and cut_results else _LazySandbox(self)
            redact = None
            if sharing == "schema" and self.datasets:
                columns = [str(c) for ds in self.datasets.values() for c in ds.frame.columns]
                redact = Redactor(self.datasets, protect=[question, *columns]).messages
        except BaseException as exc:
            self.run_log.finish_run(run_id, "failed", error=f"{type(exc).__name__}: {exc}")
            raise
        return RunContext(self.settings, model, label, sandbox, self.run_log, run_id, self.workspace, self.progress,
                          datasets=self.datasets, redact=redact)

    @contextmanager
    def open_run(self, workflow: str, question: str, *, cut_results: bool = True) -> Iterator[RunContext]:
        """The one way a run is opened (:meth:`start_run`) and closed: an exception out of the block
        finishes it ``failed`` with the error; a block that ends without :meth:`RunContext.finish`
        finishes it ``ok``. Work started ahead that no node took is stopped either way."""
        ctx = self.start_run(workflow, question, cut_results=cut_results)
        try:
            yield ctx
        except BaseException as exc:
            if not ctx.finished:
                ctx.finish("failed", error=f"{type(exc).__name__}: {exc}")
            raise
        else:
            if not ctx.finished and self.run_log.get_run(ctx.run_id, exact=True)["status"] == "running":
                ctx.finish("ok")
        finally:
            ctx.cancel_ahead()

    def ask(self, question: str, workflow: str | None = None) -> AnalysisResult:
        from dsagent.data.sharing import summarize_for_prompt
        from dsagent.reports.build import build_report, dataset_meta
        from dsagent.reports.html import write_html
        from dsagent.reports.markdown import write_markdown
        from dsagent.workflows import load_workflow

        workflow = workflow or self.settings.workflow
        package = load_workflow(workflow)
        if not question.strip():
            raise UserError("the question is empty: say what you want to know about the data")
        started = time.perf_counter()
        with self.open_run(workflow, question) as ctx:
            run_id, label = ctx.run_id, ctx.model_label
            summary = summarize_for_prompt(self.datasets, question, self.settings) if self.datasets else ""
            state = self._run_graph(ctx, package, question, summary)
            ctx.cancel_ahead()  # work started ahead that no node took (a run that ended first)
            final = dict(state.get("final_output") or {})
            isolation = self.sandbox.isolation.describe() if self._warm_error is None and not self._warm.is_alive() else None
            if isolation:
                self.run_log.set_isolation(run_id, isolation)
            report_md = self.workspace / ("report.md" if not self.history else f"report_{run_id}.md")
            meta = {"run_id": run_id, "workflow": workflow, "model": label, "created": datetime.now().isoformat(timespec="seconds"), "isolation": isolation,
                    "workspace": str(self.workspace), "follow_up": bool(self.history), "datasets": dataset_meta(self.datasets)}
            # report.md and report.html every run; the notebook on demand (`dsagent report RUN --format ipynb`).
            tables = None if final.get("output_type") == "error" else (state.get("execution_result") or {}).get("tables")
            try:
                report = build_report(question, final, meta, tables=tables)
                self._add_footer(report, ctx, time.perf_counter() - started)
                write_markdown(report, report_md)  # both written on fresh names, never through a link
                report_html = write_html(report, report_md.with_suffix(".html"))
            except BaseException as exc:
                ctx.finish("failed", error=f"writing the report: {type(exc).__name__}: {exc}")
                raise
            self.run_log.add_artifact(run_id, "report", str(report_md))
            self.run_log.add_artifact(run_id, "report_html", str(report_html))
            result = AnalysisResult(
                **{k: v for k, v in final.items() if k in AnalysisResult.model_fields and k != "report"},
                run_id=run_id, attempts=state.get("attempts", state.get("code_attempts", 0)), report_path=str(report_md), workspace=str(self.workspace),
                workflow=workflow, model=label, llm_calls=ctx.llm_calls, prompt_tokens=ctx.prompt_tokens,
                completion_tokens=ctx.completion_tokens, duration_s=round(time.perf_counter() - started, 2), report=report,
            )
            ctx.finish("error" if final.get("output_type") == "error" else "ok", final_output=result.model_dump(), error=final.get("error"))
        self._remember(question, result)
        return result

    def _add_footer(self, report: Report, ctx: RunContext, seconds: float) -> None:
        """The report ends with the column notes the model was given and the run's model usage."""
        from dsagent.data.sharing import load_notes_file, notes_for, notes_text
        from dsagent.reports.usage import usage_line

        extra = load_notes_file(self.settings.notes_file) if self.settings.notes_file else None
        notes = {ds.name: notes_text(notes_for(ds, extra), [str(c) for c in ds.frame.columns]) for ds in self.datasets.values()}
        report.meta["column_notes"] = {name: text.removeprefix("Notes:\n") for name, text in notes.items() if text}
        usage = usage_line(ctx.llm_calls, ctx.prompt_tokens, ctx.completion_tokens, seconds, self.settings)
        report.meta["usage"] = f"{ctx.model_label} · {usage} · data shared: {self.settings.data_sharing}"

    def _run_graph(self, ctx: RunContext, package: Any, question: str, summary: str) -> dict[str, Any]:
        meta = {ds_id: {"name": ds.name, "rows": ds.rows, "columns": [str(c) for c in ds.frame.columns],
                        **({"table": ds.table.name} if ds.table else {}), **({"sql_table": True} if ds.big else {})}
                for ds_id, ds in self.datasets.items()}
        from dsagent.workflows.common.history import cap_history

        graph = package.build_graph(ctx=ctx)
        history, dropped = cap_history(self.history, self.settings.history_max_tokens)
        if dropped:
            self.progress(ProgressEvent("info", message=f"a long conversation: the {dropped} oldest exchange(s) are left out of the prompts "
                                                        f"(history_max_tokens = {self.settings.history_max_tokens})"))
        return graph.invoke(package.initial_state(question, meta, summary, history), {"recursion_limit": 100})

    def _remember(self, question: str, result: AnalysisResult) -> None:
        from langchain_core.messages import AIMessage, HumanMessage

        from dsagent.workflows.common.prompting import quote_data

        answer = result.explanation
        if result.result_str and result.output_type != "ask":
            # A follow-up ("now only for 2023", "as a line chart") acts on this result and its code.
            result_text = result.result_str.strip()
            result_text = result_text if len(result_text) <= REMEMBERED_RESULT_CHARS else result_text[:REMEMBERED_RESULT_CHARS] + " …"
            answer += f"\n\nResult:\n{quote_data(result_text)}"
        if result.code:
            answer += f"\n\nCode used:\n```python\n{result.code.strip()}\n```"
        self.history += [HumanMessage(content=question), AIMessage(content=answer)]

    def close(self) -> None:
        self._warm.join()
        self.sandbox.close()
        if self.broker is not None:
            self.broker.close()

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class _LazySandbox:
    """One run's sandbox: waits for the warm-up thread on first use, so the first model call
    overlaps the cold start; the run's first cell gets the data as loaded (``fresh_data``)."""

    def __init__(self, session: Session) -> None:
        self._session = session
        self._first = True

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session._ready_sandbox(), name)

    def run(self, code: str, *args: Any, **kwargs: Any) -> Any:
        if self._first and not kwargs.get("apart"):
            kwargs["fresh_data"], self._first = True, False
        return self._session._ready_sandbox().run(code, *args, **kwargs)


class _SampledSandbox(_LazySandbox):
    """data_sharing = sample: each printed result reaches the workflow (and so the model) cut to a few lines."""

    def run(self, code: str, *args: Any, **kwargs: Any) -> Any:
        from dsagent.data.sharing import clip_lines

        result = super().run(code, *args, **kwargs)
        return result.model_copy(update={"stdout": clip_lines(result.stdout) or "", "result": clip_lines(result.result),
                                         "figure_data": clip_lines(result.figure_data)})


def analyze(question: str, files_or_frames: Any, model: str | None = None, workflow: str | None = None, **settings: Any) -> AnalysisResult:
    """Answer ``question`` about ``files_or_frames`` (paths, DataFrames or a mapping of them)."""
    with Session(files_or_frames, model=model, **settings) as session:
        return session.ask(question, workflow=workflow)


__all__ = ["AnalysisResult", "DsagentError", "Session", "analyze"]
