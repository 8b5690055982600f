"""Each question of a session reads the data as loaded: an earlier code that rebinds ``df`` changes
only its own question (the sandbox keeps the session's other names)."""

import pandas as pd
from dsagent.session import Session

PLAN = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "x"}


def test_a_question_sees_the_data_as_loaded_whatever_an_earlier_code_bound(script_file, sales_csv):
    spec = script_file([PLAN, "df = df[df['units'] > 20]\nresult = len(df)", "Filtered.",
                        PLAN, "result = len(df)", "All rows."])
    with Session([sales_csv], model=spec) as session:
        first = session.ask("How many orders have more than 20 units?", workflow="quick")
        second = session.ask("How many orders are there?", workflow="quick")
    assert int(first.result_str) < 40
    assert int(second.result_str) == len(pd.read_csv(sales_csv))
