"""Where a workflow's time goes: per node, model calls, prompt tokens sent and evaluated, generated
tokens and seconds, on DABench questions, beside a single-shot code generation as the yardstick.

    .venv/bin/python benchmarks/speed.py --workflow robust [--limit 30] [--ids 5,6] [--model local]
        [--out benchmarks/results/speed-robust.jsonl] [--report FILE] [--compare BEFORE.jsonl AFTER.jsonl]

Each question runs as in ``benchmarks/dabench.py`` (same scoring: ABQ) and its figures come from
the run log: every model call's node, prompt tokens, prompt tokens served from the model's KV cache
(``cached_tokens``; evaluated = sent − cached), generated tokens and seconds, and each node's wall
time (model and sandbox). In the same run, one single-shot generation per question (the question
and the table's columns, "reply with the code") is timed as the yardstick. ``--report FILE`` prints
the tables of a stored JSONL again, without running anything.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import dabench  # noqa: E402

SINGLE_SHOT = ("Write Python pandas code that answers the question about the DataFrame `df` (already loaded; "
               "columns: {columns}). Store the answer in `result`. Reply with only the code.\n\nQuestion: {question}")


def node_figures(run_log, run_ids: list[str]) -> dict[str, dict[str, float]]:  # type: ignore[no-untyped-def]
    """Per node: calls, sent, evaluated, generated, model seconds (from llm_calls) and wall seconds (steps)."""
    nodes: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for run_id in run_ids:
        for call in run_log.llm_calls(run_id):
            n = nodes[call["node"] or "?"]
            n["calls"] += 1
            n["sent"] += call["prompt_tokens"] or 0
            n["evaluated"] += (call["prompt_tokens"] or 0) - (call.get("cached_tokens") or 0)
            n["generated"] += call["completion_tokens"] or 0
            n["model_s"] += call["latency_s"] or 0.0
        for step in run_log.steps(run_id):
            nodes[step["node"]]["wall_s"] += step["duration_s"] or 0.0
    return {k: dict(v) for k, v in nodes.items()}


SQLITE_SHOT = "tables (read each with sql('select …'), a DuckDB SQL query returning a DataFrame): "


def table_columns(path: Path) -> str:
    """The columns the single-shot prompt lists: a CSV's, or each table's of a SQLite database."""
    import sqlite3

    import pandas as pd

    if path.suffix in {".sqlite", ".sqlite3", ".db"}:
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            tables = [r[0] for r in con.execute("select name from sqlite_master where type = 'table' order by name")]
            return SQLITE_SHOT + "; ".join(f"{t}({', '.join(r[1] for r in con.execute(f'pragma table_info({t!r})'))})" for t in tables)
        finally:
            con.close()
    return ", ".join(map(str, pd.read_csv(path, nrows=5).columns))


def single_shot(model, q: dict, data: Path) -> dict[str, float]:  # type: ignore[no-untyped-def]
    from langchain_core.messages import HumanMessage

    columns = table_columns(data / "tables" / q["file_name"])
    started = time.perf_counter()
    reply = model.invoke([HumanMessage(SINGLE_SHOT.format(columns=columns, question=dabench.question_text(q)))])
    usage = reply.usage_metadata or {}
    cached = (usage.get("input_token_details") or {}).get("cache_read") or 0
    return {"seconds": round(time.perf_counter() - started, 2), "sent": usage.get("input_tokens", 0),
            "evaluated": usage.get("input_tokens", 0) - cached, "generated": usage.get("output_tokens", 0)}


def routes(row: dict, run_log=None) -> tuple[str, list[str]]:  # type: ignore[no-untyped-def]
    """The route of the answer's code (``operation``: compiled from a chosen operation; ``code``: the
    model's own; ``-``: none) and of each check, from the run's final output in the run log."""
    from dsagent.ops.compile import composed

    if run_log is None or not row.get("run_id"):
        return "?", []
    try:
        out = json.loads(run_log.get_run(row["run_id"]).get("final_output") or "{}")
    except Exception:  # noqa: BLE001 - a run missing from this machine's run log: unknown
        return "?", []
    answer = "-" if not out.get("code") else "operation" if composed(out["code"]) else "code"
    return answer, ["operation" if composed(c.get("code")) else "code" for c in out.get("verification_checks") or []]


def routes_line(rows: list[dict], run_log=None) -> str:  # type: ignore[no-untyped-def]
    """How many answers an operation computed (and how many of those are right), and how many first checks."""
    found = [(routes(r, run_log), dabench.right(r)) for r in rows]
    by_op = [right for (answer, _), right in found if answer == "operation"]
    checks = sum(1 for (_, checks), _ in found if checks and checks[0] == "operation")
    unknown = sum(1 for (answer, _), _ in found if answer == "?")
    return (f"answered by an operation {len(by_op)}/{len(rows)} (right {sum(by_op)}) · first check by an operation {checks}/{len(rows)}"
            + (f" · {unknown} runs not in this run log" if unknown else ""))


def report(rows: list[dict], run_log=None) -> str:  # type: ignore[no-untyped-def]
    if not rows:
        return "no rows"
    totals: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for row in rows:
        for node, figures in row["nodes"].items():
            for key, value in figures.items():
                totals[node][key] += value
    n = len(rows)
    whole = sum(r["seconds"] for r in rows)
    lines = [f"{n} questions · per question (means) · share of all wall time", "",
             f"{'node':<28}{'calls':>6}{'sent':>8}{'eval':>8}{'gen':>6}{'model s':>9}{'wall s':>8}{'share':>7}"]
    for node, f in sorted(totals.items(), key=lambda kv: -kv[1].get("wall_s", kv[1].get("model_s", 0))):
        wall = f.get("wall_s", 0.0)
        lines.append(f"{node:<28}{f.get('calls', 0) / n:>6.2f}{f.get('sent', 0) / n:>8.0f}{f.get('evaluated', 0) / n:>8.0f}"
                     f"{f.get('generated', 0) / n:>6.0f}{f.get('model_s', 0) / n:>9.1f}{wall / n:>8.1f}{100 * wall / max(whole, 1e-9):>6.0f}%")
    med = lambda xs: statistics.median(xs) if xs else 0.0  # noqa: E731
    sums = lambda r, key: sum(f.get(key, 0) for f in r["nodes"].values())  # noqa: E731
    abq = sum(map(dabench.right, rows))
    single = [r["single_shot"]["seconds"] for r in rows if r.get("single_shot")]
    lines += ["", f"ABQ {abq}/{n} ({100 * abq / n:.0f}%) · median s/q {med([r['seconds'] for r in rows]):.1f} · "
              f"calls/q {statistics.mean(sums(r, 'calls') for r in rows):.2f} · "
              f"prompt tokens sent/q {statistics.mean(sums(r, 'sent') for r in rows):.0f}, "
              f"evaluated/q {statistics.mean(sums(r, 'evaluated') for r in rows):.0f} · "
              f"generated/q {statistics.mean(sums(r, 'generated') for r in rows):.0f}"]
    lines.append(dabench.verified_line(rows))
    lines.append(routes_line(rows, run_log))
    if single:
        lines.append(f"single-shot generation: median {med(single):.1f} s · workflow / single-shot "
                     f"{med([r['seconds'] for r in rows]) / max(med(single), 1e-9):.1f}x")
    return "\n".join(lines)


def _node_sum(row: dict, key: str) -> float:
    """A per-node figure summed over the row's nodes; a row ``dabench.py`` wrote has no nodes: its
    ``llm_calls`` count, its other figures 0."""
    if "nodes" not in row:
        return float(row.get("llm_calls", 0)) if key == "calls" else 0.0
    return sum(f.get(key, 0) for f in row["nodes"].values())


def summary(rows: list[dict]) -> dict[str, float]:
    """One line of the before/after table: ABQ, median s/q, and per-question means of calls and tokens."""
    med = lambda xs: statistics.median(xs) if xs else 0.0  # noqa: E731
    sums = lambda r, key: _node_sum(r, key)  # noqa: E731
    single = med([r["single_shot"]["seconds"] for r in rows if r.get("single_shot")])
    seconds = med([r["seconds"] for r in rows])
    return {"n": len(rows), "abq": sum(map(dabench.right, rows)), "median_s": seconds,
            "calls": statistics.mean(sums(r, "calls") for r in rows), "evaluated": statistics.mean(sums(r, "evaluated") for r in rows),
            "generated": statistics.mean(sums(r, "generated") for r in rows), "single_s": single,
            "ratio": seconds / single if single else 0.0,
            "verified": sum(1 for r in rows if r.get("verified")), "verified_right": sum(1 for r in rows if r.get("verified") and dabench.right(r))}


def compare(labelled: list[tuple[str, list[dict]]]) -> str:
    """The before/after table over the questions every run answered."""
    common = set.intersection(*({r["id"] for r in rows} for _, rows in labelled))
    lines = [f"{len(common)} questions answered by every run", "",
             f"{'run':<34}{'ABQ':>7}{'median s/q':>12}{'calls/q':>9}{'eval tok/q':>12}{'gen tok/q':>11}{'single-shot s':>15}{'ratio':>7}{'verified (right)':>18}"]
    for label, rows in labelled:
        f = summary([r for r in rows if r["id"] in common])
        lines.append(f"{label:<34}{f['abq']:>4}/{f['n']:<2}{f['median_s']:>12.1f}{f['calls']:>9.2f}{f['evaluated']:>12.0f}"
                     f"{f['generated']:>11.0f}{f['single_s']:>15.1f}{f['ratio']:>6.1f}x{f['verified']:>11} ({f['verified_right']})")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=dabench.DEFAULT_DATA)
    parser.add_argument("--workflow", default="quick")
    parser.add_argument("--model", default="local")
    parser.add_argument("--limit", type=int, default=30, help="the first N questions (default 30)")
    parser.add_argument("--ids", help="comma-separated question ids")
    parser.add_argument("--out", type=Path, help="JSONL (default benchmarks/results/speed-<workflow>.jsonl)")
    parser.add_argument("--workspace", type=Path, default=Path("benchmarks/results/workspace"))
    parser.add_argument("--report", type=Path, help="print the tables of a stored JSONL; run nothing")
    parser.add_argument("--compare", type=Path, nargs="+", metavar="JSONL",
                        help="print the before/after table of stored runs (over the questions all answered); run nothing")
    args = parser.parse_args(argv)
    if args.compare:
        print(compare([(str(p), [json.loads(x) for x in p.read_text().splitlines() if x.strip()]) for p in args.compare]))
        return 0
    from dsagent.config import load_settings
    from dsagent.store import RunLog

    if args.report:
        print(report([json.loads(x) for x in args.report.read_text().splitlines() if x.strip()], RunLog(load_settings().db_url)))
        return 0
    from dsagent.llm.registry import get_chat_model

    questions = dabench.load_questions(args.data)
    if args.ids:
        wanted = {int(i) for i in args.ids.split(",")}
        questions = [q for q in questions if q["id"] in wanted]
    questions = questions[: args.limit]
    out = args.out or Path("benchmarks/results") / f"speed-{args.workflow}.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    run_log, model = RunLog(load_settings().db_url), get_chat_model(args.model)
    rows = []
    for i, q in enumerate(questions, 1):
        row = dabench.run_one(q, args.data, argparse.Namespace(model=args.model, workflow=args.workflow, workspace=args.workspace))
        row["nodes"] = node_figures(run_log, row.get("run_ids") or [])
        row["single_shot"] = single_shot(model, q, args.data)
        rows.append(row)
        with out.open("a") as f:
            f.write(json.dumps(row) + "\n")
        print(f"[{i}/{len(questions)}] id={q['id']} {'ok' if row['correct'] and all(row['correct']) else 'x '} "
              f"{row['seconds']:.0f}s (single-shot {row['single_shot']['seconds']:.0f}s)", file=sys.stderr, flush=True)
    print(report(rows, run_log))
    return 0


if __name__ == "__main__":
    sys.exit(main())
