"""The check's own route (setting ``check_operations``): an answer the model wrote as free code is
checked first by an analysis operation the model chooses (dsagent.ops), compiled by code; free code
when none fits. Scripted model (one lane: the check comes after the explanation), a real sandbox.
Each test asserts the route, the mark and the calls, so each can fail."""

import pandas as pd
import pytest

from dsagent.session import Session

PLAN = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "compute it"}
MEAN = "result = df['units'].mean()"
MAX = "result = df['units'].max()"
AGG = "result = df['units'].agg('mean')"  # the second check: another code, the same mean
PICK_MEAN = [{"operation": "aggregate"}, {"value_column": "units", "agg": "mean", "filters": []}]
QUESTION = "What's the average number of units?"


def ask(spec, files, question=QUESTION, **settings):
    with Session(files, model=spec, verify=True, **settings) as session:
        return session.ask(question, workflow="quick"), session


def test_a_free_code_answer_is_checked_by_a_chosen_operation(script_file, sales_csv):
    result, session = ask(script_file([PLAN, MEAN, "The average is about 21 units.", *PICK_MEAN, AGG]), [sales_csv],
                          check_operations=True)
    assert result.verified is True and result.verification.startswith("verified: two independent computations")
    check = result.verification_checks[0]
    assert check["route"] == "operation" and check["code"].startswith("# operation: aggregate")
    assert float(result.result_str) == pytest.approx(pd.read_csv(sales_csv)["units"].mean())
    assert session.model.remaining == 0


def test_no_fitting_operation_means_a_free_code_check(script_file, sales_csv):
    spec = script_file([PLAN, MEAN, "The average is about 21 units.", {"operation": "code"}, "result = df.units.sum() / len(df)", AGG])
    result, session = ask(spec, [sales_csv], check_operations=True)
    assert result.verified is True and result.verification_checks[0]["route"] == "code"
    assert result.verification_checks[0]["code"].strip() == "result = df.units.sum() / len(df)"
    assert session.model.remaining == 0


def test_off_the_check_is_free_code_with_no_operation_call(script_file, sales_csv):
    spec = script_file([PLAN, MEAN, "The average is about 21 units.", "result = df.units.sum() / len(df)", AGG])
    result, session = ask(spec, [sales_csv], check_operations=False)
    assert result.verified is True and result.verification_checks[0]["route"] == "code"
    assert session.model.remaining == 0


def test_an_answer_composed_from_an_operation_is_checked_by_free_code(script_file, sales_csv):
    spec = script_file([PLAN, *PICK_MEAN, "The average is about 21 units.", "result = df.units.sum() / len(df)", AGG])
    result, session = ask(spec, [sales_csv], check_operations=True, operations=True)
    assert result.code.startswith("# operation: aggregate")
    assert result.verified is True and result.verification_checks[0]["route"] == "code"
    assert session.model.remaining == 0


def test_the_operation_and_a_second_code_outvote_a_wrong_answer(script_file, sales_csv):
    spec = script_file([PLAN, MAX, "The maximum is 32 units.", *PICK_MEAN, "result = df.units.sum() / df.units.count()",
                        "The average is about 21 units."])  # explained again for the result that replaces the answer
    result, session = ask(spec, [sales_csv], check_operations=True)
    assert result.verified is True and "replaced" in result.verification
    assert [c["route"] for c in result.verification_checks] == ["operation", "code"]
    assert float(result.result_str) == pytest.approx(pd.read_csv(sales_csv)["units"].mean())
    assert session.model.remaining == 0


def test_when_every_attempt_fails_the_operation_answers(script_file, sales_csv):
    bad = ["result = df['unitz'].mean()", "result = df['unit_count'].mean()", "result = df['n_units'].mean()"]
    spec = script_file([PLAN, *bad, *PICK_MEAN, "The average is about 21 units.", "result = df.units.sum() / len(df)"])
    result, session = ask(spec, [sales_csv], check_operations=True)
    assert result.output_type == "analysis" and result.code.startswith("# operation: aggregate")
    assert float(result.result_str) == pytest.approx(pd.read_csv(sales_csv)["units"].mean())
    assert result.verified is True
    assert session.model.remaining == 0


def test_an_operation_route_that_raises_means_a_free_code_check(script_file, sales_csv, monkeypatch):
    from dsagent.workflows.common import verify

    def broken(ctx, state):
        raise KeyError("a join path the compiler did not expect")

    monkeypatch.setattr(verify, "operation_check", broken)
    spec = script_file([PLAN, MEAN, "The average is about 21 units.", "result = df.units.sum() / len(df)", AGG])
    result, session = ask(spec, [sales_csv], check_operations=True)
    assert result.verified is True and result.verification_checks[0]["route"] == "code"
    assert session.model.remaining == 0


def test_the_check_after_an_operation_is_sampled_as_a_first_free_code():
    from dsagent.workflows.common.code import RESAMPLE_TEMPERATURE
    from dsagent.workflows.common.verify import second_temperature

    assert second_temperature({"route": "operation"}) is None
    assert second_temperature({"route": "code"}) == RESAMPLE_TEMPERATURE == second_temperature({})
