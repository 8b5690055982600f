"""The react workflow end to end with the real embedded model (slow: minutes on two cores).
Select with `-m real_model`. The numeric answer is checked against pandas; nothing is scripted."""

import re

import pandas as pd
import pytest

from dsagent.session import Session

pytestmark = pytest.mark.real_model


def test_react_answers_a_numeric_question(local_spec, sales_csv):
    expected = float(pd.read_csv(sales_csv).groupby("region")["units"].sum()["South"])
    with Session([sales_csv], model=local_spec, workflow="react") as session:
        result = session.ask("What is the total number of units sold in the South region? Give the number.")
    assert result.output_type in ("report", "limit"), result.explanation
    assert result.result_str is not None, result.failed_attempts
    numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", result.result_str)]
    assert expected in numbers, result.result_str
    assert result.report is not None and result.report.sections
    assert result.llm_calls >= 4 and result.prompt_tokens > 0  # reason, code_exec, reason, report
