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
    assert result.llm_calls >= 3 and result.prompt_tokens > 0  # the code, the explanation, the independent check (plan by code)
    # the check ran on the spare lane (common.verify); its code is the model's own, so either mark may come
    assert result.verification.startswith(("verified:", "not sure:", "not verified:")) and result.verification_checks


def test_the_run_log_counts_prompt_tokens_served_from_the_cache(local_spec, sales_csv):
    """A second call that repeats the first call's opening is mostly served from the KV cache;
    a call with another opening is not; both are recorded in the run log."""
    from langchain_core.messages import HumanMessage, SystemMessage

    from dsagent.llm.registry import get_chat_model

    model = get_chat_model(local_spec)
    system = SystemMessage("You answer in one word. " + "Keep answers short and plain. " * 20)
    first = model.invoke([system, HumanMessage("Name a colour.")])
    second = model.invoke([system, HumanMessage("Name a fruit.")])
    other = model.invoke([SystemMessage("Reply with a number."), HumanMessage("Two plus two?")])
    prompt2 = second.usage_metadata["input_tokens"]
    cached2 = second.usage_metadata["input_token_details"]["cache_read"]
    assert first.usage_metadata["input_tokens"] > 100
    assert 100 < cached2 < prompt2
    assert other.usage_metadata["input_token_details"]["cache_read"] < 10

    with Session([sales_csv], model=local_spec) as session:
        result = session.ask("How many rows are there?")
        calls = session.run_log.llm_calls(result.run_id)
    assert calls and all(c["cached_tokens"] is not None and 0 <= c["cached_tokens"] < c["prompt_tokens"] for c in calls)
