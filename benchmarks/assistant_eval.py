"""The assistant's tool routing on user requests: does it call the right tools, in order?

Run: ``.venv/bin/python benchmarks/assistant_eval.py [--cases FILE.jsonl] [--model SPEC] [--run-all]``

A case is one JSON line ``{"request": "...", "expect": [[tool, ...], ...], "args": {tool: {key: value}}}``:
the acceptable tool-name sequences (consecutive repeats collapsed; ``[]`` = answer with no tool)
and, optionally, arguments that the named tools must have been called with. Each case runs on a
new thread in a fresh project folder whose data/raw holds tips.csv, gapminder.csv and iris.csv
(the datasets plotly ships) and nothing else.

The cheap tools run for real (listing, viewing, stage 1 summaries, stage 2 tasks). The slow ones —
plan_analysis, execute_analysis, answer_question, clean_data — are stood in for by tools with the
same name and input schema that record the call and return a result of the same form, so a case
measures routing (and answers), not minutes of code generation; ``--run-all`` runs them for real.

Prints one line per case, then one JSON line ``{"cases", "right_sequence", "right_args", "median_s"}``
(counts of cases; ``right_args``: the sequence is right and every expected argument matches).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
SLOW = ("plan_analysis", "execute_analysis", "answer_question", "clean_data")


def make_project(root: Path) -> Path:
    import plotly.data

    raw = root / "data" / "raw"
    raw.mkdir(parents=True)
    plotly.data.tips().to_csv(raw / "tips.csv", index=False)
    plotly.data.gapminder().to_csv(raw / "gapminder.csv", index=False)
    plotly.data.iris().to_csv(raw / "iris.csv", index=False)
    return root


def stand_ins() -> list[Any]:
    """The tool list with the slow tools replaced by recorders of the same name and schema."""
    from langchain_core.tools import StructuredTool

    from dsagent.workflows.assistant.tools import get_all_tools

    def recorder(name: str) -> Any:
        def run(**kwargs: Any) -> str:
            args = {k: v for k, v in kwargs.items() if k not in ("state", "config")}
            return f"✓ {name} ran with {json.dumps(args, ensure_ascii=False)} (benchmark stand-in: the stage itself was not run).\nNext step: tell the user."
        return run

    tools = []
    for tool in get_all_tools():
        if tool.name in SLOW:
            tools.append(StructuredTool.from_function(func=recorder(tool.name), name=tool.name, description=tool.description, args_schema=tool.args_schema))
        else:
            tools.append(tool)
    return tools


def collapse(names: list[str]) -> list[str]:
    out: list[str] = []
    for name in names:
        if not out or out[-1] != name:
            out.append(name)
    return out


def args_match(case: dict[str, Any], calls: list[dict[str, Any]]) -> bool:
    for tool, wanted in (case.get("args") or {}).items():
        made = [c["args"] for c in calls if c["name"] == tool]
        if not any(all(_same(a.get(k), v) for k, v in wanted.items()) for a in made):
            return False
    return True


def _same(got: Any, want: Any) -> bool:
    if isinstance(want, list) and isinstance(got, list):
        return sorted(map(str, got)) == sorted(map(str, want))
    return str(got).strip().lower() == str(want).strip().lower()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", default=str(HERE / "assistant_cases.jsonl"), help="JSONL file of cases")
    parser.add_argument("--model", default=None, help="model spec (default: the settings' model, local)")
    parser.add_argument("--run-all", action="store_true", help="run the slow tools for real too")
    parser.add_argument("--limit", type=int, default=0, help="only the first N cases")
    args = parser.parse_args(argv)

    from dsagent.config import load_settings
    from dsagent.workflows.assistant import Configuration, run_turn
    from dsagent.workflows.assistant.configuration import AgentLLM
    from dsagent.workflows.assistant.runtime import close_all

    cases = [json.loads(line) for line in Path(args.cases).read_text(encoding="utf-8").splitlines() if line.strip()]
    if args.limit:
        cases = cases[: args.limit]
    spec = args.model or load_settings().model
    conf = Configuration.defaults().model_copy(update={"agent_llm": AgentLLM(model=spec, max_tokens=load_settings().assistant_max_tokens)})
    tools = None if args.run_all else stand_ins()
    right = right_args = 0
    seconds: list[float] = []
    with tempfile.TemporaryDirectory(prefix="assistant-eval-") as tmp:
        os.environ.setdefault("DSAGENT_HOME", str(load_settings().home))
        from dsagent.store.checkpoint import sqlite_checkpointer

        with sqlite_checkpointer(Path(tmp)) as saver:  # the threads of this run only
            for n, case in enumerate(cases, start=1):
                project = make_project(Path(tmp) / f"case{n}")
                started = time.perf_counter()
                try:
                    out = run_turn(case["request"], project_dir=project, configuration=conf, checkpointer=saver, tools=tools)
                    calls, error = out.tool_calls, ""
                except Exception as exc:  # a crash is a wrong case, not the end of the run
                    calls, error = [], f" CRASH {type(exc).__name__}: {exc}"
                took = time.perf_counter() - started
                seconds.append(took)
                got = collapse([c["name"] for c in calls])
                ok = not error and any(got == collapse(e) for e in case["expect"])
                ok_args = ok and args_match(case, calls)
                right += ok
                right_args += ok_args
                shown = " → ".join(f"{c['name']}{json.dumps(c['args'], ensure_ascii=False) if c['args'] else ''}" for c in calls) or "(no tool)"
                mark = "ok " if ok_args else "ARG" if ok else "BAD"
                print(f"[{n:3d}] {mark} {took:5.1f}s  {shown}  | {case['request']}{error}", flush=True)
    close_all()
    print(json.dumps({"cases": len(cases), "right_sequence": right, "right_args": right_args,
                      "median_s": round(statistics.median(seconds), 1) if seconds else None}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
