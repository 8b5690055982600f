"""``dsagent clean``: run the clean workflow, ask for the review in a terminal, or leave it for ``--resume``;
``--rerun data_cleaner.py NEW.csv`` runs a saved cleaner again inside the sandbox."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from dsagent.errors import UserError

JSON_KEYS = ("thread_id", "status", "recommended_steps", "code", "cleaned_files", "function_path", "report_path", "error",
             "workspace", "run_id", "llm_calls", "duration_s")
EXIT = {"done": 0, "needs_review": 0, "error": 4}
DATA_SUFFIXES = (".csv", ".tsv", ".tab", ".txt", ".xlsx", ".xlsm", ".xls", ".parquet", ".pq", ".json", ".jsonl", ".ndjson")


def split_items(items: list[str]) -> tuple[list[str], str]:
    """Files, then the instructions: the last item is the instructions unless it looks like a file."""
    if not items:
        raise UserError('give at least one data file to clean: dsagent clean data.csv ["instructions"]')
    *head, last = items
    if len(items) > 1 and not Path(last).exists() and not last.lower().endswith(DATA_SUFFIXES):
        return head, last
    return items, ""


def cmd_clean(args: argparse.Namespace) -> int:
    from dsagent.cli.output import err as _err, progress as _progress
    from dsagent.config import load_settings
    from dsagent.workflows.clean.api import clean, resume

    settings = load_settings(model=args.model, workspace_root=args.workspace_root)
    if getattr(args, "rerun", None):
        return _rerun(args, settings)
    interactive = not args.json and not args.yes and sys.stdin.isatty() and sys.stdout.isatty()
    if args.resume:
        if len(args.items) != 1:
            raise UserError("give the answer after the thread id: dsagent clean --resume THREAD yes (or the change, quoted)")
        outcome = resume(args.resume, args.items[0], settings=settings, on_progress=_progress)
    else:
        files, instructions = split_items(args.items)
        outcome = clean(files, instructions, yes=args.yes, settings=settings, on_progress=_progress)
    while interactive and outcome.status == "needs_review":
        print("\nRecommended steps:\n" + (outcome.review_text or outcome.recommended_steps) + "\n")
        # Said before the prompt: a session closed or killed here resumes in a new process.
        print(f"(thread {outcome.thread_id}: to answer later, dsagent clean --resume {outcome.thread_id} yes)")
        try:
            answer = input("Are these steps right? Answer yes, or say what to change: ").strip()
        except EOFError:
            break
        if not answer:
            continue
        outcome = resume(outcome.thread_id, answer, settings=settings, on_progress=_progress)
    if args.json:
        data = outcome.to_json()
        print(json.dumps({k: data.get(k) for k in JSON_KEYS}, default=str))
        return EXIT.get(outcome.status, 1)
    if outcome.status == "needs_review":
        print("\nRecommended steps:\n" + (outcome.review_text or outcome.recommended_steps))
        print(f"\nThread {outcome.thread_id} waits for your review: dsagent clean --resume {outcome.thread_id} yes "
              f'(or --resume {outcome.thread_id} "the change")')
        return 0
    if outcome.error:
        _err(f"dsagent: the cleaner did not pass: {outcome.error}")
    for path in outcome.cleaned_files:
        print(f"Cleaned: {path}")
    if args.yes and outcome.code:  # accepted without review: say what ran (the report shows it too)
        print("".join(f"\n{name} (accepted with --yes; it ran in the sandbox):\n{src}" for name, src in outcome.code.items()))
    print(f"Function: {outcome.function_path} (re-run it in the sandbox: dsagent clean --rerun {outcome.function_path} NEW.csv)\nReport: {outcome.report_path}\nThread: {outcome.thread_id} · status {outcome.status} · "
          f"{outcome.duration_s:.1f}s · {outcome.llm_calls} LLM calls")
    return EXIT.get(outcome.status, 1)


def _rerun(args: argparse.Namespace, settings: object) -> int:
    """``--rerun CLEANER FILE...``: the saved cleaner on new files, in the sandbox; exit 4 when it failed."""
    from dsagent.cli.output import err as _err, progress as _progress
    from dsagent.workflows.clean.rerun import rerun

    if args.resume or args.yes:
        raise UserError("--rerun takes a cleaner and data files only: dsagent clean --rerun data_cleaner.py NEW.csv")
    if not args.items:
        raise UserError("give the data file(s) to clean: dsagent clean --rerun data_cleaner.py NEW.csv")
    outcome = rerun(args.rerun, args.items, settings=settings, on_progress=_progress)
    if args.json:
        print(json.dumps(outcome.to_json(), default=str))
        return EXIT.get(outcome.status, 1)
    if outcome.error:
        _err(f"dsagent: the cleaner failed in the sandbox: {outcome.error}")
    for name, (rows_a, rows_b, cols_a, cols_b) in outcome.shapes.items():
        print(f"{name}: rows {rows_a} → {rows_b}, columns {cols_a} → {cols_b}")
    for path in outcome.cleaned_files:
        print(f"Cleaned: {path}")
    print(f"Workspace: {outcome.workspace} · status {outcome.status}")
    return EXIT.get(outcome.status, 1)
