"""``dsagent assistant``: the tool-calling agent over the project folder, interactive or one query.

Each tool call and its result are shown (stderr) as they happen, the answer's tokens stream to
stdout; ``--thread ID`` continues a conversation saved by the checkpointer, also after a restart.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from dsagent.errors import UserError

EXIT_WORDS = {"exit", "quit", ":q"}
RESULT_LINES = 12


def _err(text: str = "", end: str = "\n") -> None:
    sys.stderr.write(text + end)
    sys.stderr.flush()


def _shown_args(args: dict[str, Any]) -> str:
    return json.dumps(args, ensure_ascii=False) if args else ""


def printer(show_tokens: bool, label: str = "", stream: bool = True) -> Any:
    """The ``on_event`` of a console run: tool calls and results on stderr, the answer on stdout
    (after ``label`` when it starts)."""
    started = [False]

    def begin() -> None:
        if not started[0]:
            started[0] = True
            sys.stdout.write(label)

    def on_event(kind: str, value: Any) -> None:
        if kind == "tool_call":
            _err(f"→ {value['name']} {_shown_args(value['args'])}".rstrip())
        elif kind == "tool_result":
            lines = value["content"].splitlines() or [""]
            more = f"\n  … ({len(lines) - RESULT_LINES} more lines)" if len(lines) > RESULT_LINES else ""
            _err("  " + "\n  ".join(lines[:RESULT_LINES]) + more)
        elif kind == "token" and show_tokens and stream:
            begin()
            sys.stdout.write(value)
            sys.stdout.flush()
        elif kind == "answer" and show_tokens:
            begin()
            if not (value["streamed"] and stream):
                sys.stdout.write(value["text"])
            sys.stdout.write("\n")
            sys.stdout.flush()

    return on_event


def _configuration(args: argparse.Namespace) -> Any:
    from dsagent.workflows.assistant import Configuration

    conf = Configuration.defaults()
    update: dict[str, Any] = {}
    if args.model:
        update["agent_llm"] = conf.agent_llm.model_copy(update={"model": args.model})
    if args.max_tool_iterations:
        update["max_tool_iterations"] = args.max_tool_iterations
    if args.verbose:
        update["verbose"] = True
    return conf.model_copy(update=update)


def cmd_assistant(args: argparse.Namespace) -> int:
    from dsagent.workflows.assistant import run_turn
    from dsagent.workflows.assistant.api import new_thread_id, thread_exists
    from dsagent.workflows.assistant.runtime import close_all

    project = Path(args.project or ".").expanduser().resolve()
    if not project.is_dir():
        raise UserError(f"project folder not found: {project}; give an existing folder with --project (its data/raw/ holds the data files)")
    if args.json and not args.query:
        raise UserError("--json needs a single query: dsagent assistant -q \"...\" --json")
    conf = _configuration(args)
    thread = args.thread or new_thread_id()
    resumed = bool(args.thread) and thread_exists(thread)
    try:
        if args.query:
            if not args.json:
                _err(f"thread {thread}{' (resumed)' if resumed else ''} · project {project}")
            out = run_turn(args.query, project_dir=project, thread_id=thread, configuration=conf,
                           on_event=None if args.json else printer(show_tokens=True, stream=conf.stream_output))
            if args.json:
                print(json.dumps(out.to_json(), ensure_ascii=False, default=str))
            return 0
        raw = project / "data" / "raw"
        _err(f"dsagent assistant · project {project} · model {conf.agent_llm.model}")
        if not raw.is_dir():
            _err(f"note: {raw} does not exist yet: put your data files there")
        _err(f"thread {thread}{' (resumed)' if resumed else ''}: continue it later with `dsagent assistant --thread {thread}`")
        _err("Ask anything about your data; `exit` or Ctrl-D ends.")
        while True:
            _err("\nyou> ", end="")
            line = sys.stdin.readline()
            if not line:
                _err("")
                break
            message = line.strip()
            if message.lower() in EXIT_WORDS:
                break
            if not message:
                continue
            run_turn(message, project_dir=project, thread_id=thread, configuration=conf, on_event=printer(show_tokens=True, label="\nassistant> ", stream=conf.stream_output))
        return 0
    finally:
        close_all()


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "assistant", help="talk to the assistant: one agent over your project's data (summaries, tasks, analyses, questions, cleaning)",
        description="A tool-calling agent over the project folder (default: the current folder; its data/raw/ holds your files): "
        "it lists and summarizes the files (data/summaries/), suggests tasks (data/tasks.json), plans and runs them in the sandbox "
        "(data/intermediate/, reports in data/outputs/), answers questions with the workflow `dsagent ask` uses (quick unless the setting workflow says otherwise) and cleans data with the "
        "clean workflow. Interactive unless -q is given; conversations are saved, so --thread ID continues one.")
    p.add_argument("-q", "--query", help="one message, then exit")
    p.add_argument("--json", action="store_true", help="with -q: print one JSON object {thread_id, answer, tool_calls, run_id, verified, verification}")
    p.add_argument("--thread", help="continue this conversation (its id is printed when it starts)")
    p.add_argument("--project", help="project folder (default: the current folder); data files go in its data/raw/")
    p.add_argument("--model", help="model spec, e.g. local, openai:gpt-4.1-mini, scripted:replies.json (default: settings, DSAGENT_MODEL)")
    p.add_argument("--max-tool-iterations", type=int, default=None, help="tool calls per message (default: the assistant_max_tool_iterations setting, 10)")
    p.add_argument("--verbose", action="store_true", help="log each routing decision to stderr")
    p.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help="show full tracebacks on errors")
