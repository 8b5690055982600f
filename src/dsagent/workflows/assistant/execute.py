"""Stages 3 and 4: plan a task with the model, then run it in the sandbox and write its report.

Stage 4 asks the model for code (the core's ``write_code`` and code step ``attempt_code``: mends,
run, fit check; ``max_retries`` fixes shown the error); when every attempt fails, the task kind's own code runs instead — a
generic recipe over the task's columns (scikit-learn split / fit / metrics / feature importance,
a scatter with its correlation, a comparison by group) — and the report says so.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from langchain_core.messages import HumanMessage, SystemMessage

from dsagent.workflows.assistant import prompts
from dsagent.workflows.assistant.project import Project
from dsagent.workflows.assistant.stages import PlanSteps, recipe


def _dataset_id(session: Any, file: str) -> str:
    for ds_id, ds in session.datasets.items():
        if ds.source_path is not None and ds.source_path.name == file:
            return ds_id
    raise FileNotFoundError(f"{file} is no longer in data/raw")


def _prefix(project: Project, file: str) -> SystemMessage:
    from dsagent.workflows.common.prompting import context

    path = project.summaries / f"{file}.md"
    summary = project.read_text(path) if path.is_file() else f"(no summary of {file} yet)"
    return SystemMessage(content=context(summary.strip()))


def make_plan(runtime: Any, task: dict[str, Any], ctx: Any) -> dict[str, Any]:
    """Stage 3: the model's steps for ``task`` (the kind's recipe if its reply is unusable), asked
    through the turn's run context ``ctx``."""
    from dsagent.errors import StructuredOutputError

    project: Project = runtime.project
    default = recipe(task)
    instruction = prompts.PLAN.format(task_id=task["id"], question=task["question"], dataset_id=Path(task["file"]).stem,
                                      file=task["file"], recipe="\n".join(f"- {s}" for s in default))
    made_by = "model"
    try:
        with ctx.step("plan"):
            parsed = ctx.llm_structured([_prefix(project, task["file"]), HumanMessage(content=instruction)], PlanSteps)
        steps = [s.strip() for s in parsed.steps if s and s.strip()][:6]
    except StructuredOutputError:
        steps = []
    if len(steps) < 2:
        steps, made_by = default, "recipe"
    plan = {"task": task, "steps": steps, "made_by": made_by}
    project.write_json(project.plan_path(task["id"]), plan)
    return plan


def off_task(task: dict[str, Any], result_str: str | None) -> str | None:
    """Why a model task's result cannot be the task's, checked by code, or None.

    The feature importance a model reports must be over the task's features (one-hot columns
    named after them count); any other column there — above all the target itself — means the
    code trained on something else (the 1.5B model one-hot encoded the target and reported
    accuracy 1.0).
    """
    if task.get("kind") != "model" or not result_str:
        return None
    import re

    head, _, importance = result_str.partition("feature_importance")
    if not importance:
        return f"`result` has no feature_importance: report the importance of each of {task['features']}"
    allowed = [str(f) for f in task["features"]]
    columns = set(re.findall(r"['\"]?([A-Za-z_][\w.]*)['\"]?\s*[:\s]\s*-?\d", importance))
    foreign = sorted(c for c in columns if c not in allowed and not any(c.startswith(f + "_") for f in allowed)
                     and c not in {"dtype", "float64", "Name"})
    if foreign:
        return (f"the feature importance lists {foreign}, which are not the task's features. Use exactly X = data[{allowed!r}] "
                f"(pd.get_dummies for text columns) and y = data[{task['target']!r}]; never the target as a feature.")
    return None


def recipe_code(task: dict[str, Any], dataset_id: str) -> str:
    """The task kind's own code over its columns (used when the model's code failed)."""
    data = f"datasets[{dataset_id!r}]"
    if task["kind"] == "model":
        classify = "classification" in task["question"]
        est = "RandomForestClassifier" if classify else "RandomForestRegressor"
        metrics = ("{'accuracy': round(accuracy_score(y_test, pred), 4), 'f1_macro': round(f1_score(y_test, pred, average='macro'), 4)}"
                   if classify else "{'r2': round(r2_score(y_test, pred), 4), 'mae': round(mean_absolute_error(y_test, pred), 4)}")
        return f"""from sklearn.model_selection import train_test_split
from sklearn.ensemble import {est}
from sklearn.metrics import accuracy_score, f1_score, r2_score, mean_absolute_error
features = {task['features']!r}
target = {task['target']!r}
data = {data}[features + [target]].dropna()
X = pd.get_dummies(data[features])
y = data[target]
X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.25, random_state=0)
model = {est}(n_estimators=200, random_state=0).fit(X_train, y_train)
pred = model.predict(X_test)
importance = pd.Series(model.feature_importances_, index=X.columns).sort_values(ascending=False)
result = {{**{metrics}, 'train_rows': len(X_train), 'test_rows': len(X_test), 'feature_importance': importance.round(4).to_dict()}}
fig = px.bar(x=importance.index, y=importance.values, labels={{'x': 'feature', 'y': 'importance'}},
             title=f'Feature importance for predicting {{target}}', template='plotly_white')
"""
    if task["kind"] == "chart":
        color = f", color={task['color']!r}" if task.get("color") else ""
        return f"""data = {data}.dropna(subset=[{task['x']!r}, {task['y']!r}])
fig = px.scatter(data, x={task['x']!r}, y={task['y']!r}{color}, title={task['title']!r}, template='plotly_white')
result = round(data[{task['x']!r}].corr(data[{task['y']!r}]), 4)
"""
    return f"""data = {data}
result = data.groupby({task['group']!r})[{task['value']!r}].agg(['count', 'mean', 'median', 'std']).round(4)
fig = px.bar(result.reset_index(), x={task['group']!r}, y='mean', title={task['title']!r}, template='plotly_white')
"""


def execute(runtime: Any, task: dict[str, Any], plan: dict[str, Any], max_retries: int, ctx: Any) -> dict[str, Any]:
    """Stage 4: run ``task`` in the sandbox within the turn's run context ``ctx``; write
    data/outputs/<task>/report.md + .html. Returns the result record."""
    from dsagent.reports.build import build_report, dataset_meta
    from dsagent.reports.html import write_html
    from dsagent.reports.markdown import write_markdown
    from dsagent.sandbox.base import error_line
    from dsagent.workflows.common.attempt import attempt_code
    from dsagent.workflows.common.code import follow_up, run_code, write_code
    from dsagent.workflows.common.prompting import code_rules, quote_data

    project: Project = runtime.project
    session = runtime.session()
    dataset_id = _dataset_id(session, task["file"])
    prefix = _prefix(project, task["file"])
    rules = code_rules(session.datasets, task["question"])
    first = prompts.EXECUTE.format(rules=rules, dataset_id=dataset_id, kind_rule=prompts.KIND_RULES.get(task["kind"], ""),
                                   task_id=task["id"], question=task["question"], steps="\n".join(f"{n}. {s}" for n, s in enumerate(plan["steps"], 1)))
    failed: list[dict[str, Any]] = []
    code, run, made_by = "", None, "model"
    for attempt in range(1, max_retries + 2):
        with ctx.step("execute") as step:
            asked = [prefix, HumanMessage(content=first)]
            messages = follow_up(asked, code, prompts.FIX_CODE.format(error=quote_data(failed[-1]["error"], 1200))) if failed else asked
            code, _ = write_code(ctx, messages, {f["code"] for f in failed}, asked)
            tried = attempt_code(ctx, task["question"], code)  # the shared code step: mends, run, fit check
            code, run, result = tried.code, tried.run, tried.execution_result
            misfit = tried.misfit if tried.outcome(last=attempt > max_retries) == "misfit" else None
            problem = (off_task(task, run.result) or misfit) if run.success else None
            if run.success and (result or {}).get("result_str") is not None and not problem:
                step["detail"] = f"attempt {attempt}: success"
                break
            error = problem or run.error or "the code set no `result`"
            failed.append({"attempt": attempt, "code": code, "error": error})
            step["outcome"], step["detail"] = "failed", f"attempt {attempt}: {error_line(error)}"
    else:
        with ctx.step("recipe") as step:
            code, made_by = recipe_code(task, dataset_id), "recipe"
            run, result = run_code(ctx, code)
            if not run.success:
                step["outcome"] = "failed"
    out_dir = project.writable(project.output_dir(task["id"]) / "report.md").parent
    figures = []
    for path in run.figures:
        target = out_dir / "figures" / Path(path).name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(path, target)
        figures.append(str(target))
    explanation, grounding = (explain(ctx, prefix, task, result, code) if run.success else ("", None))
    final = {"explanation": explanation or f"The task's code failed: {error_line(run.error)}", "code": code,
             "output_type": (result or {}).get("type") if run.success else "error", "figures": figures,
             "result_str": run.result, "failed_attempts": failed, "error": None if run.success else run.error, "grounding": grounding,
             "alignment_caveats": ["The model's code failed; this result comes from the task kind's recipe code."] if made_by == "recipe" else []}
    meta = {"run_id": ctx.run_id, "workflow": "assistant", "model": ctx.model_label, "workspace": str(out_dir),
            "datasets": dataset_meta({dataset_id: session.datasets[dataset_id]})}
    report = build_report(f"{task['id']}: {task['title']}", final, meta, tables=run.tables if run.success else None)
    report_md = write_markdown(report, project.writable(out_dir / "report.md"))
    report_html = write_html(report, project.writable(out_dir / "report.html"))
    ctx.run_log.add_artifact(ctx.run_id, "report", str(report_md))
    project.write_text(project.intermediate / f"{task['id']}_code.py", code)
    record = {"task": task, "success": run.success, "made_by": made_by, "result": run.result, "error": error_line(run.error) if run.error else None,
              "explanation": explanation, "grounding": grounding, "figures": figures, "report": project.rel(Path(report_md)),
              "report_html": project.rel(Path(report_html)), "attempts": len(failed) + 1, "run_id": ctx.run_id}
    project.write_json(project.result_path(task["id"]), record)
    return record


EXPLAIN_MAX_TOKENS = 200


def explain(ctx: Any, prefix: Any, task: dict[str, Any], result: dict[str, Any] | None, code: str) -> tuple[str, dict[str, Any]]:
    """Stage 4's explanation of a successful run, checked against the run's outputs by the grounding
    check every workflow's explanation gets (regenerated once, then mended by code)."""
    from dsagent.workflows.common.code import describe_output
    from dsagent.workflows.common.grounded import ground_in_run, regenerate_with

    with ctx.step("explain") as step:
        messages = [prefix, HumanMessage(content=prompts.EXPLAIN.format(task_id=task["id"], question=task["question"], output=describe_output(result)))]
        first = ctx.llm(messages, max_tokens=EXPLAIN_MAX_TOKENS).strip()
        grounded = ground_in_run(ctx, first, result, task["question"], regenerate_with(ctx, messages, first, EXPLAIN_MAX_TOKENS), code=code)
        step["detail"] = grounded.detail()
        return grounded.text, grounded.record()
