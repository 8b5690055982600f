"""The commands; each parses nothing itself, calls the core and renders its typed result."""

from __future__ import annotations

import argparse
import json
import sys

from dsagent.cli.output import err as _err, progress as _progress
from dsagent.errors import UserError


def cmd_ask(args: argparse.Namespace) -> int:
    from dsagent.session import Session

    if len(args.items) < 2:
        raise UserError('give at least one data file and a question: dsagent ask data.csv "What is the average price?"')
    *files, question = args.items
    overrides = {"workspace_root": args.workspace_root, "workflow": args.workflow, "notes_file": args.notes_file}
    with Session(files, model=args.model, progress=_progress, **overrides) as session:
        _err(f"datasets: {', '.join(f'{d.id} ({d.rows}×{d.frame.shape[1]})' for d in session.datasets.values())}")
        _err(f"model: {session.settings.model} · workspace: {session.workspace}")
        _notice(session.settings)
        result = session.ask(question)
    if args.json:
        print(json.dumps(result.model_dump(include=set(JSON_KEYS)), default=str))
        return 0 if result.output_type != "error" else 4
    print()
    print(result.explanation.strip())
    from dsagent.reports.build import verification_line

    line = verification_line(result)  # empty for "not checked" (--json still says why): nothing printed then
    if line:
        print("\n" + line)
    if result.result_str:
        print("\nResult:\n" + result.result_str.rstrip())
    if result.code:
        print("\nCode:\n" + result.code.rstrip())
    for fig in result.figures:
        print(f"Figure: {fig}")
    print(f"\nReport: {result.report_path}\nRun: {result.run_id} · {_usage(result, session.settings)}")
    return 0 if result.output_type != "error" else 4


def _usage(result, settings) -> str:  # type: ignore[no-untyped-def]
    from dsagent.doors.text import usage_line

    return usage_line(result.llm_calls, result.prompt_tokens, result.completion_tokens, result.duration_s, settings)


def _notice(settings) -> None:  # type: ignore[no-untyped-def]
    """Once per session, with a hosted model: which provider receives what."""
    from dsagent.doors.text import sharing_notice

    notice = sharing_notice(settings)
    if notice:
        _err(f"note: {notice}")


JSON_KEYS = ("explanation", "evaluation", "code", "plan", "requirements", "alignment_caveats", "output_type", "figures", "result_str", "failed_attempts",
             "error", "run_id", "attempts", "report_path", "workspace", "model", "workflow", "llm_calls",
             "prompt_tokens", "completion_tokens", "duration_s", "verified", "verification", "verification_checks")


def cmd_report(args: argparse.Namespace) -> int:
    from pathlib import Path

    from dsagent.config import load_settings
    from dsagent.reports.export import export_run
    from dsagent.store import RunLog

    path = export_run(RunLog(load_settings().db_url), args.run_id, args.fmt, Path(args.out) if args.out else None)
    print(path)
    return 0


def cmd_runs(args: argparse.Namespace) -> int:
    from dsagent.config import load_settings
    from dsagent.store import RunLog

    if args.action == "show":
        return _show_run(RunLog(load_settings().db_url), args)
    if args.run_id:
        raise UserError(f"`dsagent runs {args.run_id}`: to see one run use `dsagent runs show {args.run_id}`")
    runs = RunLog(load_settings().db_url).recent_runs(args.limit)
    if args.json:
        print(json.dumps(runs, default=str))
        return 0
    if not runs:
        print("no runs yet: try `dsagent ask FILE \"question\"`")
    for run in runs:
        question = " ".join(run["question"].split())[:70]
        print(f"{run['id']}  {run['created_at'][:19]}  {run['status']:<11} {run['workflow']:<6} {run['model'][:28]:<28}  {question}")
    return 0


def _show_run(log, args: argparse.Namespace) -> int:  # type: ignore[no-untyped-def]
    """One run: its steps, its model calls and, with --prompts, what each call was sent and received."""
    if not args.run_id:
        raise UserError("give a run id: `dsagent runs show RUN_ID` (`dsagent runs` lists recent runs)")
    run = log.get_run(args.run_id)
    calls = log.llm_calls(run["id"])
    if args.json:
        print(json.dumps({"run": run, "steps": log.steps(run["id"]), "llm_calls": calls}, default=str))
        return 0
    print(f"run {run['id']} · {run['status']} · {run['workflow']} · {run['model']} · {run['created_at'][:19]}")
    print(f"question: {run['question']}")
    for step in log.steps(run["id"]):
        detail = f" — {step['detail']}" if step.get("detail") else ""
        print(f"  {step['node']:<24} {step['outcome'] or '?':<10} {step['duration_s'] or 0:.1f}s{detail}")
    totals = log.llm_totals(run["id"])
    print(f"{totals['calls']} model calls · {totals['prompt_tokens']:,} + {totals['completion_tokens']:,} tokens")
    if not args.prompts:
        return 0
    for n, call in enumerate(calls, 1):
        print(f"\n===== call {n} · {call['node'] or '?'} · {call['model']} · {call['prompt_tokens']}+{call['completion_tokens']} tokens · "
              f"{call['latency_s'] or 0:.1f}s{'' if call['ok'] else ' · FAILED: ' + str(call['error'])}")
        if call.get("prompt") is None:
            print("(not recorded: this run predates prompt logging)")
            continue
        for message in json.loads(call["prompt"]):
            print(f"----- sent · {message['role']}\n{message['content']}")
        print(f"----- received\n{call['reply'] if call.get('reply') is not None else '(no reply)'}")
    return 0


def cmd_mcp(args: argparse.Namespace) -> int:
    from pathlib import Path

    from dsagent.config import load_settings
    from dsagent.doors.mcp_server import serve

    roots = [Path(r) for r in args.root] if args.root else None
    for root in roots or []:
        if not root.expanduser().is_dir():
            raise UserError(f"--root {root}: no such folder")
    settings = load_settings(model=args.model, workspace_root=args.workspace_root, allowed_roots=roots)
    if args.http is not None and not 0 < args.http < 65536:
        raise UserError(f"--http {args.http}: give a port between 1 and 65535")
    serve(settings, http_port=args.http)
    return 0


def cmd_models(args: argparse.Namespace) -> int:
    from dsagent.config import load_settings
    from dsagent.llm import model_files

    settings = load_settings()
    if args.action == "install":
        model_files.install(settings.models_dir, progress=_err, force=args.force)
        return 0
    st = model_files.status(settings.models_dir)
    print(f"configured model: {settings.model}")
    print(f"local model: {'installed' if st.installed else 'not installed'} — {st.detail}")
    print(f"  path: {st.path}")
    try:
        import importlib.util

        llama = importlib.util.find_spec("llama_cpp") is not None
    except ValueError:
        llama = False
    print(f"  llama-cpp-python: {'installed' if llama else 'missing (uv sync --extra local)'}")
    print("providers: local, local:<path.gguf>, openai:<model>, anthropic:<model>, ollama:<model>, "
          "openai-compatible:<model>@<base_url>, scripted:<file.json>")
    return 0


def cmd_web(args: argparse.Namespace) -> int:
    from dsagent.web.server import serve

    serve(host=args.host, port=args.port, model=args.model, workflow=args.workflow, token=args.token)
    return 0  # not reached: serve() becomes the Streamlit server


CHAT_EXIT = {"exit", "quit", ":q"}


def cmd_chat(args: argparse.Namespace) -> int:
    """A conversation over one Session: each line is one ``session.ask``; answers on stdout,
    the prompt and progress on stderr (so piped output holds the answers only)."""
    from dsagent.errors import ProviderError
    from dsagent.session import Session

    overrides = {"workspace_root": args.workspace_root, "workflow": args.workflow, "notes_file": args.notes_file}
    with Session(args.files, model=args.model, progress=_progress, **overrides) as session:
        _err(f"datasets: {', '.join(f'{d.id} ({d.rows}×{d.frame.shape[1]})' for d in session.datasets.values())}")
        _err(f"model: {session.settings.model} · workflow: {args.workflow} · workspace: {session.workspace}")
        _notice(session.settings)
        _err("Ask about the data; `exit` or Ctrl-D ends the chat.")
        while True:
            sys.stderr.write("\nyou> ")
            sys.stderr.flush()
            line = sys.stdin.readline()
            if not line:  # end of input
                _err("")
                break
            question = line.strip()
            if question.lower() in CHAT_EXIT:
                break
            if not question:
                continue
            try:
                result = session.ask(question)
            except (UserError, ProviderError) as exc:  # one message failed; the conversation goes on
                _err(f"dsagent: error: {exc}")
                continue
            print(f"\ndsagent> {result.explanation.strip()}", flush=True)
            if result.output_type != "ask":
                for fig in result.figures:
                    print(f"Figure: {fig}")
                print(f"Report: {result.report_path}", flush=True)
            print(_usage(result, session.settings), flush=True)
    return 0


def cmd_clean(args: argparse.Namespace) -> int:
    from dsagent.cli.clean import cmd_clean as run

    return run(args)


def cmd_assistant(args: argparse.Namespace) -> int:
    from dsagent.cli.assistant import cmd_assistant as run

    return run(args)
