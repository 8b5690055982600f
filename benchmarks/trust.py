"""Trust benchmark: plain questions over real tables, checked in the explanation a user reads.

    .venv/bin/python benchmarks/trust.py --threads 1,2,4 [--limit N] [--ids 1,5] [--workflow quick|robust|react|assistant]
        [--out benchmarks/results/trust.jsonl] [--rescore FILE]

The tables are the ones plotly and scikit-learn ship (no download); every expected answer is
computed by pandas in this script. Each question runs in a fresh :class:`Session` with the embedded
model at ``local_threads`` = each ``--threads`` value; with ``--workflow assistant``, as one
assistant turn over a fresh project folder holding the question's table (``dsagent assistant -q``),
where the explanation is the turn's reply and its grounding record the reply's. Per setting it prints: headline answers
right (found in the explanation, not only in ``result``), ungrounded claims caught by the
grounding check and left in the explanation, error-node endings, and the median seconds.
``--rescore FILE`` recomputes the figures from a stored JSONL (also of a run of older code, whose
rows have no grounding record: its remaining claims are counted by the same check here).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

# Before scikit-learn loads the OpenMP runtime (it reads this once): see dsagent.llm.token_threads.
from dsagent.llm.token_threads import configure_openmp  # noqa: E402

configure_openmp(os.environ)


def _tables() -> dict[str, pd.DataFrame]:
    import plotly.data as pdata
    from sklearn import datasets as sk

    wine = sk.load_wine(as_frame=True).frame
    diabetes = sk.load_diabetes(as_frame=True, scaled=False).frame
    cancer = sk.load_breast_cancer(as_frame=True).frame
    return {"gapminder": pdata.gapminder(), "tips": pdata.tips(), "iris": pdata.iris(), "wind": pdata.wind(),
            "election": pdata.election(), "stocks": pdata.stocks(), "wine": wine, "diabetes": diabetes,
            "breast_cancer": cancer}


@dataclass
class Question:
    id: int
    table: str
    text: str
    answer: Callable[[pd.DataFrame], Any]
    """The expected headline: a label (str), several labels (list), or a number."""


def _g(year: int):  # gapminder rows of one year
    return lambda d: d[d["year"] == year]


QUESTIONS: list[Question] = [
    Question(1, "gapminder", "Which country had the highest life expectancy in 2007?",
             lambda d: _g(2007)(d).set_index("country")["lifeExp"].idxmax()),
    Question(2, "gapminder", "Which continent had the largest total population in 2007?",
             lambda d: _g(2007)(d).groupby("continent")["pop"].sum().idxmax()),
    Question(3, "gapminder", "What was the total population of Africa in 1952?",
             lambda d: int(_g(1952)(d).query("continent == 'Africa'")["pop"].sum())),
    Question(4, "gapminder", "How many European countries are in the data for 2007?",
             lambda d: int(_g(2007)(d).query("continent == 'Europe'")["country"].nunique())),
    Question(5, "gapminder", "What is the mean GDP per capita across all countries in 2007?",
             lambda d: _g(2007)(d)["gdpPercap"].mean()),
    Question(6, "gapminder", "Who had the lowest GDP per capita in 1952: which country?",
             lambda d: _g(1952)(d).set_index("country")["gdpPercap"].idxmin()),
    Question(7, "gapminder", "What was the median life expectancy in the Americas in 1982?",
             lambda d: _g(1982)(d).query("continent == 'Americas'")["lifeExp"].median()),
    Question(8, "gapminder", "What percentage of countries had a life expectancy above 70 in 2007?",
             lambda d: 100 * (_g(2007)(d)["lifeExp"] > 70).mean()),
    Question(9, "gapminder", "List the top 3 countries by population in 2007.",
             lambda d: _g(2007)(d).nlargest(3, "pop")["country"].tolist()),
    Question(10, "gapminder", "Which Asian country had the largest population in 1977?",
             lambda d: _g(1977)(d).query("continent == 'Asia'").set_index("country")["pop"].idxmax()),
    Question(11, "tips", "What is the mean tip percentage, tip divided by total_bill times 100?",
             lambda d: (d["tip"] / d["total_bill"] * 100).mean()),
    Question(12, "tips", "What percentage of the parties are smokers?",
             lambda d: 100 * (d["smoker"] == "Yes").mean()),
    Question(13, "tips", "On which day is the average total bill highest?",
             lambda d: d.groupby("day")["total_bill"].mean().idxmax()),
    Question(14, "tips", "How many parties had a size of 4 or more?",
             lambda d: int((d["size"] >= 4).sum())),
    Question(15, "tips", "What is the average tip at dinner time?",
             lambda d: d.loc[d["time"] == "Dinner", "tip"].mean()),
    Question(16, "tips", "Which sex left more in tips in total?",
             lambda d: d.groupby("sex")["tip"].sum().idxmax()),
    Question(17, "tips", "What is the sum of total_bill on Saturdays?",
             lambda d: d.loc[d["day"] == "Sat", "total_bill"].sum()),
    Question(18, "iris", "Which species has the largest mean petal length?",
             lambda d: d.groupby("species")["petal_length"].mean().idxmax()),
    Question(19, "iris", "How many flowers have a sepal width greater than 3.5?",
             lambda d: int((d["sepal_width"] > 3.5).sum())),
    Question(20, "iris", "What is the mean ratio of petal_length to petal_width for the setosa species?",
             lambda d: (d.loc[d["species"] == "setosa", "petal_length"] / d.loc[d["species"] == "setosa", "petal_width"]).mean()),
    Question(21, "wind", "Which direction has the highest total frequency?",
             lambda d: d.groupby("direction")["frequency"].sum().idxmax()),
    Question(22, "wind", "What is the total frequency of the strength '0-1'?",
             lambda d: d.loc[d["strength"] == "0-1", "frequency"].sum()),
    Question(23, "election", "Which district had the most total votes?",
             lambda d: d.set_index("district")["total"].idxmax()),
    Question(24, "election", "In how many districts was Coderre the winner?",
             lambda d: int((d["winner"] == "Coderre").sum())),
    Question(25, "election", "What share of all votes, as a percentage, went to Joly?",
             lambda d: 100 * d["Joly"].sum() / d["total"].sum()),
    Question(26, "stocks", "Which stock column has the highest mean value: GOOG, AAPL, AMZN, FB, NFLX or MSFT?",
             lambda d: d[["GOOG", "AAPL", "AMZN", "FB", "NFLX", "MSFT"]].mean().idxmax()),
    Question(27, "wine", "Which target class has the highest mean alcohol?",
             lambda d: int(d.groupby("target")["alcohol"].mean().idxmax())),
    Question(28, "wine", "What is the mean alcohol of the wines with a color_intensity above 5?",
             lambda d: d.loc[d["color_intensity"] > 5, "alcohol"].mean()),
    Question(29, "diabetes", "What is the mean bmi of patients older than 50?",
             lambda d: d.loc[d["age"] > 50, "bmi"].mean()),
    Question(30, "diabetes", "How many patients have a target above 200?",
             lambda d: int((d["target"] > 200).sum())),
    Question(31, "breast_cancer", "What percentage of the rows have target equal to 1?",
             lambda d: 100 * (d["target"] == 1).mean()),
    Question(32, "breast_cancer", "What is the average 'mean radius' of the rows with target 0?",
             lambda d: d.loc[d["target"] == 0, "mean radius"].mean()),
    Question(33, "gapminder", "Which three countries had the highest GDP per capita in 2007?",
             lambda d: _g(2007)(d).nlargest(3, "gdpPercap")["country"].tolist()),
    Question(34, "tips", "Which day has the most parties in the data?",
             lambda d: d["day"].value_counts().idxmax()),
]


_NUMBER = re.compile(r"(?<![\w.])-?\d[\d,]*(?:\.\d+)?")


def _numbers(text: str) -> list[tuple[float, int]]:
    """Every number in ``text`` as (value, decimals shown)."""
    found = []
    for token in _NUMBER.findall(text or ""):
        plain = token.replace(",", "")
        try:
            found.append((float(plain), len(plain.partition(".")[2])))
        except ValueError:
            continue
    return found


def number_stated(expected: float, text: str) -> bool:
    """``expected`` appears in ``text`` as written, rounded to the decimals shown (at least one
    decimal unless the value is a whole number or has three or more digits)."""
    for value, decimals in _numbers(text):
        whole = float(expected).is_integer() or abs(expected) >= 100
        if decimals == 0 and not whole:
            continue
        if abs(round(float(expected), decimals) - value) <= 0.5001 * 10 ** -decimals:
            return True
    return False


def label_stated(expected: str, text: str) -> bool:
    """The label as a word, or a word's start ('Sun' in 'Sunday')."""
    return re.search(rf"(?<!\w){re.escape(str(expected))}", text or "", re.I) is not None


def headline_right(expected: Any, explanation: str) -> bool:
    explanation = (explanation or "").split("\n\nNot verified:")[0]  # the answer, not another computation's result named after it
    if isinstance(expected, list):
        return all(label_stated(e, explanation) for e in expected)
    if isinstance(expected, str):
        return label_stated(expected, explanation)
    if isinstance(expected, int) and not isinstance(expected, bool) and 0 <= expected < 10:
        return re.search(rf"(?<![\w.]){expected}(?!\w|[.,]\d)", explanation or "") is not None  # a class or a small count (a full stop may end it)
    return number_stated(float(expected), explanation)


def remaining_ungrounded(row: dict) -> int:
    """Claims of the shown explanation the grounding check finds no computed value for: the run's
    own record when it has one, else (a run of older code) the check on its result and output."""
    from dsagent.workflows.common.grounding import check_claims

    if isinstance(row.get("grounding"), dict):
        return len(row["grounding"].get("ungrounded_left") or [])
    outputs = {"result": row.get("result_str"), "stdout": row.get("stdout")}
    return len(check_claims(row.get("explanation") or "", outputs, question=row.get("question", "")).ungrounded)


def ask_session(q: Question, table: pd.DataFrame, threads: int, workflow: str | None, model: str) -> dict:
    """One question through ``Session.ask`` (quick, robust, react): what ``dsagent ask`` does."""
    from dsagent.session import Session

    with Session({q.table: table}, model=model, local_threads=threads) as session:
        result = session.ask(q.text, workflow=workflow)
    return {"explanation": result.explanation, "result_str": result.result_str, "output_type": result.output_type,
            "code": result.code, "grounding": getattr(result, "grounding", None), "run_id": result.run_id,
            "verified": result.verified, "verification": result.verification}


def ask_assistant(q: Question, table: pd.DataFrame, threads: int, model: str) -> dict:
    """One question as one assistant turn over a project folder whose data/raw holds the question's
    table: what ``dsagent assistant -q`` does. The answer is the reply; its grounding record is the
    reply's (the same check as the other workflows')."""
    import tempfile

    from dsagent.workflows.assistant import Configuration, run_turn
    from dsagent.workflows.assistant.configuration import AgentLLM
    from dsagent.workflows.assistant.runtime import close_all

    os.environ["DSAGENT_LOCAL_THREADS"] = str(threads)
    conf = Configuration.defaults()
    conf = conf.model_copy(update={"agent_llm": AgentLLM(**{**conf.agent_llm.model_dump(), "model": model})})
    with tempfile.TemporaryDirectory(prefix="trust-assistant-") as tmp:
        raw = Path(tmp) / "data" / "raw"
        raw.mkdir(parents=True)
        table.to_csv(raw / f"{q.table}.csv", index=False)
        try:
            out = run_turn(q.text, project_dir=tmp, configuration=conf)
        finally:
            close_all()
    failed = out.limit_reached or any(r.startswith("Error") for r in out.tool_results[-1:])
    return {"explanation": out.answer, "output_type": "error" if failed else "answer", "grounding": out.grounding,
            "run_id": out.run_id, "tools": [c["name"] for c in out.tool_calls], "verified": out.verified, "verification": out.verification}


def run_one(q: Question, table: pd.DataFrame, threads: int, workflow: str | None, model: str) -> dict:
    expected = q.answer(table)
    if hasattr(expected, "item"):
        expected = expected.item()
    row: dict[str, Any] = {"id": q.id, "threads": threads, "workflow": workflow, "question": q.text, "expected": expected}
    started = time.perf_counter()
    try:
        row.update(ask_assistant(q, table, threads, model) if workflow == "assistant" else ask_session(q, table, threads, workflow, model))
    except Exception as exc:  # noqa: BLE001 - a crash is a row of the table, not the end of the run
        row.update(explanation="", output_type="crash", error=f"{type(exc).__name__}: {exc}")
    row["seconds"] = round(time.perf_counter() - started, 1)
    row["right"] = headline_right(expected, row.get("explanation", ""))
    return row


def summarize(rows: list[dict]) -> list[str]:
    lines = [f"{'workflow':>9} {'threads':>7} {'n':>3} {'right':>11} {'caught':>6} {'left':>4} {'error-node':>10} {'median s':>8} {'verified (right)':>16}"]
    for workflow, threads in sorted({(r.get("workflow") or "default", r["threads"]) for r in rows}):
        mine = [r for r in rows if r["threads"] == threads and (r.get("workflow") or "default") == workflow]
        right = sum(r["right"] for r in mine)
        caught = sum(((r.get("grounding") or {}).get("caught") or 0) for r in mine)
        left = sum(remaining_ungrounded(r) for r in mine if r.get("output_type") not in ("error", "crash"))
        errors = sum(r.get("output_type") in ("error", "crash") for r in mine)
        median = statistics.median(r["seconds"] for r in mine)
        marked = [r for r in mine if r.get("verified")]
        lines.append(f"{workflow:>9} {threads:>7} {len(mine):>3} {right:>3}/{len(mine):<3}{100 * right / len(mine):4.0f}% {caught:>6} {left:>4} {errors:>10} {median:>8.1f}"
                     f" {len(marked):>9} ({sum(r['right'] for r in marked)})")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", default="1,2,4", help="local_threads settings, comma-separated")
    parser.add_argument("--workflow", default=None,
                        help="quick, robust, react (through Session.ask, as `dsagent ask`; default: the settings' default) "
                             "or assistant (one turn of `dsagent assistant -q` over a project folder holding the table)")
    parser.add_argument("--model", default="local")
    parser.add_argument("--limit", type=int, default=None, help="only the first N questions")
    parser.add_argument("--ids", default=None, help="only these question ids, comma-separated")
    parser.add_argument("--out", default="benchmarks/results/trust.jsonl")
    parser.add_argument("--rescore", default=None, help="print the figures of a stored JSONL, no model calls")
    args = parser.parse_args(argv)
    if args.rescore:
        rows = [json.loads(line) for line in Path(args.rescore).read_text().splitlines() if line.strip()]
        for row in rows:  # scored again by the scorer as it is now
            row["right"] = headline_right(row["expected"], row.get("explanation") or "")
        print("\n".join(summarize(rows)))
        return 0
    questions = QUESTIONS
    if args.ids:
        wanted = {int(i) for i in args.ids.split(",")}
        questions = [q for q in questions if q.id in wanted]
    questions = questions[: args.limit] if args.limit else questions
    tables = _tables()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = []
    for threads in (int(t) for t in args.threads.split(",")):
        for q in questions:
            row = run_one(q, tables[q.table], threads, args.workflow, args.model)
            rows.append(row)
            with out.open("a") as f:
                f.write(json.dumps(row, default=str) + "\n")
            mark = "ok " if row["right"] else "MISS"
            print(f"[t={threads}] {mark} q{q.id:<3} {row['seconds']:>6.1f}s {row.get('output_type')}: expected {row['expected']!r}",
                  flush=True)
    print("\n".join(summarize(rows)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
