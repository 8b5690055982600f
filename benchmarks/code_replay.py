"""Today's code step on stored runs, with no model call: each run's final code (from the run log)
goes again through the before-run mends, the sandbox, the fit check and the after-misfit mends
(``common.attempt.attempt_code``), and is scored as the benchmark scores a run. A mend or a fit
check measured on seen runs before any new run: which answers it changes, right before and after.

    .venv/bin/python benchmarks/code_replay.py RUN.jsonl --data benchmarks/heldout_h

Only runs whose code ran to a result or failed are replayed; the code stored is the code that ran
(mended then), so only today's new mends and checks change it. A misfit found now is printed too:
in a live run it would have sent the code back to the model.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from dabench import computed_line, rounded_line  # noqa: E402
from dabench_scoring import score_question  # noqa: E402


def scored(result_str: str | None, q: dict) -> bool:
    """Is ``result_str`` right for question ``q``, as speed.py scores a run's computed result?"""
    response = computed_line(result_str, q)
    return all(score_question(response + rounded_line(response, q), q["labels"]))


def replay_one(row: dict, q: dict, run: dict, data: Path, workspace: Path) -> str | None:
    """One line for a row whose replay differs from its run (a new mend, result or misfit), else None."""
    from dsagent.session import Session
    from dsagent.workflows.common.attempt import attempt_code

    out = json.loads(run.get("final_output") or "{}")
    code = out.get("code")
    if not code:
        return None
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as script:
        script.write("[]")  # no model call is expected: a call would fail loudly
    with Session([data / "tables" / q["file_name"]], model=f"scripted:{script.name}", workspace_root=workspace) as session:
        with session.open_run("quick", run["question"]) as ctx:
            tried = attempt_code(ctx, run["question"], code, record=False)
    Path(script.name).unlink(missing_ok=True)
    before = bool(row.get("correct")) and all(row["correct"]) and row.get("output_type") != "error"
    result = tried.execution_result.get("result_str") if tried.run.success and tried.execution_result else None
    after = result is not None and scored(result, q)
    if not tried.mends and tried.misfit is None and before == after:
        return None
    said = f"misfit: {tried.misfit[:90]}" if tried.misfit else (result or tried.run.error or "")[:90]
    return f"{row['id']} {'right' if before else 'wrong'} → {'right' if after else 'wrong'} {tried.mends} {said}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("jsonl", type=Path)
    parser.add_argument("--data", type=Path, required=True, help="the batch folder whose tables/ and questions.jsonl the run used")
    parser.add_argument("--workspace", type=Path, default=Path("benchmarks/results/code-replay"))
    args = parser.parse_args(argv)
    from dsagent.config import load_settings
    from dsagent.store import RunLog

    questions = {q["id"]: q for q in map(json.loads, (args.data / "questions.jsonl").read_text().splitlines()) if q}
    labels = {r["id"]: r for r in map(json.loads, (args.data / "labels.jsonl").read_text().splitlines()) if r}
    run_log: Any = RunLog(load_settings().db_url)
    rows = [json.loads(x) for x in args.jsonl.read_text().splitlines() if x.strip()]
    before = after = 0
    for row in rows:
        q = {**questions[row["id"]], "labels": labels[row["id"]].get("common_answers", row.get("labels"))}
        line = replay_one(row, q, run_log.get_run(row["run_id"], exact=True), args.data, args.workspace)
        right = bool(row.get("correct")) and all(row["correct"]) and row.get("output_type") != "error"
        before += right
        after += right if line is None else line.split(" → ")[1].startswith("right")
        if line:
            print(line, flush=True)
    print(f"right {before}/{len(rows)} as run · {after}/{len(rows)} with today's code step on the same codes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
