"""The verified mark read again from stored runs (speed.py's JSONL and the run log): how often a
check sampled warm agrees with answers already marked, and the mark before 5cde505 replayed on a
run's own recorded checks beside the mark the run gave (docs/benchmarks.md, "A check that copies
the answer; a second sampled warm").

    .venv/bin/python benchmarks/mark_check.py replay RUN.jsonl
    .venv/bin/python benchmarks/mark_check.py warm RUN.jsonl --data benchmarks/heldout_h --samples 3
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def _stored(run_log: Any, row: dict) -> tuple[str, dict]:
    run = run_log.get_run(row["run_id"], exact=True)
    return run["question"], json.loads(run.get("final_output") or "{}")


def old_mark(question: str, answer: str | None, out: dict) -> bool:
    """The mark before 5cde505: the first check's agreement decides; a second, when the first
    differs, verifies (2 of 3) or outvotes; an answer rescued from a failed run needs two checks."""
    from dsagent.workflows.common.agreement import answers_agree
    from dsagent.workflows.common.votes import votes_with

    checks = [{"code": c["code"], "result_str": c.get("result")} for c in out.get("verification_checks") or []]
    if not answer or not checks or checks[0]["result_str"] is None:
        return False
    second = checks[1] if len(checks) > 1 else None
    if "the code step failed every attempt" in (out.get("verification") or ""):
        return bool(second and votes_with(checks[0], second))
    if answers_agree(question, answer, checks[0]["result_str"]):
        return True
    return bool(second and (answers_agree(question, answer, second["result_str"]) or votes_with(checks[0], second)))


def replay(rows: list[dict], run_log: Any) -> str:
    before = after = before_right = after_right = right = 0
    lines = []
    for row in rows:
        ok = bool(row.get("correct")) and all(row["correct"])
        question, out = _stored(run_log, row)
        old, new = old_mark(question, row.get("result_str"), out), bool(row.get("verified"))
        right += ok
        before, before_right, after, after_right = before + old, before_right + (old and ok), after + new, after_right + (new and ok)
        if old != new:
            lines.append(f"{row['id']} {'right' if ok else 'wrong'}: before {old}, after {new} — {(out.get('verification') or '')[:100]}")
    lines.append(f"right {right}/{len(rows)} · before: verified {before}, right {before_right} · after: verified {after}, right {after_right}")
    return "\n".join(lines)


def warm(rows: list[dict], run_log: Any, data: Path, samples: int, temperature: float) -> str:
    """For each verified answer: does the check prompt, sampled warm ``samples`` times, agree with it?"""
    from dsagent.data.sharing import summarize_for_prompt
    from dsagent.session import Session
    from dsagent.workflows.common.agreement import answers_agree
    from dsagent.workflows.common.verify import independent
    from dsagent.workflows.common.votes import same_code

    lines = []
    for row in (r for r in rows if r.get("verified")):
        question, out = _stored(run_log, row)
        copied = same_code(out.get("code") or "", (out.get("verification_checks") or [{}])[0].get("code") or "")
        with Session([data / "tables" / row["file"]], model="local", workspace_root=Path("benchmarks/results/mark-check")) as session:
            state = {"question": question, "datasets": session.datasets, "messages": [],
                     "data_summary": summarize_for_prompt(session.datasets, question, session.settings)}
            with session.open_run("quick", question) as ctx:
                agree = [answers_agree(question, row["result_str"], independent(ctx, state, temperature)[0].get("result_str"))
                         for _ in range(samples)]
        ok = bool(row.get("correct")) and all(row["correct"])
        lines.append(f"{row['id']} {'right' if ok else 'wrong'} {'copied' if copied else 'other code'} "
                     + "".join("+" if a else "-" for a in agree))
        print(lines[-1], file=sys.stderr, flush=True)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["replay", "warm"])
    parser.add_argument("jsonl", type=Path)
    parser.add_argument("--data", type=Path, help="the batch folder (warm)")
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--temperature", type=float, default=0.7)
    args = parser.parse_args(argv)
    from dsagent.config import load_settings
    from dsagent.store import RunLog

    rows = [json.loads(x) for x in args.jsonl.read_text().splitlines() if x.strip()]
    run_log = RunLog(load_settings().db_url)
    if args.what == "replay":
        print(replay(rows, run_log))
    else:
        if args.data is None:
            parser.error("warm needs --data (the batch folder whose tables/ the run read)")
        print(warm(rows, run_log, args.data, args.samples, args.temperature))
    return 0


if __name__ == "__main__":
    sys.exit(main())
