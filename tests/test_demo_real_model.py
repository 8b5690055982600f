"""The README's first command (`make demo`) with the real embedded model at 1, 2 and 4 threads.

The question and the table are the demo's own; the expected region and total are computed by
pandas here. The explanation a user reads must name both, and nothing in it may be ungrounded.
"""

import re
from pathlib import Path

import pandas as pd
import pytest

from dsagent.session import Session

pytestmark = pytest.mark.real_model

ROOT = Path(__file__).resolve().parents[1]
SALES = ROOT / "examples" / "sales.csv"


def demo_question() -> str:
    match = re.search(r"^DEMO_QUESTION \?= (.+)$", (ROOT / "Makefile").read_text(), re.M)
    assert match, "the Makefile's DEMO_QUESTION moved"
    return match.group(1).strip()


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_readme_demo_is_right_and_grounded(local_spec, threads):
    frame = pd.read_csv(SALES)
    revenue = (frame["units"] * frame["unit_price"]).groupby(frame["region"]).sum()
    top, total = revenue.idxmax(), revenue.max()
    with Session([SALES], model=local_spec, local_threads=threads) as session:
        result = session.ask(demo_question())
    assert result.output_type != "error", result.explanation
    assert top in result.explanation, result.explanation
    assert f"{total:,.2f}" in result.explanation or f"{total:.2f}" in result.explanation, result.explanation
    assert result.grounding is not None and result.grounding["ungrounded_left"] == [], result.grounding
