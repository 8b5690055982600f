"""Write ``labels.jsonl`` from the answers on which both independent solutions agree.

    .venv/bin/python benchmarks/heldout_db/make_db.py       # first, if tables/shop.sqlite is missing
    .venv/bin/python benchmarks/heldout_db/make_labels.py   # add -v to print the values

``solve_independent.py`` (pandas) and ``solve_sql.py`` (SQL) each answer every question; an answer
is rendered as the question asks (a name or count as is, a number with the asked decimals), and a
number within 1e-3 of a rounding half at that precision is refused, since half-up and half-even
rounding could then disagree. Every question must get the same rendered answers from both, under
the ``@name[...]`` names of its format, in order; otherwise nothing is written.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import solve_independent
import solve_sql

HERE = Path(__file__).resolve().parent
DB = HERE / "tables" / "shop.sqlite"
sys.path.append(str(HERE.parent / "heldout"))
from label_tools import render  # noqa: E402  (batches A/B/C's rounding that refuses a value on a rounding half)


def rendered(answers: dict[int, list[tuple[str, object, int | None]]]) -> dict[int, list[list[str]]]:
    return {qid: [[name, render(value, places)] for name, value, places in items] for qid, items in sorted(answers.items())}


def show(answers: dict[int, list[tuple[str, object, int | None]]]) -> None:
    for qid, items in rendered(answers).items():
        print(qid, " ".join(f"@{name}[{value}]" for name, value in items))


def computed(db: Path = DB) -> dict[int, list[list[str]]]:
    """Question id -> [[name, value as written], ...]: the answers both solutions give, checked against the formats."""
    questions = [json.loads(line) for line in (HERE / "questions.jsonl").read_text().splitlines() if line.strip()]
    pandas_answers, sql_answers = rendered(solve_independent.answers(db)), rendered(solve_sql.answers(db))
    differ = {qid: (pandas_answers.get(qid), sql_answers.get(qid))
              for qid in set(pandas_answers) | set(sql_answers) if pandas_answers.get(qid) != sql_answers.get(qid)}
    assert not differ, f"the two solutions disagree: {differ}"
    assert sorted(pandas_answers) == [q["id"] for q in questions], "questions and answers differ"
    for q in questions:
        asked = re.findall(r"@(\w+)\[", q["format"])
        assert asked == [name for name, _ in pandas_answers[q["id"]]], (q["id"], asked)
    return pandas_answers


def main(verbose: bool = False) -> None:
    answers = computed()
    if verbose:
        show({qid: [(name, value, None) for name, value in items] for qid, items in answers.items()})
    rows = "".join(json.dumps({"id": qid, "common_answers": items}) + "\n" for qid, items in answers.items())
    (HERE / "labels.jsonl").write_text(rows)
    print(f"wrote {len(answers)} labels to {HERE / 'labels.jsonl'}")


if __name__ == "__main__":
    main(verbose="-v" in sys.argv)
