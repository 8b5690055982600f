"""Stages 1–3 of the pipeline: summarize (by code), suggest tasks (by code), plan (by the model).

Stage 1 profiles each raw file with the core's profiler (``dsagent.data``): a summary made by
code, exact and fast, which the later stages and the model read. Stage 2 proposes tasks from the
shape of each table (a label-like column → a classification model, a numeric one → regression; the
most related numeric pair → a chart; a numeric column across groups → a comparison), so every
task names columns that exist. Stage 3 asks the model for the steps of one task, with the recipe
of its kind as a fallback.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from dsagent.workflows.assistant.project import Project, fingerprint

MAX_FEATURES = 8
_ID_NAME = re.compile(r"(^|[_\s])(id|key|code|uuid|no|num|number)$|id$", re.I)


def load_table(path: Path) -> Any:
    """The first table of a raw file (read only)."""
    from dsagent.data import load_datasets

    return next(iter(load_datasets([path]).values()))


# -- stage 1 ------------------------------------------------------------------------------------
def summarize(project: Project, files: list[Path], force: bool = False) -> list[dict[str, Any]]:
    """Profile each file into data/summaries/; an up-to-date summary is reused unless ``force``."""
    from dsagent.data import load_datasets, profile_dataset

    done = []
    for path in files:
        if not force and project.summary_is_current(path):
            text = project.read_text(project.summary_path(path))
            done.append({"file": path.name, "summary": project.rel(project.summary_path(path)), "cached": True, "header": text.splitlines()[0]})
            continue
        datasets = load_datasets([path])
        text = "\n\n".join(profile_dataset(ds).text for ds in datasets.values())
        project.write_text(project.summary_path(path), text + "\n")
        project.write_json(project.summaries / f"{path.name}.json", {"source": path.name, "fingerprint": fingerprint(path)})
        done.append({"file": path.name, "summary": project.rel(project.summary_path(path)), "cached": False, "header": text.splitlines()[0]})
    return done


# -- stage 2 ------------------------------------------------------------------------------------
def _is_id(name: str, series: Any) -> bool:
    import pandas as pd

    if _ID_NAME.search(name):
        return True
    return pd.api.types.is_integer_dtype(series) and series.nunique() == len(series) > 20


def column_roles(frame: Any) -> tuple[list[str], list[str]]:
    """(numeric columns, categorical columns with 2–20 values), id-like columns left out."""
    import pandas as pd

    numeric, categorical = [], []
    rows = max(len(frame), 1)
    for name in frame.columns:
        s = frame[name]
        if _is_id(str(name), s):
            continue
        if pd.api.types.is_bool_dtype(s) or (not pd.api.types.is_numeric_dtype(s) and 2 <= s.nunique() <= 20 and s.nunique() <= rows / 2):
            categorical.append(str(name))
        elif pd.api.types.is_numeric_dtype(s) and s.nunique() > 2:
            numeric.append(str(name))
    return numeric, categorical


def tasks_for_table(file: str, frame: Any) -> list[dict[str, Any]]:
    """A model, a chart and a comparison task for one table, as far as its columns allow."""
    numeric, categorical = column_roles(frame)
    tasks: list[dict[str, Any]] = []
    labels = [c for c in categorical if frame[c].nunique() <= 10]
    if labels or numeric:
        target = labels[-1] if labels else numeric[-1]
        kind = "classification" if labels else "regression"
        features = [c for c in numeric + [c for c in labels if c != target] if c != target][:MAX_FEATURES]
        if features:
            tasks.append({"file": file, "kind": "model", "target": target, "features": features,
                          "title": f"Predict {target} ({kind})",
                          "question": f"Train and evaluate a {kind} model that predicts {target} from {', '.join(features)}: "
                                      f"split train/test, fit, report the metrics and the feature importance."})
    if len(numeric) >= 2:
        corr = frame[numeric].corr(numeric_only=True).abs()
        pairs = [(corr.iloc[i, j], numeric[i], numeric[j]) for i in range(len(numeric)) for j in range(i + 1, len(numeric))]
        pairs = [p for p in pairs if p[0] == p[0]]  # not NaN
        if pairs:
            _, x, y = max(pairs)
            color = categorical[0] if categorical else None
            tasks.append({"file": file, "kind": "chart", "x": x, "y": y, "color": color,
                          "title": f"How {y} relates to {x}",
                          "question": f"Chart {y} against {x}" + (f" coloured by {color}" if color else "") + " and report their correlation."})
    if categorical and numeric:
        group, value = categorical[0], numeric[-1]
        tasks.append({"file": file, "kind": "comparison", "group": group, "value": value,
                      "title": f"{value} by {group}",
                      "question": f"Compare {value} across the groups of {group}: count, mean, median and spread per group, with a bar chart."})
    return tasks


def suggest(project: Project, files: list[Path], max_tasks: int) -> list[dict[str, Any]]:
    """Tasks for the files, round robin over the files (each file's model task first), ids T1…."""
    per_file = [tasks_for_table(p.name, load_table(p).frame) for p in files]
    ordered: list[dict[str, Any]] = []
    for rank in range(max((len(t) for t in per_file), default=0)):
        ordered += [tasks[rank] for tasks in per_file if rank < len(tasks)]
    tasks = [{"id": f"T{n}", **task} for n, task in enumerate(ordered[:max_tasks], start=1)]
    project.write_json(project.tasks_file, {"sources": {p.name: fingerprint(p) for p in files}, "tasks": tasks})
    return tasks


# -- stage 3 ------------------------------------------------------------------------------------
class PlanSteps(BaseModel):
    """Stage 3's structured output."""

    steps: list[str] = Field(description="3 to 6 short, concrete analysis steps, in order")


RECIPES = {
    "model": ["Keep the target and feature columns, drop rows with missing values",
              "One-hot encode categorical features (pd.get_dummies)",
              "Split train/test 75/25 with train_test_split(random_state=0)",
              "Fit a random forest ({kind}) on the training part",
              "Report test metrics ({metrics}) and the feature importance, with a bar chart of it"],
    "chart": ["Drop rows where {x} or {y} is missing", "Scatter plot of {y} against {x}{colour}",
              "Compute the correlation of {x} and {y} as the result"],
    "comparison": ["Group the rows by {group}", "Per group: count, mean, median and standard deviation of {value}",
                   "Bar chart of the mean of {value} per group"],
}


def recipe(task: dict[str, Any]) -> list[str]:
    """The default steps of a task's kind, with its columns filled in."""
    kind = "classification" if "classification" in task.get("title", "") or "classification" in task.get("question", "") else "regression"
    fill = {**task, "kind": kind, "metrics": "accuracy, macro F1" if kind == "classification" else "R², MAE",
            "colour": f", coloured by {task['color']}" if task.get("color") else ""}
    return [step.format(**fill) for step in RECIPES.get(task.get("kind", ""), ["Compute what the task asks", "Chart it"])]
