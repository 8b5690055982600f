"""Quick's verified mark (common.verify): an independent code for the question, compared by code.

Scripted model (one lane, so the check is written in the explain step, after the explanation;
the embedded model writes it beside the code step),
a real sandbox. Each test can fail: the mark, the shown result and the calls are asserted.
"""

import pandas as pd
import pytest

from dsagent.session import Session

PLAN = {"needs_code": True, "needs_evaluation": False, "needs_explanation": True, "reasoning": "compute it"}
MEAN = "result = df['units'].mean()"
MEDIAN = "result = df['units'].median()"
MAX = "result = df['units'].max()"


def ask(spec, files, question, **settings):
    with Session(files, model=spec, **settings) as session:
        return session.ask(question), session


def test_an_answer_an_independent_code_agrees_with_is_verified(script_file, sales_csv):
    spec = script_file([PLAN, MEAN, "The average is about 21 units.", "result = df.units.sum() / len(df)",
                        "result = df['units'].agg('mean')"])  # the second check, sampled warm: agrees too
    result, session = ask(spec, [sales_csv], "What's the average number of units?", verify=True)
    assert result.verified is True
    assert result.verification.startswith("verified: two independent computations")
    assert result.verification_checks[0]["code"].strip() == "result = df.units.sum() / len(df)"
    assert float(result.result_str) == pytest.approx(pd.read_csv(sales_csv)["units"].mean())
    check_prompt = session.model.history[3][-1].content
    assert "Question: What's the average number of units?" in check_prompt and MEAN not in check_prompt  # independent
    assert "Not verified" not in result.explanation
    assert session.model.history[4][-1].content == check_prompt  # the same prompt, sampled again (warm)


def test_an_answer_the_first_check_agrees_with_and_the_warm_one_does_not_is_not_sure(script_file, sales_csv):
    """The greedy check can share the answer's misreading: a second code, sampled warm, that gives
    another result leaves the answer standing, marked not sure."""
    frame = pd.read_csv(sales_csv)
    spec = script_file([PLAN, MEAN, "The average is about 21 units.", "result = df.units.sum() / len(df)", MEDIAN])
    result, session = ask(spec, [sales_csv], "What's the average number of units?", verify=True)
    assert result.verified is False and result.verification.startswith("not sure: an independent computation agrees")
    assert float(result.result_str) == pytest.approx(frame["units"].mean())
    assert "Not verified: an independent computation of the question gave" in result.explanation
    # a warm check that fails (twice) is no vote: the first one's agreement stands
    spec = script_file([PLAN, MEAN, "The average is about 21 units.", "result = df.units.sum() / len(df)", BAD, BAD])
    result, session = ask(spec, [sales_csv], "What's the average number of units?", verify=True)
    assert result.verified is True and result.verification.startswith("verified: an independent computation")
    assert session.model.remaining == 0


def test_a_second_check_that_agrees_with_the_answer_verifies_it_two_of_three(script_file, sales_csv):
    spec = script_file([PLAN, MEAN, "The average is about 21 units.", MAX, "result = df['units'].agg('mean')"])
    result, _ = ask(spec, [sales_csv], "What's the average number of units?", verify=True)
    assert result.verified is True and "2 of 3" in result.verification
    assert float(result.result_str) == pytest.approx(pd.read_csv(sales_csv)["units"].mean())


def test_two_checks_that_agree_against_the_answer_replace_it(script_file, sales_csv):
    spec = script_file([PLAN, MAX, "The maximum is 32 units.", MEAN, "result = df.units.sum() / df.units.count()",
                        "The average is about 21 units."])  # the explanation is written again for the replacing result
    result, _ = ask(spec, [sales_csv], "What's the average number of units?", verify=True)
    assert result.verified is True and "replaced" in result.verification
    assert float(result.result_str) == pytest.approx(pd.read_csv(sales_csv)["units"].mean())
    assert result.code.strip() == "result = df.units.sum() / df.units.count()"
    assert result.explanation.startswith("The average is about 21")


def test_no_agreement_keeps_the_answer_and_says_it_is_not_sure(script_file, sales_csv):
    frame = pd.read_csv(sales_csv)
    spec = script_file([PLAN, MEAN, f"The average is {frame['units'].mean():.2f} units.", MEDIAN, MAX])
    result, _ = ask(spec, [sales_csv], "What's the average number of units?", verify=True)
    assert result.verified is False and result.verification.startswith("not sure:")
    assert float(result.result_str) == pytest.approx(frame["units"].mean())
    assert "Not verified: an independent computation of the question gave" in result.explanation
    assert str(frame["units"].median()).rstrip("0").rstrip(".") in result.explanation


def test_a_label_check_verifies_the_ranking_whose_top_it_names(script_file, sales_csv):
    """A "which … highest" question answered with the whole ranking (for its chart) is verified by a
    check that computed only the label, when that label tops the ranking; another label does not."""
    top = pd.read_csv(sales_csv).groupby("region")["units"].sum().idxmax()
    question = "Which region has the highest total units? Show total units per region as a bar chart."
    ranking = "result = df.groupby('region')['units'].sum()\nfig = px.bar(result.reset_index(), x='region', y='units')"
    words = f"{top} has the highest total units."
    result, _ = ask(script_file([PLAN, ranking, words, "result = df.groupby('region')['units'].sum().idxmax()",
                                 "result = df.groupby('region').units.sum().sort_values().index[-1]"]),
                    [sales_csv], question, verify=True)
    assert result.verified is True and result.verification.startswith("verified: two independent computations")
    other, third = [r for r in ["North", "South", "East", "West"] if r != top][:2]
    result, _ = ask(script_file([PLAN, ranking, words, f"result = '{other}' if len(df) else None",
                                 f"result = '{third}' if len(df) else None"]),
                    [sales_csv], question, verify=True)
    assert result.verified is False and result.verification.startswith("not sure:")


def test_off_means_no_extra_call_and_not_checked(script_file, sales_csv):
    spec = script_file([PLAN, MEAN, "The average is about 21 units."])
    result, session = ask(spec, [sales_csv], "What's the average number of units?", verify=False)
    assert result.verified is False and result.verification.startswith("not checked")
    assert result.llm_calls == 3


def test_a_chart_is_not_checked(script_file, sales_csv):
    spec = script_file([PLAN, "fig = px.histogram(df, x='units')", "The histogram shows units."])
    result, _ = ask(spec, [sales_csv], "Show me a histogram of units", verify=True)
    assert result.verified is False and "no result value" in result.verification


BAD = "result = df['unitz'].mean()"


def test_when_every_attempt_fails_an_independent_computation_answers_and_a_second_marks_it(script_file, sales_csv):
    from dsagent.config import load_settings
    from dsagent.store import RunLog

    spec = script_file([PLAN, BAD, "result = df['unit_count'].mean()", "result = df['n_units'].mean()",  # three failed attempts
                        MEAN,  # the independent computation: the answer instead of an error
                        "The average is about 21 units.",
                        "result = df.units.sum() / len(df)"])  # a second, from another code: agrees
    result, session = ask(spec, [sales_csv], "What's the average number of units?", verify=True)
    assert result.output_type == "analysis" and result.error is None
    assert float(result.result_str) == pytest.approx(pd.read_csv(sales_csv)["units"].mean())
    assert result.code.strip() == MEAN and len(result.failed_attempts) == 3
    assert result.verified is True and "the code step failed every attempt; two independent computations" in result.verification
    steps = [(s["node"], s["outcome"]) for s in RunLog(load_settings().db_url).steps(result.run_id)]
    assert steps[:4] == [("plan", "ok"), ("code", "failed"), ("code", "failed"), ("code", "ok")] and ("error", "error") not in steps
    assert session.model.remaining == 0


def test_when_the_independent_computation_fails_too_the_run_ends_in_the_error_node(script_file, sales_csv):
    spec = script_file([PLAN, BAD, "result = df['unit_count'].mean()", "result = df['n_units'].mean()",
                        "result = df['unit_total'].mean()", "result = df['units_sold'].mean()"])  # the check and its one fix fail
    result, _ = ask(spec, [sales_csv], "What's the average number of units?", verify=True)
    assert result.output_type == "error" and result.verified is False


def test_a_check_that_copies_the_answers_code_is_no_vote_another_code_decides(script_file, sales_csv):
    """The greedy model asked the question again may write the answer's very code: one computation
    run twice. Another code, sampled warm, must agree before the answer is verified."""
    spec = script_file([PLAN, MEAN, "The average is about 21 units.", "import pandas as pd\n" + MEAN + "  # again",
                        "result = df.units.sum() / len(df)"])
    result, session = ask(spec, [sales_csv], "What's the average number of units?", verify=True)
    assert result.verified is True and "repeated the answer's own code" in result.verification
    assert [c["code"].strip() for c in result.verification_checks][1] == "result = df.units.sum() / len(df)"
    assert session.model.remaining == 0


def test_a_copied_check_and_another_code_that_differs_leave_the_answer_not_sure(script_file, sales_csv):
    frame = pd.read_csv(sales_csv)
    spec = script_file([PLAN, MEAN, "The average is about 21 units.", MEAN, MEDIAN])
    result, _ = ask(spec, [sales_csv], "What's the average number of units?", verify=True)
    assert result.verified is False and result.verification.startswith("not sure:")
    assert float(result.result_str) == pytest.approx(frame["units"].mean())  # the answer stays
    assert "Not verified: an independent computation of the question gave" in result.explanation


def test_a_warm_check_that_keeps_the_answers_code_verifies_it_a_failed_one_does_not(script_file, sales_csv):
    # the greedy check copies the answer; the warm one (sampled once more when it copies the first)
    # keeps the same code: the model kept its computation under sampling, so it is a vote
    spec = script_file([PLAN, MEAN, "The average is about 21 units.", MEAN, MEAN, MEAN])
    result, session = ask(spec, [sales_csv], "What's the average number of units?", verify=True)
    assert result.verified is True and "a check sampled warm gives the same result" in result.verification
    assert result.verification_checks[1]["code"].strip() == MEAN and session.model.remaining == 0
    assert [c["warm"] for c in result.verification_checks] == [False, True]
    spec = script_file([PLAN, MEAN, "The average is about 21 units.", MEAN, BAD, BAD])  # the warm one fails, and its fix
    result, session = ask(spec, [sales_csv], "What's the average number of units?", verify=True)
    assert result.verified is False and result.verification.startswith("not verified: the first check repeated")
    assert session.model.remaining == 0


def test_an_answer_kept_with_a_misfit_is_never_verified(script_file, sales_csv):
    """Every attempt filters on a value no row holds ('north'; the data writes North): the last is
    kept, and two checks that reach the same 0 another way do not verify it (a check that computes
    the same value shares the misreading); the mark says why."""
    codes = ["result = (df['region'] == 'north').sum()", "result = int((df['region'] == 'north').sum())",
             "result = len(df[df['region'] == 'north'])"]
    same_zero = ["result = int((df['region'] == 'North').sum() * 0)", "result = (df['region'] == 'North').sum() * 0"]  # fit, give 0
    spec = script_file([PLAN, *codes, "No sales were in the north.", *same_zero])
    result, session = ask(spec, [sales_csv], "How many sales were in the north region?", verify=True)
    assert result.result_str == "0" and len(result.failed_attempts) == 2
    assert result.verified is False and "does not fit the question" in result.verification and "keeps no row" in result.verification
    assert session.model.remaining == 0


def test_a_check_that_misfits_is_mended_by_code_before_any_fix_call(script_file, tmp_path):
    """A check that gives the month's number where the question asks its name is written as the
    name by the code step's after-misfit mend (``as_asked.month_named``), as the answer's own code
    would be: it then agrees, with no model call to fix it."""
    table = tmp_path / "monthly.csv"
    table.write_text("month,units\n" + "".join(f"{m},{10 + (m * 5) % 12}\n" for m in range(1, 13)))
    answer = "import calendar\nresult = calendar.month_name[int(df.groupby('month')['units'].sum().idxmax())]"
    checks = ["result = df.groupby('month')['units'].sum().idxmax()", "result = int(df.loc[df['units'].idxmax(), 'month'])"]
    spec = script_file([PLAN, answer, "July sold the most units.", *checks])
    result, session = ask(spec, [table], "Which month sold the most units? Give the month's name.", verify=True)
    assert result.result_str == "July"
    assert result.verified is True, result.verification
    assert [c["code"].rstrip().splitlines()[-1] for c in result.verification_checks] == ["result = calendar.month_name[int(result)]"] * 2
    assert session.model.remaining == 0


def test_a_check_that_fits_replaces_an_answer_kept_with_a_misfit_marked_not_sure(script_file, sales_csv):
    """Every attempt filters on a value no row holds ('north'): the last is kept with its misfit. The
    first check counts 'North' (fits), the warm one differs from both: the fitting check's result is
    given instead, explained again, and marked not sure, never verified."""
    codes = ["result = (df['region'] == 'north').sum()", "result = int((df['region'] == 'north').sum())",
             "result = len(df[df['region'] == 'north'])"]
    checks = ["result = int((df['region'] == 'North').sum())", "result = int((df['region'] == 'North').sum()) + 1"]
    spec = script_file([PLAN, *codes, "No sales were in the north.", *checks, "10 sales were in the north."])
    result, session = ask(spec, [sales_csv], "How many sales were in the north region?", verify=True)
    assert result.result_str == "10" and result.code.strip() == checks[0]
    assert result.verified is False and result.verification.startswith("not sure: the code's result (0) does not fit")
    assert "10 sales" in result.explanation and "Not verified" not in result.explanation
    assert session.model.remaining == 0
