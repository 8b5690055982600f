"""End to end with the real embedded model (slow: ~1 minute). Select with `-m real_model`.

The numeric answer is checked against pandas; nothing is scripted.
"""

import pandas as pd
import pytest

from dsagent.session import Session

pytestmark = pytest.mark.real_model


def test_quick_answers_a_numeric_question(local_spec, sales_csv):
    expected = pd.read_csv(sales_csv).groupby("region")["units"].sum()
    with Session([sales_csv], model=local_spec) as session:
        result = session.ask("What is the total number of units sold in the South region? Give the number.")
    assert result.output_type == "analysis", result.explanation
    assert result.result_str is not None
    number = float(str(result.result_str).strip().split()[-1])
    assert number == pytest.approx(float(expected["South"]))
    assert result.llm_calls >= 3 and result.prompt_tokens > 0
