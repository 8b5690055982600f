"""Seed 002's five routing functions, exactly as the seed gives them, at their limits."""

from dsagent.config import Settings
from dsagent.workflows.robust.routing import (
    route_from_node_0,
    route_from_node_3,
    route_from_node_4,
    route_from_node_5,
    route_from_node_5a,
)


def alignment(aligned=False, recommendation="proceed", iterations=1):
    return {"alignment_check": {"aligned": aligned, "recommendation": recommendation}, "alignment_iterations": iterations}


def test_route_from_node_0():
    assert route_from_node_0({"needs_data_work": True}) == "node_1b_requirements"
    assert route_from_node_0({"needs_data_work": False}) == "node_1a_explain"


def test_node_3_proceeds_when_aligned_or_with_caveats_even_at_the_limit():
    assert route_from_node_3(alignment(aligned=True)) == "node_4_code"
    assert route_from_node_3(alignment(aligned=True, iterations=5)) == "node_4_code"
    assert route_from_node_3(alignment(recommendation="proceed_with_caveats", iterations=2)) == "node_4_code"
    # aligned wins over a contradictory recommendation, as in the seed
    assert route_from_node_3(alignment(aligned=True, recommendation="cannot_proceed")) == "node_4_code"


def test_node_3_revises_below_the_limit():
    assert route_from_node_3(alignment(recommendation="revise_requirements", iterations=1)) == "node_1b_requirements"
    assert route_from_node_3(alignment(recommendation="revise_data_understanding", iterations=1)) == "node_2_data"


def test_node_3_explains_the_limitation_at_the_limit_or_when_it_cannot_proceed():
    for recommendation in ("revise_requirements", "revise_data_understanding"):
        assert route_from_node_3(alignment(recommendation=recommendation, iterations=2)) == "node_1a_explain_limitation"
    assert route_from_node_3(alignment(recommendation="cannot_proceed", iterations=1)) == "node_1a_explain_limitation"


def test_node_3_limit_is_a_parameter():
    assert route_from_node_3(alignment(recommendation="revise_requirements", iterations=2), max_iterations=3) == "node_1b_requirements"
    assert route_from_node_3(alignment(recommendation="revise_requirements", iterations=1), max_iterations=1) == "node_1a_explain_limitation"


def test_route_from_node_4_retries_below_the_limit():
    assert route_from_node_4({"execution_success": True, "code_attempts": 1}) == "node_5_evaluate"
    assert route_from_node_4({"execution_success": False, "code_attempts": 1}) == "node_4_code"
    assert route_from_node_4({"execution_success": False, "code_attempts": 2}) == "node_5_evaluate"
    assert route_from_node_4({"execution_success": True, "code_attempts": 2}) == "node_5_evaluate"
    assert route_from_node_4({"execution_success": False, "code_attempts": 2}, max_attempts=3) == "node_4_code"
    assert route_from_node_4({"execution_success": False, "code_attempts": 1}, max_attempts=1) == "node_5_evaluate"


def test_route_from_node_5():
    assert route_from_node_5({"evaluation": {"is_valid": True}}) == "node_6_explain"
    assert route_from_node_5({"evaluation": {"is_valid": False}}) == "node_5a_remediation"


def test_route_from_node_5a_actions_below_the_limit():
    def plan(action, total):
        return {"remediation_plan": {"action": action}, "total_remediations": total}

    assert route_from_node_5a(plan("rewrite_code", 1)) == "node_4_code"
    assert route_from_node_5a(plan("revise_requirements", 2)) == "node_1b_requirements"
    assert route_from_node_5a(plan("reexamine_data", 2)) == "node_2_data"
    for action in ("rewrite_code", "revise_requirements", "reexamine_data"):
        assert route_from_node_5a(plan(action, 3)) == "node_6_explain"
    assert route_from_node_5a(plan("rewrite_code", 3), max_remediations=4) == "node_4_code"
    assert route_from_node_5a(plan("rewrite_code", 1), max_remediations=1) == "node_6_explain"


def test_limits_are_settings_with_the_seed_defaults():
    settings = Settings()
    assert settings.robust_max_alignment_iterations == 2
    assert settings.robust_max_code_attempts == 2
    assert settings.robust_max_remediations == 3
