"""Seed 003's edges: routing functions and the graph wired for every combination of the flags."""

from __future__ import annotations

import itertools

import pytest

from dsagent.workflows.clean.graph import build_graph
from dsagent.workflows.clean.review import added_instructions, answer_text, interrupt_value
from dsagent.workflows.clean.routing import after_execute, after_recommend, after_review, entry_node, is_yes


def test_after_execute_fixes_while_retries_are_left():
    assert after_execute({"data_cleaner_error": "boom", "retry_count": 0, "max_retries": 3}) == "fix_data_cleaner_code"
    assert after_execute({"data_cleaner_error": "boom", "retry_count": 3, "max_retries": 3}) == "report_agent_outputs"
    assert after_execute({"data_cleaner_error": None, "retry_count": 0, "max_retries": 3}) == "report_agent_outputs"
    assert after_execute({"data_cleaner_error": None, "retry_count": 0, "max_retries": 3}, bypass_explain_code=True) == "__end__"
    assert after_execute({"data_cleaner_error": "x", "retry_count": 0, "max_retries": 0}) == "report_agent_outputs"


def test_review_answers():
    assert is_yes("Yes.") and is_yes(" y ") and is_yes("OK") and not is_yes("yes, but keep outliers")
    assert after_review("yes") == "create_data_cleaner_code"
    assert after_review("keep the outliers") == "recommend_cleaning_steps"
    assert answer_text([{"type": "accept", "args": None}]) == "yes"
    assert answer_text([{"type": "response", "args": "keep outliers"}]) == "keep outliers"
    assert answer_text([{"type": "edit", "args": {"action": "review_cleaning_steps", "args": {"instructions": "no imputation"}}}]) == "no imputation"
    assert answer_text('[{"type": "accept"}]') == "yes"
    assert answer_text({"answer": "yes"}) == "yes"
    assert added_instructions("keep ids", "no imputation") == "keep ids\nAdded instructions: no imputation"
    assert added_instructions("keep ids", "yes") == "keep ids"
    value = interrupt_value("1. step", "", 0)
    assert value["action_request"]["args"]["recommended_steps"] == "1. step" and "1. step" in value["description"]


@pytest.mark.parametrize("hitl,bypass_rec,bypass_explain", list(itertools.product([True, False], repeat=3)))
def test_graph_for_each_flag_combination(hitl, bypass_rec, bypass_explain):
    graph = build_graph(human_in_the_loop=hitl, bypass_recommended_steps=bypass_rec, bypass_explain_code=bypass_explain).get_graph()
    nodes = set(graph.nodes) - {"__start__", "__end__"}
    expected = {"create_data_cleaner_code", "execute_data_cleaner_code", "fix_data_cleaner_code"}
    if not bypass_rec:
        expected.add("recommend_cleaning_steps")
        if hitl:
            expected.add("human_review")
    if not bypass_explain:
        expected.add("report_agent_outputs")
    assert nodes == expected
    edges = {(e.source, e.target) for e in graph.edges}
    assert ("__start__", entry_node(bypass_rec)) in edges
    if not bypass_rec:
        assert ("recommend_cleaning_steps", after_recommend(hitl)) in edges
    if "human_review" in nodes:
        assert {("human_review", "create_data_cleaner_code"), ("human_review", "recommend_cleaning_steps")} <= edges
    assert ("execute_data_cleaner_code", "fix_data_cleaner_code") in edges
    assert ("fix_data_cleaner_code", "execute_data_cleaner_code") in edges
    assert ("execute_data_cleaner_code", "report_agent_outputs" if not bypass_explain else "__end__") in edges
