"""Seed 003's six nodes: recommend_cleaning_steps, human_review, create_data_cleaner_code,
execute_data_cleaner_code, fix_data_cleaner_code, report_agent_outputs.

The code is written before the review (the vetted snippets, and the model's ``custom_steps`` when
the instructions ask for steps no snippet covers), so the reviewer sees every line that will run;
a "yes" (or ``--yes``) makes it ``approved_functions``, the only code the execute node runs and
saves as ``data_cleaner.py``. Code the fix node rewrites goes back to the reviewer first when there
is one (issue 38, finding 7).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langgraph.types import Command, interrupt

from dsagent.atomic import write_atomic
from dsagent.errors import StructuredOutputError
from dsagent.runtime import ProgressEvent, RunContext
from dsagent.sandbox.base import error_line
from dsagent.workflows.clean import bigpath, cleaner_file, execute, prompts, report, snippets
from dsagent.workflows.clean.decide import Decision, findings_text, grounded
from dsagent.workflows.clean.detect import detect
from dsagent.workflows.clean.plan import make_plan, render_steps
from dsagent.workflows.clean.report import write_report
from dsagent.workflows.clean.review import added_instructions, answer_text, interrupt_value
from dsagent.workflows.clean.routing import after_review, is_yes
from dsagent.workflows.clean.state import CleanState
from dsagent.workflows.common.code import clip, extract_code, write_code
from dsagent.workflows.common.mends import mend_before_run  # the code step's before-run mends

Node = Callable[[CleanState], Any]
FUNCTION_RE = re.compile(r"^def\s+(\w+)\s*\(", re.M)


def _keep_columns(instructions: str, columns: list[str]) -> list[str]:
    """Columns the user says to keep ("keep record_id"): never dropped, imputed or changed."""
    clauses = " ".join(re.findall(r"\bkeep\b[^.;]*", instructions.lower()))
    return [c for c in columns if re.search(r"(?<![\w])" + re.escape(c.lower()) + r"(?![\w])", clauses)]


def make_nodes(ctx: RunContext, reviewed: bool = False) -> dict[str, Node]:
    """The nodes over one context. ``reviewed``: a person reviews (human_in_the_loop without
    bypass_recommended_steps), so code the fix node rewrites waits for a "yes" before it runs."""
    settings = ctx.settings
    big_tables: dict[str, bigpath.RawTable] = {}

    def say(message: str) -> None:
        ctx.progress(ProgressEvent("info", ctx._node, message=message))

    def big_table(ds_id: str) -> bigpath.RawTable | None:
        """A file above big_file_mb: read once in chunks (exact counts, the file's types, a sample)."""
        ds = ctx.datasets[ds_id]
        if ds.big is None:
            return None
        if ds_id not in big_tables:
            big_tables[ds_id] = bigpath.raw_table(ds, settings.clean_sample_rows, settings.clean_chunk_rows, say)
        return big_tables[ds_id]

    def frame_of(ds_id: str) -> Any:
        table = big_table(ds_id)
        return table.sample if table is not None else ctx.datasets[ds_id].frame

    def findings_of(state: CleanState) -> dict[str, list]:
        if state.get("findings"):
            return state["findings"]
        out = {}
        for ds_id in ctx.datasets:
            keep = tuple(_keep_columns(state.get("user_instructions", ""), list(frame_of(ds_id).columns)))
            found = detect(frame_of(ds_id), keep)
            table = big_table(ds_id)  # a big file: the sample's findings, with the file's exact spaces and placeholders
            out[ds_id] = found if table is None else bigpath.complete_findings(found, table)
        return out

    def plans(state: CleanState, findings: dict, policy: dict, skipped: set[int], extra: list[str]) -> dict[str, list]:
        out = {}
        for ds_id in ctx.datasets:
            frame = frame_of(ds_id)
            keep = _keep_columns(state.get("user_instructions", ""), [str(c) for c in frame.columns])
            steps = make_plan(findings[ds_id], policy, skipped, keep, extra)
            for s in steps:
                if s["kind"] == "drop_sparse_columns":
                    s["announced"] = [f["column"] for f in findings[ds_id] if f["kind"] == "missing" and f["params"].get("share", 0) > 0.4 and f["column"] not in keep]
            out[ds_id] = steps
        return out

    def preview(plan: dict) -> str:
        """Run the steps (without writing) on each raw table: what they would drop, by code."""
        lines = []
        for ds_id, steps in plan.items():
            source, table = None, big_table(ds_id)
            if table is not None:  # a big file: the preview runs on its sample, written into the sandbox's folder
                import pickle

                from dsagent.sandbox import fsafe

                name = f".clean_sample_{ds_id}.pkl"
                fsafe.write_bytes(ctx.sandbox.sandbox_dir, name, pickle.dumps(table.sample, protocol=pickle.HIGHEST_PROTOCOL))
                source = f"pd.read_pickle({name!r})"
            code, _ = execute.cell(snippets.build_function([s for s in steps if s["kind"] != "custom"], trace=True), "data_cleaner", ds_id, ds_id,
                                   write=False, source=source)
            run = ctx.sandbox.run(code)
            info = execute.parse_info(run.stdout) if run.success else None
            name = state_names.get(ds_id, ds_id)
            if info is None:
                lines.append(f"Preview of {name}: the steps failed on the data ({error_line(run.error)}); the fix loop will see it.")
                continue
            rows = len(frame_of(ds_id))
            dropped = {t["step"]: t["rows_dropped"] for t in info["trace"] if t["rows_dropped"]}
            changed = {t["step"]: t["cells_changed"] for t in info["trace"] if t["cells_changed"]}
            where = "on the raw table" if table is None else f"on the sample of {rows:,} of its {table.rows:,} rows"
            line = f"Preview of {name} (by code, {where}): rows {rows} → {info['rows']}, columns {frame_of(ds_id).shape[1]} → {len(info['columns'])}"
            line += "; cells changed per step: " + (", ".join(f"{k}: {v}" for k, v in changed.items()) or "none")
            if dropped:
                line += "; rows dropped per step: " + ", ".join(f"{k}: {v}" for k, v in dropped.items())
            lines.append(line)
            kinds = {s["n"]: s["kind"] for s in steps}
            for t in info["trace"]:  # per step: how many cells, and a sample before → after
                if t["cells_changed"] and t.get("sample"):
                    what = "values invented by a statistic" if kinds.get(t["step"]) == "impute" else "cells"
                    lines.append(f"  step {t['step']}: {t['cells_changed']} {what}, e.g. " + "; ".join(t["sample"]))
            for n, count in dropped.items():
                if kinds.get(n) != "drop_duplicates" and count > settings.clean_max_drop_share * rows:
                    lines.append(f"⚠ step {n} drops {count} of {rows} rows ({count / rows:.0%}): answer with a change if these records must stay.")
        return "\n".join(lines)

    state_names = {ds_id: ds.name for ds_id, ds in ctx.datasets.items()}

    def recommend_cleaning_steps(state: CleanState) -> dict[str, Any]:
        with ctx.step("recommend_cleaning_steps") as step:
            findings = findings_of(state)
            instruction = prompts.RECOMMEND.format(
                user_instructions=state.get("user_instructions", "").strip() or prompts.NO_INSTRUCTIONS,
                recommended_steps=clip(state.get("recommended_steps") or "(none)", 1500),
                findings=findings_text(findings, state_names) or prompts.FINDINGS_NONE)
            messages = [SystemMessage(content=f"DATA:\n{clip(state.get('all_datasets_summary') or '', 800)}"), HumanMessage(content=instruction)]
            try:
                decision = ctx.llm_structured(messages, Decision)
            except StructuredOutputError as exc:
                decision = None
                step["outcome"] = "fallback"
                step["detail"] = f"model reply not valid JSON ({exc}); default steps; "
            flat = [f for fs in findings.values() for f in fs]
            policy, skipped, extra, notes = grounded(decision, state.get("user_instructions", ""), flat)
            plan = plans(state, findings, policy, skipped, extra)
            text_parts = []
            for ds_id, steps in plan.items():
                head = f"{state_names.get(ds_id, ds_id)}:\n" if len(plan) > 1 else ""
                text_parts.append(head + render_steps(steps))
            off = [f"{k} (switched off by the instructions)" for k, v in policy.items() if not v]
            note = (decision.reasoning if decision else "") + ("" if not notes else " [" + "; ".join(notes) + "]")
            text = "\n\n".join(text_parts) + "".join(f"\n- Not done: {o}" for o in off)
            text += f"\n\nNote: {note.strip()}" if note.strip() else ""
            text += "\n\n" + preview(plan)
            text += "".join(report.flagged_text(state_names.get(i, i), fs) for i, fs in findings.items())
            notes_big = [bigpath.sample_note(state_names.get(i, i), t) for i in plan if (t := big_table(i)) is not None]
            text += "".join(f"\n{n}" for n in notes_big)
            step["detail"] = step.get("detail", "") + f"{sum(len(s) for s in plan.values())} steps, {len(flat)} findings"
            custom = write_custom(plan) if extra else None  # before the review, so the reviewer reads it
            return {"findings": findings, "plan": plan, "policy": policy, "extra_steps": extra, "model_note": note.strip(),
                    "recommended_steps": text.strip(), **assemble(plan, custom), "approved_functions": {}, "workspace": str(ctx.workspace)}

    def human_review(state: CleanState) -> Command[Literal["recommend_cleaning_steps", "create_data_cleaner_code", "execute_data_cleaner_code"]]:
        # After a run, the code under review is the fix node's rewrite: a "yes" runs it at once.
        fixing = bool(state.get("approved_functions"))
        functions = dict(state.get("functions") or {})
        value = interrupt_value(state["recommended_steps"], state.get("user_instructions", ""), state.get("review_rounds", 0),
                                code_files(functions), state.get("data_cleaner_error") if fixing else None)
        answer = answer_text(interrupt(value))
        goto = after_review(answer, fixing)
        with ctx.step("human_review") as step:
            step["detail"] = "approved" if is_yes(answer) else f"change asked: {answer[:80]}"
        if is_yes(answer):  # the code shown is the code approved
            return Command(goto=goto, update=approve(functions))
        return Command(goto=goto, update={"user_instructions": added_instructions(state.get("user_instructions", ""), answer),
                                          "review_rounds": state.get("review_rounds", 0) + 1})

    def function_file(ds_id: str) -> Path:
        return ctx.workspace / cleaner_file.file_name(ds_id, len(ctx.datasets))

    def code_files(functions: dict[str, str]) -> dict[str, str]:
        """{file name: source}: what the review shows and data_cleaner.py will hold."""
        return {function_file(ds_id).name: src for ds_id, src in functions.items()}

    def approve(functions: dict[str, str]) -> dict[str, Any]:
        first = next(iter(functions), None)
        return {"approved_functions": dict(functions), "data_cleaner_function": functions.get(first) if first else None,
                "data_cleaner_function_path": str(function_file(first)) if first else None,
                "data_cleaner_file_name": function_file(first).name if first else "data_cleaner.py"}

    def save_functions(approved: dict[str, str]) -> None:
        """Write the approved code (and only it) as data_cleaner.py, before it runs."""
        for ds_id, source in approved.items():
            path = function_file(ds_id)
            text = cleaner_file.render(ctx.datasets[ds_id].name, path.name, source)
            if not path.is_file() or path.read_text(encoding="utf-8", errors="replace") != text:
                write_atomic(path, text)
                ctx.run_log.add_artifact(ctx.run_id, "code", str(path))

    def write_custom(plan: dict) -> str:
        """The model's ``custom_steps(df)`` for the steps no snippet covers."""
        first = next(iter(plan.values()))
        columns = ", ".join(f"{c}" for c in frame_of(next(iter(ctx.datasets))).columns)
        return mend_before_run(extract_code(ctx.llm([HumanMessage(content=prompts.CUSTOM_CODE.format(
            extra_steps="\n".join(f"{s['n']}. {s['what']}" for s in first if s["kind"] == "custom"), columns=columns))], max_tokens=600)))[0]

    def create_data_cleaner_code(state: CleanState) -> dict[str, Any]:
        with ctx.step("create_data_cleaner_code") as step:
            update: dict[str, Any] = {}
            plan = state.get("plan")
            if not plan:  # bypass_recommended_steps: the findings and the default policy, by code
                findings = findings_of(state)
                policy, skipped, extra, _ = grounded(None, state.get("user_instructions", ""), [])
                plan = plans(state, findings, policy, skipped, extra)
                update.update(findings=findings, plan=plan, policy=policy, extra_steps=extra,
                              recommended_steps="\n\n".join(render_steps(s) for s in plan.values()))
            functions = update.get("functions") or state.get("functions")
            if not functions:  # a thread checkpointed before the code was written ahead of the review
                extra = state.get("extra_steps") or []
                update.update(assemble(plan, state.get("custom_code") or (write_custom(plan) if extra else None)))
                functions = update["functions"]
            # Reviewed: human_review approved exactly what it showed. Unattended (--yes, or no review
            # node): the code built here is accepted as it is, and the report shows it in full.
            approved = state.get("approved_functions") or functions
            step["detail"] = step.get("detail", "") + f"{len(plan)} function(s) from {sum(len(s) for s in plan.values())} steps"
            return {**update, **approve(approved), "data_cleaner_error": None, "workspace": str(ctx.workspace)}

    def assemble(plan: dict, custom: str | None) -> dict[str, Any]:
        """Each table's function from its steps (and the model's custom_steps); saved only once approved."""
        functions = {ds_id: snippets.build_function([s for s in steps if s["kind"] != "custom"], custom) for ds_id, steps in plan.items()}
        origin = {k: "snippets" for k in functions}
        if settings.clean_model_writes_cleaner:  # seed 003's own path: the model writes data_cleaner(data_raw) from the steps
            for ds_id, steps in plan.items():
                written = model_cleaner(ds_id, steps)
                if written:
                    functions[ds_id], origin[ds_id] = written, "model"
        first_id = next(iter(functions))
        return {"custom_code": custom, "functions": functions, "function_origin": origin,
                "data_cleaner_function": functions[first_id]}

    def model_cleaner(ds_id: str, steps: list) -> str | None:
        """The whole ``data_cleaner(data_raw)`` written by the model from the steps (setting
        clean_model_writes_cleaner); None when the reply holds no such function (the snippets' code stays).
        It is untrusted code like any the model writes: shown in review, run in the sandbox, checked."""
        frame = frame_of(ds_id)
        columns = ", ".join(f"{c} ({t})" for c, t in frame.dtypes.astype(str).items())
        reply = ctx.llm([HumanMessage(content=prompts.CREATE_CODE.format(
            steps="\n".join(f"{s['n']}. {s['what']} — {s['why']}" for s in steps), columns=clip(columns, 1500),
            sample=clip(frame.head(5).to_csv(index=False), 1500)))], max_tokens=1500)
        code = mend_before_run(extract_code(reply))[0]
        return code if code and re.search(r"^def data_cleaner\(data_raw\)", code, re.M) else None

    def execute_data_cleaner_code(state: CleanState) -> dict[str, Any]:
        with ctx.step("execute_data_cleaner_code") as step:
            errors, cleaned, verification, guard_lines = [], {}, {}, []
            approved = dict(state.get("approved_functions") or {})
            save_functions(approved)  # data_cleaner.py is the code that runs now, written before it runs
            for ds_id, steps in state["plan"].items():
                plain = [s for s in steps if s["kind"] != "custom"]
                if ds_id not in approved:
                    errors.append(f"{state_names.get(ds_id, ds_id)}: no approved cleaner; nothing ran")
                    continue
                if state.get("function_origin", {}).get(ds_id) == "snippets":  # the same code, with dsagent's trace lines
                    source = snippets.build_function(plain, state.get("custom_code"), trace=True)
                    if snippets.untraced(source) != approved[ds_id]:
                        errors.append(f"{state_names.get(ds_id, ds_id)}: the code to run is not the approved code; refused")
                        continue
                else:
                    source = approved[ds_id]
                stem = Path(str(ctx.datasets[ds_id].source_path or ds_id)).stem if len(ctx.datasets) == 1 else ds_id
                prefix = f"{state_names.get(ds_id, ds_id)}: " if len(ctx.datasets) > 1 else ""
                table = big_table(ds_id)
                if table is not None:  # above big_file_mb: chunk by chunk in the sandbox, checked by DuckDB
                    custom = state.get("custom_code") if state.get("function_origin", {}).get(ds_id) == "snippets" else None
                    keep = _keep_columns(state.get("user_instructions", ""), list(table.sample.columns))
                    dups = sum(f["count"] for f in state["findings"].get(ds_id, []) if f["kind"] == "duplicate_rows")
                    model_fn = approved[ds_id] if state.get("function_origin", {}).get(ds_id) == "model" else None
                    out, problems, checks, err = bigpath.clean_table(ctx, ds_id, state_names.get(ds_id, ds_id), table, plain, steps, custom, keep,
                                                                     stem, dups, model_fn, say)
                    if err:
                        errors.append(prefix + err)
                        continue
                    cleaned[ds_id], verification[ds_id] = out, checks
                    guard_lines += [prefix + p for p in problems]
                    continue
                code, names = execute.cell(source, "data_cleaner", ds_id, stem)
                run = ctx.sandbox.run(code)
                info = execute.parse_info(run.stdout) if run.success else None
                if info is None:
                    errors.append(prefix + (run.error or "the cleaner printed no result").strip())
                    continue
                paths = execute.collect(ctx.sandbox, names, settings.sandbox_file_mb * 1024 * 1024)
                if "csv" not in paths or "parquet" not in paths:
                    errors.append(prefix + "the cleaned CSV or Parquet could not be taken from the sandbox (missing, a link, or too large)")
                    continue
                frame, index = execute.read_cleaned(paths, info)
                comparison = execute.compare(frame_of(ds_id), frame, index is not None)
                dups = sum(f["count"] for f in state["findings"].get(ds_id, []) if f["kind"] == "duplicate_rows")
                problems = execute.guards(comparison, steps, info["trace"], settings.clean_max_drop_share, dups)
                ok, failed = execute.verify(frame, plain)
                verification[ds_id] = ok + failed
                guard_lines += [prefix + p for p in problems + [f"check failed: {f}" for f in failed]]
                cleaned[ds_id] = {"csv": paths["csv"], "parquet": paths["parquet"], "rows": len(frame), "columns": list(frame.columns),
                                  "dtypes": info["dtypes"], "trace": info["trace"], "comparison": comparison, "parquet_error": info["parquet_error"]}
            error = "\n".join(errors + guard_lines) or None
            step["outcome"] = "ok" if error is None else "failed"
            step["detail"] = "cleaned and verified" if error is None else error_line(error)
            return {"data_cleaned": cleaned, "data_cleaner_error": error, "guard_findings": guard_lines, "verification": verification}

    def fix_data_cleaner_code(state: CleanState) -> dict[str, Any]:
        with ctx.step("fix_data_cleaner_code") as step:
            error = clip(state["data_cleaner_error"] or "", 1500)
            update: dict[str, Any] = {"retry_count": state.get("retry_count", 0) + 1}
            if state.get("custom_code"):
                ask = [HumanMessage(content=prompts.FIX.format(function_name="custom_steps", code_snippet=state["custom_code"], error=error))]
                fixed = mend_before_run(write_code(ctx, ask, {state["custom_code"]}, max_tokens=700)[0])[0]
                update.update(assemble(state["plan"], fixed if "def custom_steps" in fixed else state["custom_code"]))
                functions = update["functions"]
                step["detail"] = "fixed custom_steps"
            else:
                functions, origin = dict(state["functions"]), dict(state.get("function_origin", {}))
                for ds_id in state["plan"]:
                    ask = [HumanMessage(content=prompts.FIX.format(function_name="data_cleaner", code_snippet=functions[ds_id], error=error))]
                    fixed = mend_before_run(write_code(ctx, ask, {functions[ds_id]}, max_tokens=1500)[0])[0]
                    if "def data_cleaner" in fixed:
                        functions[ds_id], origin[ds_id] = fixed, "model"
                first = next(iter(functions))
                update.update(functions=functions, function_origin=origin, data_cleaner_function=functions[first])
                step["detail"] = "fixed data_cleaner"
            step["detail"] += f" (retry {update['retry_count']}/{state.get('max_retries', 0)})"
            if not reviewed:  # unattended: the rewrite is accepted; it runs, is saved and is shown in the report
                update.update(approve(functions))
            return update

    def report_agent_outputs(state: CleanState) -> dict[str, Any]:
        with ctx.step("report_agent_outputs"):
            report_path = write_report(ctx, state)
            keys = ["recommended_steps", "data_cleaner_function", "data_cleaner_function_path", "data_cleaner_function_name", "data_cleaner_error"]
            body = json.dumps({k: state.get(k) for k in keys}, indent=2, default=str)
            message = AIMessage(content=f"# Data Cleaning Agent Outputs\n\n{body}", name="data_cleaning_agent")
            return {"messages": [*state.get("messages", []), message], "report_path": report_path}

    return {"recommend_cleaning_steps": recommend_cleaning_steps, "human_review": human_review,
            "create_data_cleaner_code": create_data_cleaner_code, "execute_data_cleaner_code": execute_data_cleaner_code,
            "fix_data_cleaner_code": fix_data_cleaner_code, "report_agent_outputs": report_agent_outputs}
