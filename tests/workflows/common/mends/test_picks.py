"""The "which …" mends of common/mends/picks.py: the name of the row or group a question picks,
where the code answered with the picked value or ranked the names' own text."""

import ast

import pandas as pd

from dsagent.workflows.common.fit import result_misfit
from dsagent.workflows.common.mends import MendFacts, mend_misfit
from dsagent.workflows.common.mends.picks import group_of_the_value

FRAME = pd.DataFrame({"team": ["Ants", "Bees", "Cats", "Bees"], "goals": [3, 9, 4, 2], "level": ["low", "high", "mid", "high"]})
FACTS = MendFacts(text_columns=["team", "level"], columns=["team", "goals", "level"])
WHICH_TEAM = "Which team scored the most goals? Give the team's name as written in the team column."


def _run(code: str) -> dict:
    ns = {"df": FRAME}
    exec(code, ns)  # noqa: S102
    return {k: v.item() if hasattr(v, "item") else v for k, v in ns["result"].items()}


def test_the_picked_value_becomes_the_name_of_its_row_or_group():
    """(batch H, seen: "which nation won the most bronze" answered 12, the bronze count)."""
    for code, want in (("result = {'top_team': df.loc[df['goals'].idxmax(), 'goals']}\n", "Bees"),
                       ("best = df['goals'].max()\nresult = {'top_team': best}\n", "Bees"),
                       ("result = {'top_team': df.groupby('team')['goals'].sum().max()}\n", "Bees")):
        value = _run(code)["top_team"]
        ran = {"result_type": "dict", "result_str": repr({"top_team": value})}
        assert "should be a 'team'" in (result_misfit(WHICH_TEAM, code, ran, [], ["team", "level"], FACTS.columns) or "")
        mended, label = mend_misfit(WHICH_TEAM, code, ran, FACTS)
        assert label == "the picked row's name, not its value", code
        assert _run(mended)["top_team"] == want, mended
        after = {"result_type": "dict", "result_str": repr(_run(mended))}
        assert result_misfit(WHICH_TEAM, mended, after, [], ["team", "level"], FACTS.columns) is None


def test_a_value_that_is_asked_is_left_alone():
    code = "result = {'most_goals': df['goals'].max()}\n"
    ran = {"result_type": "dict", "result_str": "{'most_goals': 9}"}
    assert mend_misfit("What is the largest number of goals a team scored?", code, ran, FACTS) is None
    two = "result = {'team': df.loc[df['goals'].idxmax(), 'team'], 'goals': df['goals'].max()}\n"
    assert mend_misfit(WHICH_TEAM + " And how many?", two, {"result_type": "dict", "result_str": "{'team': 'Bees', 'goals': 9}"},
                       FACTS) is None


def test_a_label_ranked_by_its_own_text_takes_the_group_of_the_value_beside_it():
    """(batch J, seen: the smoking level ranked by its text, its mean weight computed right beside it)."""
    question = "At which level were goals fewest on average, and what was that mean?"
    code = "result = {'level': df['level'].idxmin(), 'mean_goals': df.groupby('level')['goals'].mean().min().round(2)}\n"
    ran = {"result_type": "dict", "result_str": repr(_run(code))}
    assert "ranks the text of the labels" in (result_misfit(question, code, ran, [], ["team", "level"], FACTS.columns) or "")
    mended, label = mend_misfit(question, code, ran, FACTS)
    assert label == "the group of the value beside it"
    assert _run(mended) == {"level": "low", "mean_goals": 3.0}
    other_way = code.replace("mean().min()", "mean().max()")
    assert other_way != code
    assert group_of_the_value(question, other_way, ast.parse(other_way), {}, FACTS) is None  # which way is not sure
