"""Seed 004's eight tools, plus ``answer_question`` and ``clean_data`` (our one front door).

Each returns a readable string that ends with a "Next step:" line; a failure is returned as an
"Error: …" string that says what to do, never raised (the agent reads it and the user sees it).
The project folder comes from the graph state, the model from the run's ``Configuration``.
"""

from __future__ import annotations

import functools
import json
from typing import Annotated, Any, Callable, Optional

from langchain_core.runnables import RunnableConfig
from langchain_core.tools import tool
from langgraph.prebuilt import InjectedState
from pydantic import BaseModel, Field

from dsagent.workflows.assistant import turn as turns
from dsagent.workflows.assistant.configuration import Configuration
from dsagent.workflows.assistant.project import Project, normalize_task_id

State = Annotated[dict, InjectedState]
RESULT_CHARS = 900


def _runtime(state: dict, config: RunnableConfig | None) -> tuple[Any, Configuration]:
    from dsagent.config import load_settings
    from dsagent.workflows.assistant.runtime import runtime_for

    conf = Configuration.from_runnable_config(config)
    return runtime_for(state.get("project_dir"), conf.agent_llm.model or load_settings().model), conf


def _clip(text: Any, limit: int = RESULT_CHARS) -> str:
    text = str(text or "").strip()
    return text if len(text) <= limit else text[:limit] + " …"


def guarded(fn: Callable[..., Any] | None = None, *, artifact: bool = False) -> Any:
    """Any exception becomes an error string with what to do (seed 004: errors are data); for a tool
    that returns (content, artifact), the pair (error, None)."""
    if fn is None:
        return functools.partial(guarded, artifact=artifact)

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except FileNotFoundError as exc:
            text = f"Error: a file is missing ({exc}). Next step: list_data_files to see what is in data/raw."
        except Exception as exc:  # noqa: BLE001 — the agent must read it, not crash
            from dsagent.errors import DsagentError

            kind = "" if isinstance(exc, DsagentError) else f"{type(exc).__name__}: "
            text = f"Error: {kind}{_clip(exc, 400)}. Next step: check the request and try again, or ask me for help."
        return (text, None) if artifact else text

    return wrapper


def _no_files(project: Project) -> str:
    return (f"Error: no data files in {project.rel(project.raw)}/. Next step: put CSV, Excel, Parquet or JSON files "
            f"into {project.raw} and ask again.")


# -- data exploration ----------------------------------------------------------------------------
class ListFilesInput(BaseModel):
    """Inputs of list_data_files."""

    pattern: str = Field("*", description="glob pattern on file names, e.g. *.csv")
    state: State


@tool("list_data_files", args_schema=ListFilesInput)
@guarded
def list_data_files(pattern: str = "*", *, state: dict, config: RunnableConfig) -> str:
    """List the user's data files in data/raw (names and sizes)."""
    project = Project.at(state.get("project_dir"))
    files = project.raw_files(pattern)
    if not files:
        return _no_files(project) if pattern in ("", "*") else f"No file in data/raw matches {pattern!r}. Next step: list_data_files with pattern '*'."
    lines = [f"- {p.name} ({p.stat().st_size / 1024:,.1f} KB{', summarized' if project.summary_is_current(p) else ''})" for p in files]
    next_step = "suggest_tasks to get analysis ideas" if all(project.summary_is_current(p) for p in files) else "summarize_data to profile them"
    return f"Found {len(files)} data file(s) in data/raw:\n" + "\n".join(lines) + f"\nNext step: {next_step}."


class ViewSummaryInput(BaseModel):
    """Inputs of view_summary."""

    file_name: Optional[str] = Field(None, description="a data file's name; none: every summary's headline")
    state: State


@tool("view_summary", args_schema=ViewSummaryInput)
@guarded
def view_summary(file_name: Optional[str] = None, *, state: dict, config: RunnableConfig) -> str:
    """Show the stored summary (columns, types, statistics) of a data file."""
    project = Project.at(state.get("project_dir"))
    files, missing = project.resolve_files([file_name] if file_name else None)
    if missing:
        return f"Error: no data file named {missing[0]!r}. Next step: list_data_files to see the names."
    current = [p for p in files if project.summary_is_current(p)]
    if not current:
        return "Error: no up-to-date summary yet. Next step: summarize_data to make them."
    if file_name:
        return _clip(project.read_text(project.summary_path(current[0])), 2000) + "\nNext step: suggest_tasks for analysis ideas."
    heads = [project.read_text(project.summary_path(p)).splitlines()[0] for p in current]
    return "Summaries:\n" + "\n".join(f"- {h}" for h in heads) + "\nNext step: view_summary with a file name for its columns, or suggest_tasks."


def _task_line(task: dict[str, Any]) -> str:
    return f"{task['id']}: {task['title']} — {task['file']} ({task['kind']})"


class NoInput(BaseModel):
    """No inputs."""

    state: State


@tool("view_tasks", args_schema=NoInput)
@guarded
def view_tasks(*, state: dict, config: RunnableConfig) -> str:
    """Show the analysis tasks suggested so far."""
    project = Project.at(state.get("project_dir"))
    tasks = project.tasks()
    if not tasks:
        return "Error: no tasks suggested yet (or the data changed since). Next step: suggest_tasks."
    return "Suggested tasks:\n" + "\n".join(f"- {_task_line(t)}" for t in tasks) + "\nNext step: plan_analysis or execute_analysis with a task id, e.g. T1."


class ViewResultsInput(BaseModel):
    """Inputs of view_results."""

    task_id: Optional[str] = Field(None, description="a task id like T1; none: every executed task")
    state: State


@tool("view_results", args_schema=ViewResultsInput)
@guarded
def view_results(task_id: Optional[str] = None, *, state: dict, config: RunnableConfig) -> str:
    """Show the results and report paths of executed tasks."""
    project = Project.at(state.get("project_dir"))
    tasks = [project.task(task_id)] if task_id else project.tasks()
    results = [r for r in (project.result(t) for t in tasks if t) if r]
    if not results:
        return "Error: no executed task yet. Next step: execute_analysis with a task id (view_tasks lists them)."
    blocks = [f"{r['task']['id']} ({r['task']['title']}): {'done' if r['success'] else 'failed: ' + str(r['error'])}\n"
              f"result: {_clip(r['result'], 500)}\nreport: {r['report']}" for r in results]
    return "\n\n".join(blocks) + "\nNext step: open the report, or execute_analysis for another task."


# -- the pipeline --------------------------------------------------------------------------------
class SummarizeInput(BaseModel):
    """Inputs of summarize_data."""

    file_names: Optional[list[str]] = Field(None, description="data files to summarize; none: all of them")
    force: bool = Field(False, description="summarize again even if the file did not change")
    state: State


@tool("summarize_data", args_schema=SummarizeInput)
@guarded
def summarize_data(file_names: Optional[list[str]] = None, force: bool = False, *, state: dict, config: RunnableConfig) -> str:
    """Stage 1: profile the data files into data/summaries/ (columns, types, missing values, statistics)."""
    from dsagent.workflows.assistant.stages import summarize

    project = Project.at(state.get("project_dir"))
    files, missing = project.resolve_files(file_names)
    if missing:
        return f"Error: no data file named {', '.join(map(repr, missing))}. Next step: list_data_files to see the names."
    if not files:
        return _no_files(project)
    done = summarize(project, files, force=force)
    reused = sum(d["cached"] for d in done)
    lines = [f"- {d['header'].split(' = ', 1)[-1]}" for d in done]
    note = f" ({reused} unchanged, reused)" if reused else ""
    return (f"✓ Summarized {len(done)} file(s){note} into {project.rel(project.summaries)}/:\n" + "\n".join(lines)
            + "\nNext step: suggest_tasks to get analysis ideas.")


class SuggestInput(BaseModel):
    """Inputs of suggest_tasks."""

    max_tasks: int = Field(6, ge=1, le=20, description="how many tasks at most")
    state: State


@tool("suggest_tasks", args_schema=SuggestInput)
@guarded
def suggest_tasks(max_tasks: int = 6, *, state: dict, config: RunnableConfig) -> str:
    """Stage 2: suggest analysis tasks (models, charts, comparisons) from the summaries, into data/tasks.json."""
    from dsagent.workflows.assistant.stages import suggest

    project = Project.at(state.get("project_dir"))
    files = project.raw_files()
    if not files:
        return _no_files(project)
    ready = [p for p in files if project.summary_is_current(p)]
    stale = [p.name for p in files if p not in ready]
    if not ready:
        return f"Error: {', '.join(stale)} not summarized yet (or changed since). Next step: summarize_data first."
    tasks = project.tasks()
    note = " (unchanged data: the stored tasks)"
    if not tasks or project.task_sources() != {p.name for p in ready}:
        tasks, note = suggest(project, ready, max_tasks), ""
    tasks = tasks[:max_tasks]
    if stale:
        note += f"; not included, not summarized yet: {', '.join(stale)} (summarize_data to add them)"
    return (f"✓ {len(tasks)} suggested task(s){note}, saved in {project.rel(project.tasks_file)}:\n"
            + "\n".join(f"- {_task_line(t)}" for t in tasks) + f"\nNext step: execute_analysis {tasks[0]['id']} (or plan_analysis to see its steps first).")


class TaskInput(BaseModel):
    """Inputs of plan_analysis / execute_analysis."""

    task_id: str = Field(description="the task's id, e.g. T1")
    state: State


def _task_or_error(project: Project, task_id: str) -> tuple[dict[str, Any] | None, str]:
    tasks = project.tasks()
    if not tasks:
        return None, "Error: no suggested tasks yet. Next step: suggest_tasks (after summarize_data)."
    task = project.task(task_id)
    if task is None:
        return None, f"Error: there is no task {normalize_task_id(task_id)!r}; the tasks are {', '.join(t['id'] for t in tasks)}. Next step: choose one of them."
    return task, ""


@tool("plan_analysis", args_schema=TaskInput)
@guarded
def plan_analysis(task_id: str, *, state: dict, config: RunnableConfig) -> str:
    """Stage 3: write the step-by-step plan of one task into data/intermediate/."""
    from dsagent.workflows.assistant.execute import make_plan

    runtime, _ = _runtime(state, config)
    task, error = _task_or_error(runtime.project, task_id)
    if task is None:
        return error
    plan = runtime.project.plan(task)
    if plan is None:
        with turns.stage_context(state, runtime, f"{task['id']}: plan") as ctx:
            plan = make_plan(runtime, task, ctx)
    steps = "\n".join(f"{n}. {s}" for n, s in enumerate(plan["steps"], 1))
    return (f"✓ Plan for {task['id']} ({task['title']}), saved in {runtime.project.rel(runtime.project.plan_path(task['id']))}:\n{steps}"
            f"\nNext step: execute_analysis {task['id']} to run it.")


@tool("execute_analysis", args_schema=TaskInput)
@guarded
def execute_analysis(task_id: str, *, state: dict, config: RunnableConfig) -> str:
    """Stage 4: run a planned task in the sandbox (code, charts, model training and evaluation) and write its report."""
    from dsagent.workflows.assistant.execute import execute

    runtime, conf = _runtime(state, config)
    task, error = _task_or_error(runtime.project, task_id)
    if task is None:
        return error
    plan = runtime.project.plan(task)
    if plan is None:
        return f"Error: {task['id']} has no plan yet. Next step: plan_analysis {task['id']} first."
    with turns.stage_context(state, runtime, f"{task['id']}: {task['question']}") as ctx:
        record = execute(runtime, task, plan, conf.max_retries, ctx)
    if not record["success"]:
        return f"Error: {task['id']} failed after {record['attempts']} attempt(s): {record['error']}. Report: {record['report']}. Next step: plan_analysis {task['id']} again or pick another task."
    via = " (the model's code failed; the task's recipe code ran)" if record["made_by"] == "recipe" else ""
    figures = f"\nFigures: {len(record['figures'])}" if record["figures"] else ""
    return (f"✓ Executed {task['id']} ({task['title']}){via}.\nResult: {_clip(record['result'], 600)}\n{record['explanation']}{figures}"
            f"\nReport: {record['report']} (and .html)\nNext step: view_results, or execute_analysis for another task.")


# -- one front door --------------------------------------------------------------------------------
class QuestionInput(BaseModel):
    """Inputs of answer_question."""

    question: str = Field(description="the user's question about the data, as they asked it")
    state: State


@tool("answer_question", args_schema=QuestionInput, response_format="content_and_artifact")
@guarded(artifact=True)
def answer_question(question: str, *, state: dict, config: RunnableConfig) -> tuple[str, dict[str, Any] | None]:
    """Answer one specific question about the data files with the workflow ``dsagent ask`` uses
    (the setting ``workflow``: quick unless set), so the assistant and ``ask`` give one question
    the same answer."""
    runtime, _ = _runtime(state, config)
    if not runtime.project.raw_files():
        return _no_files(runtime.project), None
    result = runtime.session().ask(question)
    if result.output_type == "error":
        return f"Error: the analysis failed: {_clip(result.error, 300)}. Report: {result.report_path}. Next step: rephrase the question.", None
    shown = f"\nResult: {_clip(result.result_str, 500)}" if result.result_str else ""
    # The artifact (kept in the thread, not shown to the model): the question's run, its whole result and
    # the grounding check's record of the answer against all of that run's outputs.
    artifact = {"run_id": result.run_id, "result_str": result.result_str, "grounding": result.grounding,
                "verified": result.verified, "verification": result.verification}
    mark = f"\nVerification: {result.verification}" if result.verification else ""
    return (f"Answer: {result.explanation.strip()}{shown}\nReport: {result.report_path}{mark}\n"
            "Next step: ask a follow-up question, or suggest_tasks for more ideas.", artifact)


class CleanInput(BaseModel):
    """Inputs of clean_data."""

    file_names: Optional[list[str]] = Field(None, description="data files to clean; none: all of them")
    instructions: str = Field("", description="what to clean, in the user's words")
    answer: Optional[str] = Field(None, description="the user's answer to a pending review: yes, or a change")
    state: State


def _pending_path(project: Project) -> Any:
    return project.intermediate / "clean_review.json"


def pending_review(project: Project) -> dict[str, Any] | None:
    """clean's review waiting for the user's answer, if any."""
    try:
        return json.loads(project.read_text(_pending_path(project)))
    except (OSError, ValueError):
        return None


@tool("clean_data", args_schema=CleanInput)
@guarded
def clean_data(file_names: Optional[list[str]] = None, instructions: str = "", answer: Optional[str] = None, *, state: dict, config: RunnableConfig) -> str:
    """Clean the data files with the clean workflow (its steps are shown for review first); or answer that review."""
    try:
        from dsagent.workflows.clean.api import clean, resume
    except ImportError:
        return "Error: the clean workflow is not available in this installation. Next step: clean the file yourself, or ask another question."
    runtime, _ = _runtime(state, config)
    project = runtime.project
    pending = pending_review(project)
    if pending and answer:
        outcome = resume(pending["thread_id"], answer, model=runtime.model_spec, settings=runtime.settings)
    else:
        files, missing = project.resolve_files(file_names)
        if missing:
            return f"Error: no data file named {', '.join(map(repr, missing))}. Next step: list_data_files to see the names."
        if not files:
            return _no_files(project)
        outcome = clean([str(p) for p in files], instructions, model=runtime.model_spec, settings=runtime.settings)
    if outcome.status == "needs_review":
        project.write_json(_pending_path(project), {"thread_id": outcome.thread_id, "steps": outcome.recommended_steps})
        return (f"clean_data proposes these steps and this code (nothing is changed yet):\n"
                f"{outcome.review_text or outcome.recommended_steps}\n"
                "Next step: answer yes to run them, or say what to change.")
    if _pending_path(project).exists():
        _pending_path(project).unlink()
    if outcome.status == "error":
        return f"Error: cleaning failed: {_clip(outcome.error, 300)}. Next step: say what to change and ask again."
    files = "\n".join(f"- {f}" for f in outcome.cleaned_files)
    return (f"✓ Cleaned; the originals in data/raw are unchanged. Cleaned files:\n{files}\nCode: {outcome.function_path}\n"
            f"Report: {outcome.report_path}\nNext step: summarize_data on the cleaned files, or ask a question.")


TOOLS = [list_data_files, view_summary, view_tasks, view_results, summarize_data, suggest_tasks, plan_analysis,
         execute_analysis, answer_question, clean_data]


def get_all_tools() -> list[Any]:
    """Every tool, in the order the prompts list them (seed 004's ``get_all_tools``)."""
    return list(TOOLS)
