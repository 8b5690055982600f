"""How many of a table's cell values reach the prompts under each data_sharing setting.

Runs the quick workflow with the scripted model (one plan, a code that prints rows and a
group-by, an evaluation and an explanation) on a 24-row table and scans every prompt the run log
kept for every distinct cell value (text of 2+ characters, numbers of 3+).

    python benchmarks/sharing_scan.py      # writes only under a temporary folder
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path

PLAN = {"needs_code": True, "needs_evaluation": True, "needs_explanation": True, "reasoning": "sum per group"}
CODE = "print(df.head(8))\nprint(df.sort_values('amount').tail(3))\nresult = df.groupby('city')['amount'].sum()"


def main() -> int:
    root = Path(tempfile.mkdtemp(prefix="dsagent-scan-"))
    os.environ.update(DSAGENT_HOME=str(root / "home"), DSAGENT_WORKSPACE_ROOT=str(root / "ws"))
    import pandas as pd

    from dsagent.config import load_settings
    from dsagent.session import Session
    from dsagent.store import RunLog

    cities = ["Amsterdam", "Bordeaux", "Cardiff", "Dresden"]
    rows = ["order_id,city,customer,amount,placed"]
    for i in range(24):
        rows.append(f"SKU-{88230 + i},{cities[i % 4]},Customer {chr(65 + i)}{chr(75 + i % 9)},{1234.56 + 17.31 * i:.2f},2023-07-{i + 1:02d}")
    data = root / "orders.csv"
    data.write_text("\n".join(rows) + "\n")
    script = root / "replies.json"
    script.write_text(json.dumps([json.dumps(PLAN), CODE, "The sums look right.", "Each city's total is shown."]))
    frame = pd.read_csv(data, dtype=str)
    values = {v for v in frame.to_numpy().ravel() if len(v) >= 2 and not (v.replace(".", "").isdigit() and len(v) < 3)}
    for sharing in ("full", "sample", "schema"):
        with Session([data], model=f"scripted:{script}", data_sharing=sharing) as session:
            result = session.ask("What is the total amount per city?")
        calls = RunLog(load_settings().db_url).llm_calls(result.run_id)
        texts = ["\n".join(m["content"] for m in json.loads(c["prompt"])) for c in calls]
        found = {v for v in values if any(v in t for t in texts)}
        print(f"{sharing:>6}: {len(calls)} prompts, {sum(map(len, texts))} chars; {len(found)} of {len(values)} distinct cell values appear")
    return 0


if __name__ == "__main__":
    sys.exit(main())
