"""``dsagent clean``: run the clean workflow, ask for the review in a terminal, or leave it for ``--resume``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from dsagent.errors import UserError

JSON_KEYS = ("thread_id", "status", "recommended_steps", "cleaned_files", "function_path", "report_path", "error",
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
    from dsagent.cli.commands import _err, _progress
    from dsagent.config import load_settings
    from dsagent.workflows.clean.api import clean, resume

    settings = load_settings(model=args.model, workspace_root=args.workspace_root)
    interactive = not args.json and not args.yes and sys.stdin.isatty() and sys.stdout.isatty()
    if args.resume:
        if len(args.items) != 1:
            raise UserError("give the answer after the thread id: dsagent clean --resume THREAD yes (or the change, quoted)")
        outcome = resume(args.resume, args.items[0], settings=settings, on_progress=_progress)
    else:
        files, instructions = split_items(args.items)
        outcome = clean(files, instructions, yes=args.yes, settings=settings, on_progress=_progress)
    while interactive and outcome.status == "needs_review":
        print("\nRecommended steps:\n" + outcome.recommended_steps + "\n")
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
        print("\nRecommended steps:\n" + outcome.recommended_steps)
        print(f"\nThread {outcome.thread_id} waits for your review: dsagent clean --resume {outcome.thread_id} yes "
              f'(or --resume {outcome.thread_id} "the change")')
        return 0
    if outcome.error:
        _err(f"dsagent: the cleaner did not pass: {outcome.error}")
    for path in outcome.cleaned_files:
        print(f"Cleaned: {path}")
    print(f"Function: {outcome.function_path}\nReport: {outcome.report_path}\nThread: {outcome.thread_id} · status {outcome.status} · "
          f"{outcome.duration_s:.1f}s · {outcome.llm_calls} LLM calls")
    return EXIT.get(outcome.status, 1)
