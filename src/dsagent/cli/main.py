"""``dsagent`` entry point: argument parsing and the one place errors are rendered.

Only the standard library is imported at module level so ``dsagent --help`` is instant.
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence

from dsagent import __version__
from dsagent.workflows import WORKFLOWS

EXIT_USER, EXIT_PROVIDER, EXIT_INTERNAL = 2, 3, 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dsagent",
        description="An AI data scientist: ask a question about data files in plain language; dsagent plans, "
        "writes and runs pandas/plotly code in a sandbox, checks it and explains the answer. "
        "Works offline with the embedded model (no API key).",
    )
    parser.add_argument("--version", action="version", version=f"dsagent {__version__}")
    parser.add_argument("--debug", action="store_true", help="show full tracebacks on errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    ask = sub.add_parser("ask", help="answer a question about data files", description="Answer a question about one or more data files (CSV/TSV, Excel, Parquet, JSON/JSONL) "
                         "or a database (a SQLite/DuckDB file, or a SQLAlchemy URL such as postgresql://reader@host/db).")
    ask.add_argument("items", nargs="+", metavar="FILE... QUESTION", help="data files or a database URL, then the question (quote it)")
    ask.add_argument("--model", help="model spec, e.g. local, openai:gpt-4.1-mini, scripted:replies.json (default: settings, DSAGENT_MODEL)")
    ask.add_argument("--workflow", default=None, choices=list(WORKFLOWS), help="workflow to run (default: the workflow setting, DSAGENT_WORKFLOW; quick)")
    ask.add_argument("--workspace", dest="workspace_root", help="folder for session workspaces (default: ./workspace)")
    ask.add_argument("--notes", dest="notes_file", metavar="FILE", help="column notes YAML (table and column descriptions, units) for the data; "
                     "default: NAME.notes.yaml beside each file")
    ask.add_argument("--json", action="store_true", help="print the final output package as one JSON object on stdout")
    ask.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help="show full tracebacks on errors")

    chat = sub.add_parser("chat", help="talk about data files: one question after another, follow-ups act on the latest result",
                          description="An interactive conversation about one or more data files: type a question, read the answer "
                          "(or the question dsagent asks back), ask a follow-up; `exit` or Ctrl-D ends it.")
    chat.add_argument("files", nargs="+", metavar="FILE", help="data files (CSV/TSV, Excel, Parquet, JSON)")
    chat.add_argument("--workflow", default="react", choices=list(WORKFLOWS), help="workflow for every message (default: react)")
    chat.add_argument("--model", help="model spec, e.g. local, openai:gpt-4.1-mini, scripted:replies.json (default: settings, DSAGENT_MODEL)")
    chat.add_argument("--workspace", dest="workspace_root", help="folder for session workspaces (default: ./workspace)")
    chat.add_argument("--notes", dest="notes_file", metavar="FILE", help="column notes YAML for the data (default: NAME.notes.yaml beside each file)")
    chat.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help="show full tracebacks on errors")

    clean = sub.add_parser("clean", help="clean data files: recommended steps, your review, a data_cleaner function, cleaned CSV/Parquet and a report",
                           description="Clean one or more data files (the files are never written). dsagent finds the problems by code, "
                           "recommends numbered steps (the default policy changed by your instructions) and waits for your review: in a "
                           "terminal it asks; with --json or without a terminal it exits with the thread id and status needs_review, and "
                           "`dsagent clean --resume THREAD ANSWER` goes on later (ANSWER is yes, or the change in plain words). "
                           "The cleaned CSV and Parquet, the data_cleaner function and a before/after report go to the workspace.")
    clean.add_argument("items", nargs="*", metavar='FILE... ["INSTRUCTIONS"]', help="data files, then optionally the instructions (quote them); with --resume: the ANSWER")
    clean.add_argument("--resume", metavar="THREAD", help="answer the review of a thread that waits: the ANSWER is `yes` or the change to make")
    clean.add_argument("--rerun", metavar="CLEANER", help="run a saved data_cleaner.py again on the FILEs, inside the sandbox (the files are only read; the output goes to a new workspace)")
    clean.add_argument("--yes", action="store_true", help="run unattended: accept the recommended steps without review")
    clean.add_argument("--json", action="store_true", help="print one JSON object: thread_id, status, recommended_steps, cleaned_files, function_path, report_path, error")
    clean.add_argument("--model", help="model spec, e.g. local, openai:gpt-4.1-mini, scripted:replies.json (default: settings, DSAGENT_MODEL)")
    clean.add_argument("--workspace", dest="workspace_root", help="folder for session workspaces (default: ./workspace)")
    clean.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help="show full tracebacks on errors")

    from dsagent.cli.assistant import add_parser as add_assistant

    add_assistant(sub)

    runs = sub.add_parser("runs", help="list recent runs from the run log; `runs show RUN_ID --prompts` prints what the model was sent",
                          description="`dsagent runs` lists recent runs; `dsagent runs show RUN_ID` prints one run's steps and model calls, "
                          "and with --prompts exactly what each model call was sent and received.")
    runs.add_argument("action", nargs="?", choices=["list", "show"], default="list", help="list (default) or show one run")
    runs.add_argument("run_id", nargs="?", metavar="RUN_ID", help="with `show`: a run id (a unique prefix is enough)")
    runs.add_argument("--prompts", action="store_true", help="with `show`: print every prompt sent and every reply received")
    runs.add_argument("--limit", type=int, default=20, help="how many runs (default 20)")
    runs.add_argument("--json", action="store_true", help="print JSON")

    report = sub.add_parser("report", help="re-render a past run's report as Markdown, HTML or a Jupyter notebook",
                            description="Re-render the report of a run from the run log: Markdown, one self-contained HTML file "
                            "(interactive charts, works offline) or a Jupyter notebook whose cells re-run the analysis on the same files.")
    report.add_argument("run_id", metavar="RUN_ID", help="a run id from `dsagent runs` (a unique prefix is enough)")
    report.add_argument("--format", dest="fmt", choices=["md", "html", "ipynb"], default="html", help="output format (default: html)")
    report.add_argument("--out", help="file or folder to write to (default: beside the run's report.md in its workspace)")

    models = sub.add_parser("models", help="show the configured model and whether the local model is installed; `models install` assembles it")
    models.add_argument("action", nargs="?", choices=["status", "install"], default="status")
    models.add_argument("--force", action="store_true", help="re-assemble and re-verify even if installed")

    web = sub.add_parser("web", help="start the web app (Streamlit): upload data, chat, charts, report downloads",
                         description="Start the Streamlit web app: upload data files, pick a workflow and a model, ask questions; "
                         "answers show live progress, interactive charts, tables, code and report downloads.")
    web.add_argument("--port", type=int, default=8501, help="port to listen on (default 8501)")
    web.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only; any other address needs --token)")
    web.add_argument("--token", default=None, help="access token every browser session must give (page field or ?token=); "
                     "required with a --host other machines can reach (default: the web_token setting, DSAGENT_WEB_TOKEN)")
    web.add_argument("--model", help="default model spec shown in the app (default: settings, DSAGENT_MODEL)")
    web.add_argument("--workflow", default=None, choices=list(WORKFLOWS), help="default workflow shown in the app (default: the workflow setting; quick)")
    mcp = sub.add_parser("mcp", help="serve dsagent's tools over MCP (stdio, or --http PORT) for assistants and IDEs",
                         description="An MCP server with the tools profile_data, ask, clean_data and get_report. Over stdio by default "
                         "(what Claude Desktop and IDEs start); --http PORT serves streamable HTTP on 127.0.0.1:PORT/mcp. Only files "
                         "under the allowed roots (default: the current directory) can be read.")
    mcp.add_argument("--http", type=int, metavar="PORT", help="serve streamable HTTP on 127.0.0.1:PORT (path /mcp) instead of stdio")
    mcp.add_argument("--root", action="append", metavar="DIR", help="a folder whose files the tools may read (repeatable; default: the allowed_roots setting, the current directory)")
    mcp.add_argument("--model", help="model spec for ask and clean_data (default: settings, DSAGENT_MODEL)")
    mcp.add_argument("--workspace", dest="workspace_root", help="folder for session workspaces (default: ./workspace)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    debug = args.debug or os.environ.get("DSAGENT_DEBUG") == "1"
    if not args.command:
        parser.print_help()
        return 0
    try:
        from dsagent.cli import commands

        return getattr(commands, f"cmd_{args.command}")(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # the one place errors become one clean line
        from dsagent.errors import ProviderError, UserError

        if debug:
            traceback.print_exc()
        code = EXIT_USER if isinstance(exc, UserError) else EXIT_PROVIDER if isinstance(exc, ProviderError) else EXIT_INTERNAL
        kind = "" if isinstance(exc, (UserError, ProviderError)) else f"internal error ({type(exc).__name__}): "
        hint = "" if debug else " (run with --debug for the traceback)" if code == EXIT_INTERNAL else ""
        print(f"dsagent: error: {kind}{exc}{hint}", file=sys.stderr)
        return code


if __name__ == "__main__":
    sys.exit(main())
