"""Soak the web app's core: many questions through ``dsagent.web.state`` with the scripted model.

Each question is one ``state.ask`` on a browser session's state (a real Session: sandbox worker,
run log, reports); every ``--per-conversation`` questions the conversation is reset (*New
conversation*: a new Session and sandbox, the old one closed), as people do. Memory (RSS of this
process, and of the sandbox workers) and open file descriptors are read after each conversation;
flat means nothing is kept or leaked per question beyond the conversation itself.

    .venv/bin/python benchmarks/soak.py                 # 200 questions, 10 per conversation
    .venv/bin/python benchmarks/soak.py --questions 50 --per-conversation 25
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

PLAN = json.dumps({"reasoning": "sum", "needs_code": True, "needs_evaluation": False, "needs_explanation": True})
CODE = "result = df.groupby('region')['units'].sum()"
EXPLAIN = "Units per region are in the table."
CHECK = "result = df.pivot_table(index='region', values='units', aggfunc='sum')['units']"
WARM = "result = df.groupby('region').units.agg('sum')"
"""The two independent checks of each answer (the setting verify; the second sampled warm): a scripted
model writes them after the explanation."""
CSV = "region,units\n" + "\n".join(f"{'NSEW'[i % 4]},{i % 17}" for i in range(200)) + "\n"


def _fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def _measure() -> dict[str, Any]:
    import psutil

    me = psutil.Process()
    kids = me.children(recursive=True)
    return {"rss_mb": round(me.memory_info().rss / 2**20, 1), "fds": _fds(), "children": len(kids),
            "workers_rss_mb": round(sum(k.memory_info().rss for k in kids if k.is_running()) / 2**20, 1)}


def _settle_closers(timeout: float = 60) -> None:
    """Old sessions are closed on background threads: wait for them before measuring."""
    deadline = time.monotonic() + timeout
    for t in [t for t in threading.enumerate() if t.name == "dsagent-web-close"]:
        t.join(max(0.0, deadline - time.monotonic()))


def soak(questions: int = 200, per_conversation: int = 10, workdir: Path | None = None, every: int = 10) -> dict[str, Any]:
    """Ask ``questions`` questions; returns the answers counted and a measurement every ``every`` questions."""
    own = workdir is None
    workdir = Path(workdir or tempfile.mkdtemp(prefix="dsagent-soak-"))
    os.environ.setdefault("DSAGENT_HOME", str(workdir / "home"))
    os.environ["DSAGENT_WORKSPACE_ROOT"] = str(workdir / "workspace")
    from dsagent.web import state as web_state

    script = workdir / "script.json"
    script.write_text(json.dumps([PLAN, CODE, EXPLAIN, CHECK, WARM] * questions))
    os.environ["DSAGENT_MODEL"] = f"scripted:{script}"  # the operator's model: a page may not name a script
    state: dict[str, Any] = {}
    web_state.init_state(state)
    web_state.load_uploads(state, [("sales.csv", CSV.encode())])
    answered, checkpoints = 0, []
    started = time.perf_counter()
    try:
        for n in range(1, questions + 1):
            message = web_state.ask(state, f"Units per region? ({n})", "quick", state["model_spec"])
            answered += message["result"] is not None and message["result"].output_type != "error"
            if n % every == 0 or n == questions:
                _settle_closers()
                gc.collect()
                checkpoints.append({"question": n, **_measure()})
            if n % per_conversation == 0 and n < questions:
                # New conversation: the scripted model's queue goes on where it stopped.
                position = state["session"].model.position
                web_state.reset_conversation(state)
                state["session"].model.position = position
    finally:
        if state.get("session") is not None:
            state["session"].close()
        if own:
            shutil.rmtree(workdir, ignore_errors=True)
    return {"answered": answered, "questions": questions, "seconds": round(time.perf_counter() - started, 1), "checkpoints": checkpoints}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--per-conversation", type=int, default=10, help="questions before New conversation")
    parser.add_argument("--every", type=int, default=10, help="measure after every this many questions")
    args = parser.parse_args(argv)
    figures = soak(args.questions, args.per_conversation, every=args.every)
    for c in figures["checkpoints"]:
        print(f"after {c['question']:>4} questions: rss {c['rss_mb']:>7.1f} MB  fds {c['fds']:>4}  "
              f"workers {c['children']} ({c['workers_rss_mb']:.1f} MB)", file=sys.stderr)
    first, last = figures["checkpoints"][0], figures["checkpoints"][-1]
    print(f"{figures['answered']}/{figures['questions']} answered in {figures['seconds']} s; "
          f"RSS first/last {first['rss_mb']}/{last['rss_mb']} MB; fds first/last {first['fds']}/{last['fds']}; "
          f"sandbox workers first/last {first['children']}/{last['children']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
