"""Run a dsagent workflow over InfiAgent-DABench questions and score it with the official rule.

    .venv/bin/python benchmarks/dabench.py --workflow quick --model local [--limit N] [--level easy]
        [--ids 5,6] [--data ../shared/bench/dabench] [--out benchmarks/results/quick-local.jsonl]
        [--rescore]   # score stored rows again with the current rules, no model calls

Each question is asked as a user would write it: its text, its constraints and the values to give,
named (``Give the answer as a dict with the keys mean_age, …``); the ``@name[value]`` form is
never shown to the product. The response is the workflow's
explanation, followed by the ``@name[value]`` items the analysis code itself computed (in its
``result``), which win over numbers the model retyped; when a name the format asks for is still
missing, one extra model call turns the computed result into that form (counted in the figures;
never for a run whose code failed: there is nothing computed to put in form, only a guess);
numbers with more decimals than the format asks for are rounded half-up by code, and a word the
format spells (``(true)``) is written in its spelling when only the case differs.
A workflow that asks the user a question (react) gets one reply: the request again, with leave to
assume. Results go to a JSONL file (one line per question; reruns skip ids already there unless
--fresh) and a summary is printed.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import time
from pathlib import Path

from dsagent.atomic import append_line

sys.path.insert(0, str(Path(__file__).parent))
import dabench_scoring as scoring  # noqa: E402
from dabench_scoring import computed_answers, expected_names, extract_answers, score_question  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "bench" / "dabench"

FORMAT_PROMPT = """Question: {question}

The analysis code computed:
{output}

Analyst's answer: {explanation}

Write the final answer using exactly this format (names as given, values only inside the brackets, rounded as asked):
{format}
Reply with only the @name[value] items, one per line."""


NO_REPLY = """I cannot answer questions now: use your best guess for anything unclear and answer the request.
{question}"""
"""The reply to a workflow that asks (react's ``ask``): the benchmark has nobody to answer, so the
request is repeated once with leave to assume; both turns count in the calls and tokens."""


def load_questions(data: Path) -> list[dict]:
    labels = {r["id"]: r["common_answers"] for r in map(json.loads, (data / "labels.jsonl").read_text().splitlines())}
    questions = [json.loads(line) for line in (data / "questions.jsonl").read_text().splitlines() if line.strip()]
    for q in questions:
        q["labels"] = labels.get(q["id"], [])
    return questions


_TAG = re.compile(r"@(\w+)\[([^\]]*)\]")


def question_text(q: dict) -> str:
    """The plain request a user would write: the question, its constraints, and the values to report
    by name. The benchmark's ``@name[value]`` answer format stays here, in the harness: the product
    never sees it (its answer is mapped back by :func:`format_answer`)."""
    names = expected_names(q["format"])
    if not names:
        return f"{q['question']}\nConstraints: {q['constraints']}\nAnswer format: {q['format']}"
    described = _TAG.sub(lambda m: f"{m.group(1)} ({m.group(2).strip()})" if m.group(2).strip() not in ("", m.group(1)) else m.group(1),
                         q["format"]).strip()
    return (f"{q['question']}\nConstraints: {q['constraints']}\n"
            f"Give the answer as a dict with the keys {', '.join(names)}: {described}")


def format_answer(session, q: dict, result) -> tuple[str, int, int]:  # type: ignore[no-untyped-def]
    """The response in @name[value] form; returns (response, extra calls, extra tokens)."""
    from langchain_core.messages import HumanMessage

    response = result.explanation or ""
    names = expected_names(q["format"])
    # last value wins in scoring: the code's numbers, not the model's retyping
    response += computed_line(result.result_str, q)
    found = extract_answers(response)
    calls = tokens = 0
    # A run whose code never ran has no answer to put in form: shown only the error, the formatting
    # call would guess (a guess once matched the label), so it is not asked.
    if names and not all(n in found for n in names) and not failed(result.output_type) and (result.result_str or result.explanation):
        prompt = FORMAT_PROMPT.format(question=q["question"], output=(result.result_str or "")[:1500],
                                      explanation=(result.explanation or "")[:800], format=q["format"])
        reply = session.model.invoke([HumanMessage(content=prompt)], max_tokens=200)
        usage = reply.usage_metadata or {}
        response += f"\n{reply.content}"
        calls, tokens = 1, int(usage.get("input_tokens", 0)) + int(usage.get("output_tokens", 0))
    return response + rounded_line(response, q), calls, tokens


def failed(output_type: str | None) -> bool:
    """The run ended without a result its code computed (every code attempt failed)."""
    return output_type == "error"


def right(row: dict) -> bool:
    """Every sub-answer right, from a computed result: a row stored before a failed run got no
    formatting call counts as wrong, as :func:`rescore` scores it (its answer was a guess)."""
    return bool(row["correct"]) and all(row["correct"]) and not failed(row.get("output_type"))


def tagged(label: str, answers: dict[str, str]) -> str:
    """A line of ``@name[value]`` items to append to a response ("" when there are none)."""
    return f"\n{label}: " + " ".join(f"@{n}[{v}]" for n, v in answers.items()) if answers else ""


def computed_line(result_str: str | None, q: dict) -> str:
    """The answers the analysis code computed, as a line that wins over the prose's (last value wins)."""
    return tagged("Computed", computed_answers(result_str or "", expected_names(q["format"]), q["format"]))


def rounded_line(response: str, q: dict) -> str:
    """"Rounded to two decimal places": the response's answers rounded as asked, by code, not the
    model; and words in the format's spelling (``true`` where the code's result says ``True``)."""
    answers = extract_answers(response)
    line = tagged("Rounded", scoring.round_as_asked(answers, q["format"]))
    return line + tagged("Spelled", scoring.spelled_as_asked(answers, q["format"]))


def rescore(row: dict, q: dict) -> dict:
    """A stored row scored again with today's deterministic rules (computed answers from its stored
    ``result_str``, rounding as asked); no model call, the response's prose is unchanged."""
    response = row.get("response") or ""
    if failed(row.get("output_type")):  # stored before failed runs got no formatting call: its guess is not an answer
        response = ""
    if response:
        response += computed_line(row.get("result_str"), q)
        response += rounded_line(response, q)
    return {**row, "response": response, "correct": score_question(response, q["labels"])}


def run_one(q: dict, data: Path, args: argparse.Namespace) -> dict:
    from dsagent.session import Session

    started = time.perf_counter()
    row = {"id": q["id"], "level": q["level"], "file": q["file_name"], "labels": q["labels"]}
    try:
        with Session([data / "tables" / q["file_name"]], model=args.model, workspace_root=args.workspace) as session:
            result = session.ask(question_text(q), workflow=args.workflow)
            asked = result.output_type == "ask"
            run_ids = [result.run_id]
            calls, prompt_tokens, tokens = result.llm_calls, result.prompt_tokens, result.prompt_tokens + result.completion_tokens
            if asked:  # one-shot benchmark: answer like a user who is not there to reply
                result = session.ask(NO_REPLY.format(question=question_text(q)), workflow=args.workflow)
                run_ids.append(result.run_id)
                calls, prompt_tokens = calls + result.llm_calls, prompt_tokens + result.prompt_tokens
                tokens += result.prompt_tokens + result.completion_tokens
            response, extra_calls, extra_tokens = format_answer(session, q, result)
        row.update(response=response, run_id=result.run_id, run_ids=run_ids, attempts=result.attempts, output_type=result.output_type,
                   asked=asked, llm_calls=calls + extra_calls, prompt_tokens=prompt_tokens,
                   tokens=tokens + extra_tokens, result_str=(result.result_str or "")[:500],
                   verified=result.verified, verification=result.verification)
    except Exception as exc:  # one bad question must not stop the benchmark
        row.update(response="", error=f"{type(exc).__name__}: {exc}", llm_calls=0, prompt_tokens=0, tokens=0)
    row["seconds"] = round(time.perf_counter() - started, 2)
    row["correct"] = score_question(row["response"], q["labels"])
    return row


def report(rows: list[dict], total: int) -> str:
    answered = [r for r in rows if r.get("response")]
    s = scoring.summarize(r["correct"] for r in answered)
    med = lambda key: statistics.median(r[key] for r in rows) if rows else 0  # noqa: E731
    return (
        f"questions: {len(rows)}/{total} run, {len(answered)} answered\n"
        f"ABQ {s['ABQ']:.1%}  PASQ {s['PASQ']:.1%}  UASQ {s['UASQ']:.1%}  (over answered questions)\n"
        f"ABQ over all run questions: {sum(all(r['correct']) and bool(r['correct']) for r in answered) / max(1, len(rows)):.1%}\n"
        f"median s/question {med('seconds'):.1f}  median LLM calls/question {med('llm_calls'):.0f}  "
        f"mean LLM calls {statistics.mean(r['llm_calls'] for r in rows) if rows else 0:.2f}  "
        f"median prompt tokens/question {med('prompt_tokens'):.0f}  median tokens/question {med('tokens'):.0f}\n"
        f"{verified_line(rows)}\n"
        f"total time {sum(r['seconds'] for r in rows) / 60:.1f} min"
    )


def verified_line(rows: list[dict]) -> str:
    """The answers marked verified (common.verify): how many are right (precision) and what share of
    the questions they cover."""
    marked = [r for r in rows if r.get("verified")]
    precision = sum(map(right, marked)) / len(marked) if marked else 0.0
    return (f"verified {len(marked)}/{len(rows)} (coverage {len(marked) / max(1, len(rows)):.0%}), "
            f"right when verified {sum(map(right, marked))}/{len(marked)} (precision {precision:.0%})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="folder with questions.jsonl, labels.jsonl, tables/")
    parser.add_argument("--workflow", default="quick")
    parser.add_argument("--model", default="local")
    parser.add_argument("--limit", type=int, help="run at most N questions")
    parser.add_argument("--level", choices=["easy", "medium", "hard"], help="only this level")
    parser.add_argument("--ids", help="comma-separated question ids")
    parser.add_argument("--out", type=Path, help="JSONL results (default benchmarks/results/<workflow>-<model>.jsonl)")
    parser.add_argument("--workspace", type=Path, default=Path("benchmarks/results/workspace"))
    parser.add_argument("--fresh", action="store_true", help="ignore existing results in --out")
    parser.add_argument("--rescore", action="store_true",
                        help="run nothing: score the rows already in --out again with the current rules")
    args = parser.parse_args(argv)

    questions = load_questions(args.data)
    if args.level:
        questions = [q for q in questions if q["level"] == args.level]
    if args.ids:
        wanted = {int(i) for i in args.ids.split(",")}
        questions = [q for q in questions if q["id"] in wanted]
    if args.limit:
        questions = questions[: args.limit]
    safe_model = args.model.replace(":", "_").replace("/", "_")[:40]
    out = args.out or Path("benchmarks/results") / f"{args.workflow}-{safe_model}.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    # A run killed mid-line leaves a last line without its newline: it is not a result.
    lines = [] if args.fresh or not out.exists() else out.read_text().split("\n")[:-1]
    done = {r["id"]: r for r in map(json.loads, filter(None, lines))}
    if args.fresh and out.exists():
        out.unlink()
    if args.rescore:
        rows = [rescore(done[q["id"]], q) for q in questions if q["id"] in done]
        print(report(rows, len(rows)))
        return 0
    rows = [done[q["id"]] for q in questions if q["id"] in done]
    todo = [q for q in questions if q["id"] not in done]
    print(f"{len(questions)} questions ({len(rows)} already in {out}); workflow={args.workflow} model={args.model}", file=sys.stderr)
    for i, q in enumerate(todo, 1):
        row = run_one(q, args.data, args)
        rows.append(row)
        append_line(out, json.dumps(row))  # one whole line per question, even if killed
        mark = "✓" if row["correct"] and all(row["correct"]) else "✗"
        print(f"[{i}/{len(todo)}] id={q['id']} {q['level']:<6} {mark} {row['seconds']:.0f}s calls={row['llm_calls']}"
              + (f" error={row['error'][:80]}" if row.get("error") else ""), file=sys.stderr, flush=True)
    print(report(rows, len(questions)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
