"""Compare stored DABench runs (JSONL files of ``dabench.py``) on the questions they all answered.

    .venv/bin/python benchmarks/dabench_compare.py benchmarks/results/quick-local.jsonl \\
        benchmarks/results/robust-local.jsonl [--markdown]

Prints one row per file — ABQ, PASQ, UASQ, median seconds, LLM calls and prompt tokens per
question, and how many right answers had no computed result behind them (the run's code failed;
the number came from the model's explanation) — over the ids present in every file, then the questions on which the files differ.
Every stored row is scored again with the harness's current deterministic rules (as
``dabench.py --rescore`` does), so runs made on different days compare alike; ``--as-stored``
keeps the scores they were run with.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from dabench import DEFAULT_DATA, load_questions, rescore  # noqa: E402
from dabench_scoring import summarize  # noqa: E402


def load(path: Path) -> dict[int, dict]:
    return {row["id"]: row for row in map(json.loads, path.read_text().splitlines()) if row.get("id") is not None}


def right(row: dict) -> bool:
    return bool(row.get("correct")) and all(row["correct"])


def unbacked(row: dict) -> bool:
    """Right, but the run's code computed nothing: the number came from the model's explanation."""
    return right(row) and (row.get("output_type") == "error" or row.get("result_str") is None)


def table(runs: dict[str, dict[int, dict]], ids: list[int], markdown: bool) -> str:
    header = ["run", "questions", "ABQ", "PASQ", "UASQ", "median s/question", "LLM calls/question", "prompt tokens/question",
              "right without a result"]
    lines = []
    for name, rows in runs.items():
        chosen = [rows[i] for i in ids]
        s = summarize(r["correct"] for r in chosen if r.get("response"))
        med = lambda key: statistics.median(r.get(key, 0) for r in chosen)  # noqa: E731
        lines.append([name, str(len(chosen)), f"{s['ABQ']:.1%} ({sum(map(right, chosen))}/{len(chosen)})",
                      f"{s['PASQ']:.1%}", f"{s['UASQ']:.1%}", f"{med('seconds'):.0f}", f"{med('llm_calls'):.0f}",
                      f"{med('prompt_tokens'):,.0f}", str(sum(map(unbacked, chosen)))])
    if markdown:
        return "\n".join("| " + " | ".join(cells) + " |" for cells in [header, ["---"] * len(header), *lines])
    widths = [max(len(row[i]) for row in [header, *lines]) for i in range(len(header))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths)) for row in [header, *lines])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", type=Path, nargs="+", help="JSONL results of dabench.py")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder with questions.jsonl, labels.jsonl")
    parser.add_argument("--as-stored", action="store_true", help="do not score the rows again")
    args = parser.parse_args(argv)
    runs = {path.stem: load(path) for path in args.files}
    if not args.as_stored:
        questions = {q["id"]: q for q in load_questions(args.data)}
        runs = {name: {i: rescore(row, questions[i]) if i in questions else row for i, row in rows.items()}
                for name, rows in runs.items()}
    ids = sorted(set.intersection(*(set(rows) for rows in runs.values())))
    if not ids:
        print("no question is in every file", file=sys.stderr)
        return 2
    print(table(runs, ids, args.markdown))
    differ = [i for i in ids if len({right(rows[i]) for rows in runs.values()}) > 1]
    print(f"\nquestions that differ ({len(differ)} of {len(ids)}):")
    for i in differ:
        print(f"  id {i}: " + ", ".join(f"{name} {'right' if right(rows[i]) else 'wrong'}" for name, rows in runs.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
