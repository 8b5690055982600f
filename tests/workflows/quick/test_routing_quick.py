"""Seed 000's routing functions, exactly as the seed gives them."""

from dsagent.workflows.quick.routing import route_after_code, should_evaluate, should_execute_code, should_retry_code


def state(**kw):
    base = {"plan": {"needs_code": True, "needs_evaluation": True}, "execution_success": False, "attempts": 0}
    base.update(kw)
    return base


def test_should_execute_code():
    assert should_execute_code(state()) == "code"
    assert should_execute_code(state(plan={"needs_code": False, "needs_evaluation": False})) == "explain"


def test_should_retry_code_limits_at_three():
    assert should_retry_code(state(execution_success=True, attempts=1)) == "evaluate"
    assert should_retry_code(state(attempts=1)) == "retry"
    assert should_retry_code(state(attempts=2)) == "retry"
    assert should_retry_code(state(attempts=3)) == "error"
    assert should_retry_code(state(execution_success=True, attempts=3)) == "evaluate"


def test_attempt_limit_is_a_setting():
    assert should_retry_code(state(attempts=3), max_attempts=5) == "retry"
    assert should_retry_code(state(attempts=1), max_attempts=1) == "error"


def test_should_evaluate():
    assert should_evaluate(state()) == "evaluate"
    assert should_evaluate(state(plan={"needs_code": True, "needs_evaluation": False})) == "explain"


def test_route_after_code_combines_retry_and_eval_check():
    assert route_after_code(state(execution_success=True)) == "evaluate"
    assert route_after_code(state(execution_success=True, plan={"needs_code": True, "needs_evaluation": False})) == "explain"
    assert route_after_code(state(attempts=2)) == "retry"
    assert route_after_code(state(attempts=3)) == "error"
