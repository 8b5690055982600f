"""The check for a named year or label the code never uses (common/fit/unused.py) leaves alone a
value that only describes the data, glosses the rows it picks by position, glosses another value
the code uses, or is a word of a comparison; it still sends back a named value the code ignores."""

import ast

from dsagent.workflows.common.fit.unused import unused_label_misfit

COLUMNS = ["year", "miles", "Region", "Area", "Period", "Value", "score", "cls", "key_type", "Gram"]
LABELS = ["Q01", "Q03", "Q04", "positive", "negative", "greater", "data exception", "North", "South"]


def check(question: str, code: str) -> str | None:
    return unused_label_misfit(question, code, ast.parse(code), LABELS, COLUMNS)


def test_a_year_or_label_in_a_sentence_that_describes_the_rows_is_no_filter():
    code = "u = df.set_index('label')\nresult = u['Value'].idxmax()"
    assert check("In which quarter was the rate highest?\nConstraints: Each row is one quarter. The series runs from "
                 "1959 Q01 to 2009 Q03. Find the row with the largest Value.", code) is None
    assert check("Which council covers the largest area?\nConstraints: Each row is one region of the 1996 table and "
                 "Region names it.", "result = df.loc[df['Area'].idxmax(), 'Region']") is None


def test_a_value_that_glosses_the_first_or_last_row_read_by_position_is_no_filter():
    code = "df = df.sort_values('year')\nfirst, last = df['miles'].iloc[0], df['miles'].iloc[-1]\nresult = 100 * (last - first) / first"
    assert check("By what percentage did miles grow?\nConstraints: Use the miles of the earliest year (1956) and of the "
                 "latest year (2010).", code) is None
    assert check("What were the miles in 1956?", "result = df['miles'].iloc[0]")  # no first or last said: still asked


def test_a_label_glossing_a_used_value_or_inside_a_statement_or_a_comparison_is_no_filter():
    assert check("How many codes are in class 22 (data exception)?", "result = int((df['cls'] == '22').sum())") is None
    assert check("How strongly do the two go together (all values are positive)?", "result = df['a'].corr(df['b'])") is None
    assert check("Mean score of the rows with score strictly greater than 0?", "result = df.loc[df['score'] > 0, 'score'].mean()") is None


def test_a_named_label_the_code_ignores_still_goes_back():
    found = check("What is the mean Value in the North region?", "result = df['Value'].mean()")
    assert found and "'North'" in found
    found = check("How many rows are in the North (the largest region)?", "result = len(df)")
    assert found and "'North'" in found


def test_a_label_in_brackets_after_a_column_word_or_near_last_is_still_asked():
    found = check("What is the mean Value in region (North)?", "result = df.groupby('Region')['Value'].mean().max()")
    assert found and "'North'" in found
    found = check("What was the last Value in the South?", "result = df['Value'].iloc[-1]")
    assert found and "'South'" in found


def test_the_row_a_lag_leaves_without_a_value_and_all_groups_listed_are_no_filters():
    code = "u = df.set_index('label')\nresult = u['Value'].diff().idxmax()"
    assert check("In which quarter did the rate rise most?\nConstraints: The change of a quarter is its Value minus the "
                 "Value of the quarter before (the first quarter, 1959 Q01, has no change).", code) is None
    grouped = "result = sum(int((g['Value'] > g['Value'].mean()).sum()) for _, g in df.groupby('Period'))"
    assert check("How many rows are above their mean? Treat each Period ('Q01' and 'Q04') separately.", grouped) is None
    assert check("How many rows are above their mean? Treat each Period ('Q01' and 'Q04') separately.",
                 "result = int((df['Value'] > df['Value'].mean()).sum())")  # no grouping: the labels are unused


def test_a_year_that_must_be_left_out_is_left_out_by_the_rule_the_code_applies():
    """"the first year, 1972, starts in the second quarter and must be left out" is a year left out
    (not aside, though "first" is next to it): complete years kept by ``counts == 4`` leave it out."""
    question = ("Which year had the highest average rate?\nConstraints: Use only years with all four quarters (the first "
                "year, 1972, starts in the second quarter and must be left out).")
    ruled = "n = df.groupby('year')['R'].count()\nresult = df.groupby('year')['R'].mean()[n == 4].idxmax()"
    assert unused_label_misfit(question, ruled, ast.parse(ruled), [], ["year", "R"]) is None
    kept = "result = df.groupby('year')['R'].mean().idxmax()"
    assert "leaves 1972 out" in (unused_label_misfit(question, kept, ast.parse(kept), [], ["year", "R"]) or "")


def test_a_label_or_year_only_in_the_answers_key_is_not_used():
    """``{'north_change_2010': …}`` names North and 2010 only as the answer's key (R 10239, seen:
    'california_change' hid that the code never filters on California)."""
    code = "result = {'north_change': df.loc[df['Period'] == 'Q04', 'Value'].iloc[0] - df.loc[df['Period'] == 'Q01', 'Value'].iloc[0]}"
    found = check("By how much did North's Value change from Q01 to Q04?", code)
    assert found and "never uses 'North'" in found
    keyed = "result = {}\nresult['value_2010'] = df['Value'].mean()"
    assert "2010" in (check("What was the mean Value in 2010?", keyed) or "")
    used = "result = {'north_change': df.loc[df['Region'] == 'North', 'Value'].diff().iloc[-1]}"
    assert check("By how much did North's Value change from Q01 to Q04?", used) is None or "North" not in check(
        "By how much did North's Value change from Q01 to Q04?", used)
