"""The result must fit the question (checked by code), and mechanical mends of moved pandas APIs."""

import ast

import pytest

from dsagent.sandbox.api_drift import drift_hint
from dsagent.workflows.common.code import extract_code
from dsagent.workflows.common.fit import asks_one_value, result_misfit
from dsagent.workflows.common.mends import mend_before_run
from dsagent.workflows.common.mends.before_run import mend_groupby_tuple, mend_result_figure

SERIES = "0      5.94\n1     16.05\n2     16.66\n...\nLength: 244, dtype: float64"


@pytest.mark.parametrize("question", [
    "What is the mean tip percentage, tip divided by total_bill times 100?",
    "Which country had the highest life expectancy in 2007?",
    "How many parties had a size of 4 or more?",
    "On which day is the average total bill highest?",
    "What is the mean GDP per capita across all countries in 2007?",
    "In how many districts was Coderre the winner?",
])
def test_questions_that_ask_for_one_value(question):
    assert asks_one_value(question)


@pytest.mark.parametrize("question", [
    "Which region has the highest total revenue? Show total revenue per region as a bar chart.",
    "List the top 3 countries by population in 2007.",
    "What is the average price for each region?",
    "Which three countries had the highest GDP per capita in 2007?",
    "Plot the distribution of ages",
])
def test_questions_that_ask_for_several(question):
    assert not asks_one_value(question)


def test_a_series_for_one_value_goes_back():
    finding = result_misfit("What is the mean tip percentage?", "result = df['tip'] / df['total_bill'] * 100",
                            {"result_type": "Series", "result_str": SERIES})
    assert finding.startswith("ResultDoesNotFitQuestion") and "244 rows" in finding


def test_a_scalar_for_one_value_fits():
    assert result_misfit("What is the mean tip percentage?", "result = (df['tip'] / df['total_bill']).mean() * 100",
                         {"result_type": "float", "result_str": "16.08"}) is None


def test_a_series_fits_a_question_about_each_group():
    assert result_misfit("What is the average tip for each day?", "result = df.groupby('day')['tip'].mean()",
                         {"result_type": "Series", "result_str": "day\nFri 2.7\nSat 2.9\nSun 3.2"}) is None


def test_a_row_position_for_which_goes_back():
    code = "d = df[df['year'] == 2007]\nresult = d['lifeExp'].idxmax()"
    finding = result_misfit("Which country had the highest life expectancy in 2007?", code, {"result_type": "int", "result_str": "803"},
                            text_columns=["continent", "country"])
    assert finding and "result = df.loc[d['lifeExp'].idxmax(), 'country']" in finding


def test_a_drop_calls_row_labels_are_read_once_for_every_check():
    from dsagent.workflows.common.naming import drop_labels, row_number_call
    def call(text: str) -> ast.Call:
        return ast.parse(text).body[0].value
    assert drop_labels(call("df.drop([0, 1])")) == [0, 1]
    assert drop_labels(call("df.drop(index='Total')")) == ["Total"]
    assert drop_labels(call("df.drop(labels=('A', 'B'))")) == ["A", "B"]
    for other in ("df.drop(columns=['a'])", "df.drop(['a'], axis=1)", "df.drop(df.index[:2])", "df.drop([0, n])"):
        assert drop_labels(call(other)) is None, other
    for labelled in ("df.describe()['x'].idxmax()", "df.stack().idxmax()", "df.set_index('k')['x'].idxmax()"):
        tree = ast.parse(labelled)
        assert not row_number_call(tree.body[0].value, tree), labelled
    for numbered in ("df['x'].idxmax()", "df.describe()\ndf['x'].idxmax()"):  # a bare describe() changes no index
        tree = ast.parse(numbered)
        assert row_number_call(tree.body[-1].value, tree), numbered
    tree = ast.parse("df.set_index('k', inplace=True)\ndf['x'].idxmax()")
    assert not row_number_call(tree.body[-1].value, tree)


def test_a_group_label_from_idxmax_after_groupby_fits():
    code = "result = df.groupby('target')['alcohol'].mean().idxmax()"
    assert result_misfit("Which target class has the highest mean alcohol?", code, {"result_type": "int", "result_str": "0"}) is None


def test_a_figure_as_the_result_goes_back():
    code = "fig = px.bar(df, x='a', y='b')\nresult = fig"
    assert result_misfit("Show a bar chart", code, {"result_type": "dict", "result_str": "{}"}).startswith("ResultIsAFigure")


def test_a_year_or_a_group_the_code_never_uses_goes_back():
    code = "result = df[df['continent'] == 'Africa']['pop'].sum()"
    er = {"result_type": "int", "result_str": "1000"}
    assert "1952" in result_misfit("What was the total population of Africa in 1952?", code, er, ["Africa"])
    code = "result = df[df['year'] == 1952]['pop'].sum()"
    assert "Africa" in result_misfit("What was the total population of Africa in 1952?", code, er, ["Africa", "Asia"])
    code = "result = df[(df['year'] == 1952) & (df['continent'] == 'Africa')]['pop'].sum()"
    assert result_misfit("What was the total population of Africa in 1952?", code, er, ["Africa", "Asia"]) is None


def test_a_label_the_question_lists_as_a_columns_values_or_uses_as_a_number_word_asks_no_filter():
    """"trt is 'placebo' or 'progabide'" describes the column: a code that keeps progabide's rows
    answers it without naming placebo. "the two middle values" counts; it is no filter on a label
    'two' (a column of 'two' and 'four'), while "cars with two doors" is one."""
    er = {"result_type": "int", "result_str": "31"}
    question = ("How many patients were on progabide? trt is 'placebo' or 'progabide'. Count the distinct subject "
                "values whose trt is 'progabide'.")
    code = "result = df[df['trt'] == 'progabide']['subject'].nunique()"
    assert result_misfit(question, code, er, ["placebo", "progabide"], columns=["trt", "subject"]) is None
    assert "placebo" in result_misfit("How many more seizures on placebo than on progabide?", code, er,
                                      ["placebo", "progabide"], columns=["trt", "subject"])
    race = "Which race has the highest rate? race is 'white', 'black' or 'other'. Compute each race's rate."
    grouped = "result = df.groupby('race')['low'].mean().idxmax()"
    assert result_misfit(race, grouped, er, ["white", "black", "other"], columns=["race", "low"]) is None
    assert "white" in result_misfit(race, "result = df['low'].mean()", er, ["white", "black", "other"], columns=["race", "low"])
    median = "Take the median of price (the middle value, or the mean of the two middle values)."
    code = "result = df['price'].median()"
    assert result_misfit(median, code, er, ["two", "four", "diesel"], columns=["doors", "price"]) is None
    assert "two" in result_misfit("What is the median price of cars with two doors?", code, er, ["two", "four"],
                                  columns=["doors", "price"])
    # "one of 'a', 'b' and 'c'" lists the column's values, "and" before the last one too (batch J, seen)
    levels = "Which level had the fewest goals on average? level is one of 'low', 'mid' and 'high'."
    code = "result = df.groupby('level')['goals'].mean().idxmin()"
    assert result_misfit(levels, code, er, ["low", "mid", "high"], columns=["level", "goals"]) is None
    assert result_misfit("How many goals at the high and low levels?", "result = df['goals'].sum()", er, ["low", "mid", "high"],
                         columns=["level", "goals"]) is not None
    # "'refund' otherwise" names the complement of the filter on 'sale' (batch K, seen: it sent a right code back)
    kinds = "What share of the orders were sales? kind is 'sale' for a sale and 'refund' otherwise."
    code = "result = 100 * len(df[df['kind'] == 'sale']) / len(df)"
    assert result_misfit(kinds, code, er, ["sale", "refund"], columns=["kind"]) is None
    assert result_misfit(kinds, "result = 100 * len(df) / len(df)", er, ["sale", "refund"], columns=["kind"]) is not None


def test_groupby_tuple_selection_is_mended():
    code = "rev = df.groupby('region')['units', 'unit_price'].sum()\nresult = rev\n"
    assert mend_groupby_tuple(code) == "rev = df.groupby('region')[['units', 'unit_price']].sum()\nresult = rev\n"
    assert mend_groupby_tuple("x = df.groupby('r')['a'].sum()\n") == "x = df.groupby('r')['a'].sum()\n"
    assert "[['units', 'unit_price']]" in mend_before_run(extract_code("```python\nr = df.groupby('region')['units', 'unit_price'].sum()\n```"))[0]


def test_result_fig_after_an_answer_is_dropped():
    code = "result = df.groupby('region')['rev'].sum()\nfig = px.bar(result)\nresult = fig\n"
    assert mend_result_figure(code) == "result = df.groupby('region')['rev'].sum()\nfig = px.bar(result)\n"


def test_a_chart_call_assigned_over_the_answer_becomes_fig():
    code = "result = s.max()\nresult = px.bar(s)\n"
    assert mend_result_figure(code) == "result = s.max()\nfig = px.bar(s)\n"


def test_a_lone_result_fig_is_left_for_the_fit_check():
    code = "fig = px.bar(df)\nresult = fig\n"
    assert mend_result_figure(code) == code


def test_tuple_selection_error_gets_a_hint():
    assert "[['a', 'b']]" in drift_hint("ValueError: Cannot subset columns with a tuple with more than one element. Use a list instead.")


def test_a_value_made_of_two_columns_gets_the_per_row_recipe():
    from dsagent.workflows.common.prompting import recipes_for

    assert "sum of products" in recipes_for("Which region has the highest total revenue (units times unit_price)?")
    assert "sum of products" not in recipes_for("What is the average price per region?")


def test_name_at_label_adds_the_line_only_when_it_applies():
    from dsagent.workflows.common.fit import name_at_label

    er = {"result_type": "int", "result_str": "803"}
    code = "result = df[df['year'] == 2007]['lifeExp'].idxmax()"
    assert name_at_label("Which country had the highest life expectancy?", code, er, ["country"]).endswith(
        "\nresult = df.loc[result, 'country']\n")
    assert name_at_label("Which country had the highest life expectancy?", code + ".reset_index()", er, ["country"]) is None
    assert name_at_label("What is the highest life expectancy?", code, er, ["country"]) is None
    assert name_at_label("Which country had the highest life expectancy?", code, er, []) is None


def test_ranked_note_picks_the_top_label_of_a_series_by_code():
    from dsagent.workflows.common.fit import ranked_note

    shown = "region\nEast     67908.25\nNorth    75753.50\nSouth    90133.50\nWest     88789.00\nName: revenue, dtype: float64"
    er = {"result_type": "Series", "result_str": shown}
    assert ranked_note("Which region has the highest total revenue?", er).endswith("the highest is South (90133.50).")
    assert "the lowest is East (67908.25)" in ranked_note("Which region sold the least?", er)
    assert ranked_note("What is the total revenue per region?", er) == ""  # not a which-highest question
    assert ranked_note("Which region has the highest revenue?", {"result_type": "float", "result_str": "3.5"}) == ""
    assert ranked_note("Which region has the highest revenue?", {"result_type": "Series", "result_str": "a    x\nb    y"}) == ""


def test_robust_explain_and_evaluate_get_the_ranked_note():
    from dsagent.workflows.robust import prompts as robust_prompts

    result = {"success": True, "type": "analysis", "result_type": "Series", "stdout": "", "figures": [],
              "result_str": "region\nEast     67908.25\nSouth    90133.50\nWest     80000.00\nName: revenue, dtype: float64"}
    state = {"question": "Which region has the highest revenue?", "execution_result": result, "execution_success": True,
             "requirements": {}, "code": "result = s", "evaluation": {}, "alignment_caveats": []}
    for prompt in (robust_prompts.explain_results(state, gave_up=False), robust_prompts.evaluate(state)):
        assert "the highest is South (90133.50)" in prompt


# Sanity by code: results no answer can be

@pytest.mark.parametrize("kind, shown", [("NoneType", "None"), ("float", "nan"), ("float64", "NaN"),
                                         ("Series", "Series([], Name: rain, dtype: float64)"),
                                         ("DataFrame", "Empty DataFrame\nColumns: [rain]\nIndex: []")])
def test_a_none_or_empty_result_for_one_value_goes_back(kind, shown):
    finding = result_misfit("What is the mean rain in the north?", "result = df[df['area'] == 'North']['rain'].mean()",
                            {"result_type": kind, "result_str": shown})
    assert finding and finding.startswith("ResultIsEmpty") and "no rows" in finding


def test_an_empty_result_of_a_chart_request_is_left_to_the_workflow():
    assert result_misfit("Plot rain per month", "df.plot()\nresult = None", {"result_type": "NoneType", "result_str": "None"}) is None


@pytest.mark.parametrize("question, shown, out", [
    ("What percentage of the stations had rain above 10?", "263.4", True),
    ("What share of the rows are from the north, as a percentage?", "-3.0", True),
    ("What proportion of the days were dry?", "0.41", False),
    ("What percentage of the stations had rain above 10?", "26.3", False),
    ("What is the percentage change of rain from the first to the last year?", "263.4", False),  # a change may exceed 100
    ("What is the mean rain percentage?", "120.0", False),  # a mean of a column, not a share of rows
])
def test_a_share_outside_0_to_100_goes_back(question, shown, out):
    finding = result_misfit(question, "result = 100 * df['rain'].mean()", {"result_type": "float", "result_str": shown})
    assert (finding is not None and finding.startswith("ResultOutOfRange") and "between 0 and 100" in finding) is out


@pytest.mark.parametrize("question, code, shown, back", [
    ("Which northern station had the most rain in 2020?", "result = df[df['area'] == 'North']['rain'].max()", "1318", True),
    ("Which year had the most rain?", "result = df.groupby('year')['rain'].sum().idxmax()", "2007", False),
    ("Which class has the highest mean rain?", "result = df.groupby('class')['rain'].mean().idxmax()", "2", False),
])
def test_a_whole_number_for_which_names_a_text_column_goes_back(question, code, shown, back):
    finding = result_misfit(question, code, {"result_type": "int64", "result_str": shown}, text_columns=["station", "area"])
    assert (finding is not None and "asks which one (a name)" in finding and "'station'" in finding) is back


def test_no_result_at_all_for_one_value_goes_back():
    finding = result_misfit("Which station had the most rainy days?", "plt.bar(x, y)\nplt.savefig('a.png')", {"result_type": None, "result_str": ""})
    assert finding and finding.startswith("ResultIsEmpty") and "stored no `result`" in finding
    assert result_misfit("Plot rain per station", "plt.bar(x, y)", {"result_type": None, "result_str": ""}) is None


def test_counting_rows_where_a_number_column_is_totalled_goes_back():
    question = "Which station has the highest total litres?"
    code = "result = df['station'].value_counts().idxmax()"
    finding = result_misfit(question, code, {"result_type": "str", "result_str": "Ash"}, text_columns=["station"],
                            columns=["station", "litres"])
    assert finding and "value_counts() counts the rows" in finding and "'litres'" in finding
    right = "result = df.groupby('station')['litres'].sum().idxmax()"
    assert result_misfit(question, right, {"result_type": "str", "result_str": "Ash"}, text_columns=["station"], columns=["station", "litres"]) is None
    assert result_misfit("Which station appears most often?", code, {"result_type": "str", "result_str": "Ash"}, text_columns=["station"],
                         columns=["station", "litres"]) is None


def test_which_three_countries_names_the_country_column():
    shown = {"result_type": "Series", "result_str": "1151    49357.19\n863     47306.98\nName: gdp, dtype: float64"}
    finding = result_misfit("Which three countries had the highest gdp in 2007?", "result = df[df['year'] == 2007]['gdp'].nlargest(3)",
                            shown, text_columns=["country", "continent"])
    assert finding and "df.loc[result.index, 'country']" in finding


def test_a_column_grouped_by_itself_goes_back():
    code = "result = df.groupby('oats')['oats'].mean().idxmax()"
    finding = result_misfit("Which crop column has the highest mean: oats or rye?", code, {"result_type": "float64", "result_str": "1.2"})
    assert finding and "groups a column by its own values" in finding and "df[['col_a', 'col_b']].mean().idxmax()" in finding
    assert result_misfit("Which area has the highest mean oats?", "result = df.groupby('area')['oats'].mean().idxmax()",
                         {"result_type": "str", "result_str": "North"}) is None


@pytest.mark.parametrize("question,code,back", [
    ("What is the median flow over the hundred years?", "result = df[df['year'] == 1970]['flow'].median()", True),
    ("What quarter had the peak?\nWrite it like 1961Q3.", "d = df[df.year == 1961]\nresult = d['q'].iloc[0]", True),
    ("How did sales change after 1898?", "result = df[df['year'] >= 1900]['v'].mean()", True),
    ("What was the mean in 1977?", "result = df[df['year'] == 1977]['v'].mean()", False),
    ("What were total sales in 2020?", "result = df[(df['year'] >= 2020) & (df['year'] < 2021)]['v'].sum()", False),
    ("What were sales in the 1990s?", "result = df[(df['year'] >= 1990) & (df['year'] < 2000)]['v'].sum()", False),
    ("What were sales in the last year of the data?", "result = df[df['year'] == 2009]['v'].sum()", False),
    ("How many rows have more than 2000 units?", "result = (df['units'] > 2000).sum()", False),
    ("How many rows are there?", "result = df.shape[0] if df.shape[0] > 1900 else 0", False),
    # a year named only as an end of the span asked about, not as the one year to keep
    ("What quarter had the peak? Use all 203 quarters (1959Q1 to 2009Q3).", "result = df[df['year'] == 2009]['q'].iloc[0]", True),
    ("What is IBM's mean over the years (one row per year, 1935-1954)?", "result = df[df['year'] == 1954]['v'].mean()", True),
    ("What is the mean over 1935-1954?", "result = df[(df['year'] >= 1935) & (df['year'] <= 1954)]['v'].mean()", False),
    ("How much did it grow from 1990 to 2000?", "a = df[df['year'] == 1990]['v']\nresult = df[df['year'] == 2000]['v'] / a", False),
    ("Use 1959-2008. What was the mean in 1959?", "result = df[df['year'] == 1959]['v'].mean()", False),
])
def test_a_year_the_question_never_names_goes_back(question, code, back):
    found = result_misfit(question, code, {"result_type": "float", "result_str": "740.0"})
    assert (found is not None and "a year the question does not ask" in found) is back


@pytest.mark.parametrize("question,code,back", [
    ("Average each year 1959-2008 (2009 is incomplete and left out).", "d = df[df['year'] == 2009]\nresult = d['v'].mean()", "keeps only them"),
    ("Leaving out the District of Columbia, what is the mean rate?", "result = df[df['state'] == 'District of Columbia']['r'].mean()",
     "keeps only them"),
    ("Average each year 1959-2008 (2009 is incomplete and left out).", "result = df['v'].mean()", "never drops its rows"),
    ("Average each year 1959-2008 (2009 is incomplete and left out).", "result = df[df['year'] != 2009]['v'].mean()", None),
    ("Excluding 2009, what is the mean, and what was 2009's value?",
     "result = {'mean': df[~(df['year'] == 2009)]['v'].mean(), 'v': df[df['year'] == 2009]['v'].iloc[0]}", None),
    ("What was the mean in 2009?", "result = df[df['year'] == 2009]['v'].mean()", None),
    # a year left out in a clause of its own, outside the span the code filters on: asks nothing more
    ("Use complete years, 1959 to 2017 (2018 has only six months and is left out).",
     "result = df[df['year'].between(1959, 2017)]['v'].mean()", None),
    ("Use complete years, 1959 to 2017 (2018 has only six months and is left out).", "result = df['v'].mean()",
     "never drops its rows"),
    # a value left out second in a list after "leave out": to be dropped, not filtered on
    ("Use the first rows (leave out 'Ohio' and the total row 'District of Columbia').", "result = df['v'].mean()",
     "the question leaves District of Columbia out"),
    # values left out by a pronoun ("X and Y are totals; leave them out"), dropped by their positions
    ("The first two rows, District of Columbia and Ohio, are totals; leave them out and use the 49 others.",
     "result = df.iloc[2:]['v'].mean()", None),
    ("The first two rows, District of Columbia and Ohio, are totals; leave them out.", "result = df.loc[2:, 'v'].mean()", None),
    ("Use the first ten rows (leave out 'Ohio' and the total row 'District of Columbia').", "result = df.head(10)['v'].sum()", None),
    ("The first two rows, District of Columbia and Ohio, are totals; leave them out.", "result = df['v'].mean()",
     "never drops its rows"),
    # the top rows of a sort, a slice of text or a drop of columns are no rows left out by position
    ("What is the mean of the 5 highest incomes, excluding Ohio?", "result = df.sort_values('v', ascending=False).head(5)['v'].mean()",
     "never drops its rows"),
    ("The first two rows, District of Columbia and Ohio, are totals; leave them out.", "result = df['s'].str[:4].nunique()",
     "never drops its rows"),
    ("The first two rows, District of Columbia and Ohio, are totals; leave them out.", "result = df.drop([0, 1])['v'].mean()", None),
])
def test_rows_the_question_leaves_out_are_not_the_ones_kept(question, code, back):
    found = result_misfit(question, code, {"result_type": "float", "result_str": "1.5"}, ["District of Columbia", "Ohio"])
    assert (found is None) if back is None else (back in found)


MONTHS = ["YEAR", "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]


@pytest.mark.parametrize("question,kind,shown,columns,back", [
    ("In 1997, which month had the coolest temperature?", "dict", "{'coolest': 47}", MONTHS, True),
    ("In 1997, which month had the coolest temperature?", "dict", "{'coolest': 'JAN'}", MONTHS, False),
    ("In 1997, which month had the coolest temperature?", "str", "JAN", MONTHS, False),
    ("Which year had the highest total?", "int64", "3", ["country", "1990", "1991", "1992"], True),
    ("Which year had the highest total?", "str", "1991", ["country", "1990", "1991", "1992"], False),
    ("Which month had the most sales?", "int64", "3", ["month", "sales"], False),  # a long table: not this check
    ("What was the mean in JAN?", "float", "20.5", MONTHS, False),
])
def test_a_period_of_a_wide_table_is_a_column_name(question, kind, shown, columns, back):
    found = result_misfit(question, "result = 1", {"result_type": kind, "result_str": shown}, columns=columns)
    assert (found is not None and "column's name" in found) is back


@pytest.mark.parametrize("question,code", [
    ("How many houses are larger than 2,000 sq ft?", "result = (df['sqft'] > 2000).sum()"),
    ("How much did GDP grow in the 1990s?", "result = df[df.year == 1999]['gdp'].sum() / df[df.year == 1990]['gdp'].sum()"),
    ("How many were born in the 80s?", "result = ((df.birth_year >= 1980) & (df.birth_year < 1990)).sum()"),
    ("What were sales in the past 3 years?", "result = df[df['year'] >= 2022]['s'].sum()"),
    ("What were total sales in 2019 and 2020?", "result = df[(df.year == 2019) | (df.year == 2020)]['s'].sum()"),
    ("What were sales from Q1 2019 to Q4 2019?", "result = df[df.year == 2019]['s'].sum()"),
    ("How many students in 2019 dropped out?", "result = ((df.year == 2019) & df.dropped_out).sum()"),
    ("How many votes in Ohio were not counted?", "result = df[(df['state'] == 'Ohio') & ~df['counted']].shape[0]"),
    ("What was the average excluding 2009?", "df = df.drop(df[df['year'] == 2009].index)\nresult = df['v'].mean()"),
    ("What was the average excluding 2009?", "m = df['year'] == 2009\nresult = df[~m]['v'].mean()"),
    ("Which decade had the most?", "result = df.groupby((df['year'] // 10).astype(int) * 10)['x'].sum().idxmax()"),
])
def test_right_code_for_ordinary_questions_is_not_sent_back(question, code):
    """Found by a review of the rows checks: each of these was sent back once."""
    assert result_misfit(question, code, {"result_type": "int64", "result_str": "1950"}, ["Ohio", "Texas"]) is None


@pytest.mark.parametrize("shown,kind,columns", [
    ("['Jun', 'Jul']", "list", ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]),
    ("July", "str", ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]),
    ("{'year': 2018}", "dict", ["state", "pop_2015", "pop_2016", "pop_2017", "pop_2018"]),
])
def test_a_period_written_another_way_is_still_a_column(shown, kind, columns):
    question = "Which month had the most rain?" if "Jan" in columns else "Which year had the largest population?"
    assert result_misfit(question, "result = 1", {"result_type": kind, "result_str": shown}, columns=columns) is None


def test_a_year_given_only_as_a_format_example_asks_for_no_filter():
    question = "In which month did the index peak?\nConstraints: DATE gives the month as e.g. Jan-1-1995 (day 1)."
    code = "result = {'peak_month': df.loc[df['v'].idxmax(), 'DATE']}"
    assert result_misfit(question, code, {"result_type": "dict", "result_str": "{'peak_month': 'Dec-1-2007'}"}, ["Jan-1-1995"]) is None
    assert "1995" in result_misfit("What was the mean in 1995?", "result = df['v'].mean()", {"result_type": "float", "result_str": "2.0"})
    spelled = ("Which month was quietest?\nConstraints: Parse Date (like 19-Sep-03, which is 19 September 2003) and group "
               "the days by month.")  # batch H, seen: a right answer sent back for 2003
    assert result_misfit(spelled, code, {"result_type": "dict", "result_str": "{'peak_month': '2004-08'}"}) is None


@pytest.mark.parametrize("code,back", [
    ("slope, r_squared = np.polyfit(df['x'], df['y'], 1)\nresult = {'slope': slope, 'r_squared': r_squared}", True),
    ("model = np.polyfit(df['x'], df['y'], 1)\nb = model[0]\nr2 = model[1]\nresult = {'slope': b, 'r2': r2}", True),
    ("slope, intercept = np.polyfit(df['x'], df['y'], 1)\nr_squared = np.corrcoef(df['x'], df['y'])[0, 1] ** 2\n"
     "result = {'slope': slope, 'r_squared': r_squared}", False),
])
def test_a_polyfit_coefficient_taken_as_r_squared_goes_back(code, back):
    found = result_misfit("Fit a line; report the slope and R-squared.", code,
                          {"result_type": "dict", "result_str": "{'slope': -0.75, 'r_squared': 74.7}"})
    assert (found is not None and "np.corrcoef" in found) is back


def test_a_year_that_describes_a_column_asks_for_no_filter_in_a_table_without_dates():
    question = "Where does Texas rank by violent crime? Rank by VC100k96 (violent crimes per 100,000 residents in 1996)."
    code = "df['r'] = df['VC100k96'].rank(ascending=False)\nresult = {'rank': df.loc[df['STATE'] == 'Texas', 'r'].iloc[0]}"
    er = {"result_type": "dict", "result_str": "{'rank': 6.0}"}
    assert result_misfit(question, code, er, ["Texas"], ["STATE"], ["STATE", "VC100k96", "INCOME"]) is None
    assert "1996" in result_misfit(question, code, er, ["Texas"], ["STATE"], ["STATE", "year", "VC100k96"])


def test_a_year_that_ends_a_sentence_is_a_year():
    """"… in 1977." names 1977 (the full stop ends the sentence); "1977.5" and "1.1977" are numbers."""
    from dsagent.workflows.common.wording import YEAR

    assert YEAR.findall("What was the total in 1977.") == ["1977"]
    assert YEAR.findall("Totals for 1977. Then 1980?") == ["1977", "1980"]
    assert YEAR.findall("1977.5 and 1.1977 and 19770") == []
    er = {"result_type": "int", "result_str": "5"}
    assert "1977" in result_misfit("Count the rows of the year 1977.", "result = len(df)", er, columns=["year", "x"])


def test_a_year_or_label_that_bounds_describes_or_is_kept_whole_asks_no_filter():
    """Three shapes that had sent right answers back (batch J, seen): a label that ends a span
    ("one per quarter from 1960q1 to 1982q4"), a year that names a set of columns ("lw80 is the
    log wage in 1980" over columns s80, lw80, expr80), and a year said to be used as it is ("the
    last month (October 2008) holds only part of it and is used as it is")."""
    er = {"result_type": "int", "result_str": "30"}
    spans = "The rows run one per quarter from 1960q1 to 1982q4. For every quarter after 1960q1 count the falls."
    code = "result = int((df['inv'].diff() < 0).sum())"
    assert result_misfit(spans, code, er, ["1960q1", "1960q2", "1982q4"], columns=["qtr", "inv"]) is None
    assert "1960q2" in result_misfit("What was inv in 1960q2?", "result = df['inv'].iloc[1]", er, ["1960q1", "1960q2"],
                                     columns=["qtr", "inv"])
    wide = "lw80 is the log wage in 1980 and s80 the schooling in 1980. Regress lw80 on s80."
    columns = ["year", "s", "s80", "lw", "lw80", "expr80"]
    assert result_misfit(wide, "result = smf.ols('lw80 ~ s80', df).fit().params['s80']", er, columns=columns) is None
    assert "1980" in result_misfit("How many men were interviewed in 1980?", "result = len(df)", er, columns=["year", "s"])
    kept = ("Take the mean close per month; the last month (October 2008) holds only part of the month and is used "
            "as it is. Give the month with the highest mean.")
    grouped = "result = df.groupby(df['date'].str[:7])['close'].mean().idxmax()"
    assert result_misfit(kept, grouped, {"result_type": "str", "result_str": "2007-11"}, columns=["date", "close"]) is None


def test_which_group_answered_with_a_code_the_column_never_holds_is_sent_back():
    """"Which treatment group … give the drug code": 4 where drug holds 1, 2, 3 is a row number."""
    question = "Which treatment group has the longest average follow-up time? Give the drug code."
    values = {"drug": frozenset({1, 2, 3}), "died": frozenset({0, 1})}
    code = "result = df.groupby('drug')['studytime'].mean().reset_index()['studytime'].idxmax()"
    misfit = result_misfit(question, code, {"result_type": "int", "result_str": "4"}, values=values)
    assert misfit and "'drug' holds only 1, 2, 3" in misfit and "idxmax()" in misfit
    assert result_misfit(question, code, {"result_type": "int", "result_str": "3"}, values=values) is None  # a code it holds
    other = "How many patients were on drug 2 for the longest time?"  # no "which": a count may be anything
    assert result_misfit(other, code, {"result_type": "int", "result_str": "4"}, values=values) is None


def test_a_count_of_outliers_that_is_every_row_is_sent_back():
    question = "How many trading days had an unusual volume by the IQR rule?"
    every = result_misfit(question, "result = {'days': int(mask.sum())}", {"result_type": "dict", "result_str": "{'days': 1047}"},
                          rows=1047)
    assert every and "`days` is 1047, every row" in every
    lone = result_misfit(question, "result = int(mask.sum())", {"result_type": "int", "result_str": "1047"}, rows=1047)
    assert lone and "every row" in lone
    assert result_misfit(question, "result = int(mask.sum())", {"result_type": "int", "result_str": "60"}, rows=1047) is None
    assert result_misfit("How many trading days are there?", "result = len(df)", {"result_type": "int", "result_str": "1047"},
                         rows=1047) is None  # counting every row is right when no rule asks for unusual ones


def test_the_facts_hold_the_one_table_s_row_count():
    import pandas as pd

    from dsagent.workflows.common.mends.facts import mend_facts

    assert mend_facts({"a": pd.DataFrame({"x": range(12)})}).rows == 12
    assert mend_facts({"a": pd.DataFrame({"x": [1]}), "b": pd.DataFrame({"y": [2]})}).rows is None


def test_a_test_given_one_row_as_a_sample_is_sent_back():
    question = "Do the two instruments measure different average weights? Use Student's two-sample t-test."
    code = "t, p = stats.ttest_ind(df['AgWt'][0], df['AgWt'][1])\nresult = {'t_statistic': round(t, 4)}"
    misfit = result_misfit(question, code, {"result_type": "dict", "result_str": "{'t_statistic': nan}"})
    assert misfit and "one value as a sample" in misfit
    grouped = ("a = df.loc[df['Instrument'] == 1, 'AgWt']\nb = df.loc[df['Instrument'] == 2, 'AgWt']\n"
               "t, p = stats.ttest_ind(a, b)\nresult = {'t_statistic': round(t, 4)}")
    assert result_misfit(question, grouped, {"result_type": "dict", "result_str": "{'t_statistic': 3.9933}"}) is None
    listed = ("samples = [g['AgWt'] for _, g in df.groupby('Instrument')]\nt, p = stats.ttest_ind(samples[0], samples[1])\n"
              "result = {'t_statistic': round(t, 4)}")  # a list of the groups' samples
    assert result_misfit(question, listed, {"result_type": "dict", "result_str": "{'t_statistic': 3.9933}"}) is None


def test_an_answer_written_out_without_reading_the_data_is_sent_back():
    from dsagent.workflows.common.fit.sanity import written_out

    typed = written_out("result = {'steepest_fall_month': '2009-09'}")
    assert typed and typed.startswith("ResultNotComputed")
    assert written_out("result = {}\nresult['n'] = 3\nresult['label'] = 'x'")
    assert written_out("p = stats.ttest_ind(df['a'], df['b']).pvalue\nresult = 'differ' if p < 0.05 else 'same'") is None
    assert written_out("m = df['close'].mean()\nresult = {'mean': 3.5}") is None  # reads the data: other checks judge it
    assert written_out("rows = sql('SELECT 1')\nresult = 1") is None
    assert written_out("fig = px.bar(x=[1, 2], y=[3, 4])") is None  # no result at all: another check's


def test_a_quarter_named_without_its_year_is_sent_back_unless_the_time_of_year_was_asked():
    held = {"Series id": frozenset(["LNS"]), "Year": frozenset(range(1959, 2010)),
            "Period": frozenset(["Q01", "Q02", "Q03", "Q04"])}
    picked = "row = df.loc[df['Value'].idxmax()]\nresult = {'peak_quarter': row['Period']}"
    bare = {"result_type": "dict", "result_str": "{'peak_quarter': 'Q04'}"}
    sent = result_misfit("In which quarter was the unemployment rate at its highest?", picked, bare, values=held)
    assert sent and "'Q04', a Period label that every year in 'Year' has" in sent
    dated = {"result_type": "dict", "result_str": "{'peak_quarter': '1982-Q04'}"}
    assert result_misfit("In which quarter was the unemployment rate at its highest?", picked, dated, values=held) is None
    assert result_misfit("Which quarter of the year has the highest rate on average?", picked, bare, values=held) is None
    grouped = "result = df.groupby('Period')['Value'].mean().idxmax()"
    assert result_misfit("In which quarter is the rate highest?", grouped, {"result_type": "str", "result_str": "Q04"},
                         values=held) is None
    from dsagent.workflows.common.fit.labels import period_without_year

    assert period_without_year("In which quarter of 1982 was the rate highest?", picked, "dict", bare["result_str"], held) is None
    spanned = "The series runs from 1959 Q01 to 2009 Q03. In which quarter was the rate highest?"  # a year elsewhere
    assert period_without_year(spanned, picked, "dict", bare["result_str"], held) == ("Q04", "Period", "Year")
    one_year = {"Year": frozenset([2001]), "Period": held["Period"]}  # one year only: the label says it all
    assert result_misfit("In which quarter was the rate highest?", picked, bare, values=one_year) is None


def test_a_label_glossing_a_code_or_a_year_naming_a_column_asks_for_no_filter():
    """"written C (Cherbourg), Q (Queenstown) or S (Southampton)" glosses the codes a column holds,
    and "their 1996 values" in a table whose column says "1995-96" names a column: neither is rows to
    keep, so a code that never names them is left alone; a year in a table with a year column is not."""
    shown = {"result_type": "float", "result_str": "123"}
    glossed = "How many boarded at Queenstown? The port is written C (Cherbourg), Q (Queenstown) or S (Southampton)."
    code = "result = (df['port'] == 'Q').sum()"
    assert result_misfit(glossed, code, shown, ["Southampton", "Queenstown"]) is None
    assert "Southampton" in (result_misfit("How many boarded at Southampton?", code, shown, ["Southampton"]) or "")
    columns = ["Sector", "Value (million)", "Nominal increase in value 1995-96: per cent"]
    asked = "What were the sectors' exports worth in 1995, as implied by their 1996 values and growth rates?"
    code = "result = (df['Value (million)'] / (1 + df['Nominal increase in value 1995-96: per cent'] / 100)).sum()"
    assert result_misfit(asked, code, shown, columns=columns) is None
    assert result_misfit("What was the mean in 1996?", "result = df['v'].mean()", shown, columns=["year", "v"])


def test_counting_rows_where_a_rate_of_a_flag_column_is_asked_goes_back():
    """"Which port had the best chance of survival? … the share of its passengers with survived equal
    to 1" answered by the port with the most passengers: sent back to take the mean of 'survived'."""
    question = "Which port had the best chance of survival? For each port compute the share of its passengers with survived equal to 1."
    code = "result = df['port'].value_counts().idxmax()"
    cols = {"text_columns": ["port"], "columns": ["port", "survived", "Pclass"],
            "values": {"survived": frozenset({0, 1}), "Pclass": frozenset({1, 2, 3})}}
    finding = result_misfit(question, code, {"result_type": "str", "result_str": "S"}, **cols)
    assert finding and "'survived'" in finding and ".mean()" in finding
    right = "result = df.groupby('port')['survived'].mean().idxmax()"
    assert result_misfit(question, right, {"result_type": "str", "result_str": "C"}, **cols) is None
    assert result_misfit("Which port had the largest share of passengers?", code, {"result_type": "str", "result_str": "S"}, **cols) is None
    shares = {"result_type": "Series", "result_str": "3    0.54\n1    0.25\nName: Pclass, dtype: float64"}
    for asked, counted in [("What proportion of passengers travelled in each Pclass?", "result = df.Pclass.value_counts(normalize=True)"),
                           ("What percentage of the survivors were in each Pclass?",
                            "result = df[df.survived == 1].Pclass.value_counts(normalize=True) * 100")]:
        assert result_misfit(asked, counted, shares, **cols) is None, asked


@pytest.mark.parametrize("text, value, left_out", [
    ("The first two rows, United Kingdom and Scotland, are totals; leave them out and use the others.", "Scotland", True),
    ("The first row, Total, is a sum of the others, so drop it.", "Total", True),
    # a pronoun that names other rows of the value, not the value itself
    ("What is the mean income in Alaska, dropping those with missing income?", "Alaska", False),
    ("What was the average price in 2009, ignoring those with zero sales?", "2009", False),
    ("For Germany, compute the mean and exclude it if below zero.", "Germany", False),
])
def test_a_value_left_out_by_a_pronoun_only_when_the_pronoun_ends_its_clause(text, value, left_out):
    from dsagent.workflows.common.wording import excluded

    assert excluded(text, value) is left_out


def test_a_gloss_needs_a_list_of_codes_and_a_sequence_start_a_period():
    from dsagent.workflows.common.wording import bounds, glossed

    assert glossed("Written C (Cherbourg), Q (Queenstown) or S (Southampton).", "Southampton")
    assert not glossed("What was the total revenue of Germany (EUR)?", "Germany")  # a unit, not a code's meaning
    listed = "The scheme column writes EC for the European Community scheme and RSA for Regional Selective Assistance."
    assert glossed(listed, "EC") and glossed(listed, "RSA") and glossed(listed, "European Community")
    assert not glossed("What were the sales of Boston for the third quarter?", "Boston")
    assert not glossed("How many of the 10 for sale are in NY for April?", "NY")  # one code-shaped gloss at most
    assert not glossed("Compare the top 10 for Canada with the top 5 for Mexico.", "Canada")  # numbers are no codes here
    assert not glossed("Compare Q1 for Germany with Q2 for France.", "Germany")  # nor quarters
    usa = "The country column writes USA for the United States and GBR for the United Kingdom. What was the mean gdp of USA?"
    assert not glossed(usa, "USA", "result = df['gdp'].mean()")  # asked about, and the code uses neither side
    assert glossed(usa, "USA", "result = df.loc[df['name'] == 'United States', 'gdp'].mean()")
    assert bounds("so the first pair is 1947Q3 with 1947Q2", "1947Q3")
    assert not bounds("What is the average delay of flights starting in Denver?", "Denver")
    assert not bounds("Of the first ten orders, how many were Returned?", "Returned")


@pytest.mark.parametrize("question, labels", [
    # examples in brackets, a value "not counted", Student's t distribution of a correlation's p-value
    ("How many quarters fell? Compare each quarter with the one before (1947Q2 with 1947Q1, and so on); "
     "1947Q1 has no quarter before it and is not counted.", ["1947Q2", "1947Q1"]),
    ("Which region has the most zones? Take the text up to the first '/' (for example Europe for Europe/Andorra and "
     "America for America/Argentina/Buenos_Aires) and count the rows.", ["America/Argentina/Buenos_Aires"]),
])
def test_examples_in_brackets_and_values_not_counted_ask_for_no_filter(question, labels):
    """Batch O (seen): right codes sent back as "the question is about 1947Q2 / America/…"."""
    found = result_misfit(question, "result = int((df['v'].diff() < 0).sum())", {"result_type": "int", "result_str": "12"}, labels)
    assert found is None or "never uses" not in found


def test_students_t_distribution_of_a_correlation_is_no_t_test():
    question = "Give the Spearman correlation and its p-value, from the t approximation against Student's t distribution."
    code = "rho, p = stats.spearmanr(df['a'], df['b'])\nresult = {'rho': rho, 'p': p}"
    found = result_misfit(question, code, {"result_type": "dict", "result_str": "{'rho': 0.25, 'p': 0.17}"})
    assert found is None or "t-test" not in found
    assert "t-test" in (result_misfit("Run Student's t test of a against b.", "result = 1.0",
                                      {"result_type": "float", "result_str": "1.0"}) or "")


def test_a_year_whose_values_are_written_as_a_placeholder_is_left_out_by_value():
    """Batch O (seen): "the four quarters of 1947 are written 0" describes no rows to keep; code that
    drops the zeros leaves them out, code that keeps them is told to leave the year out."""
    from dsagent.workflows.common.wording import written_missing
    question = ("What is the mean unemployment rate over all quarters, to 2 decimals? "
                "The four quarters of 1947 are written 0 (not available).")
    er = {"result_type": "float", "result_str": "5.72"}
    columns = ["year", "quarter", "unemployment_rate"]
    dropped = "result = round(df.loc[df['unemployment_rate'] > 0, 'unemployment_rate'].mean(), 2)"
    assert result_misfit(question, dropped, er, columns=columns) is None
    kept = "result = round(df['unemployment_rate'].mean(), 2)"
    assert "leaves 1947 out" in (result_misfit(question, kept, er, columns=columns) or "")
    assert written_missing(question, "1947") == "0" and written_missing("2020 is recorded as '..' (not available).", "2020") == ".."
    assert result_misfit(question.replace("written 0", "written '..'"), kept, er, columns=columns) is None  # read as missing already
    for other, value in (("How many 2019 values are written as '..' (not available)?", "2019"),  # the question asks about them
                         ("The 1947 figures are written in thousands.", "1947"),
                         ("In 2020 many stores closed and their sales were recorded as 0. What were total sales in 2020?", "2020"),
                         ("Patients in the placebo group were given 0 mg, not available to others.", "placebo"),
                         ("Compute the mean of 2019 sales, where missing months are recorded as 0.", "2019")):
        assert written_missing(other, value) is None, other
    assert "leaves 1947 out" in (result_misfit(question, "result = round(df['unemployment_rate'].dropna().mean(), 2)", er,
                                                columns=columns) or "")  # dropna() keeps the 0s


def test_right_code_that_the_year_and_label_checks_had_sent_back_fits():
    """Shapes from an audit of the fit checks over 506 correct answers of the seen batches: a year
    inside a quoted format example, a year in a table whose only date-ish names are words inside
    other names ("Day nursery places", "Full-time pupils"), a data label that is a common word in
    another case ("How many" against a value 'Many'), and a year left out by the question's own rule
    that the code applies (complete groups, a lag's first row, missing values)."""
    shown = {"result_type": "float", "result_str": "81.5"}
    quoted = ('What was IBM\'s average price during 2005? Parse the date column (written like "Jan 1 2000"). '
              "Take the rows whose symbol is IBM and whose date falls in 2005.")
    code = "d = pd.to_datetime(df['date'], format='%b %d %Y')\nresult = df[(df['symbol'] == 'IBM') & (d.dt.year == 2005)]['price'].mean()"
    assert result_misfit(quoted, code, shown, ["IBM"], ["symbol", "date"], ["symbol", "date", "price"]) is None
    columns = ["Council", "Day nursery places", "Full-time pupils"]
    worded = "How many full-time pupils were there in 1996 across all councils?"
    assert result_misfit(worded, "result = df['Full-time pupils'].sum()", shown, ["Glasgow"], ["Council"], columns) is None
    assert "1996" in (result_misfit(worded, "result = df['v'].sum()", shown, [], [], ["Year", "v"]) or "")  # a Year column: rows
    assert "1996" in (result_misfit(worded, "result = df['v'].sum()", shown, [], [], ["release_date", "v"]) or "")
    common = "How many states have a rate above 5?"
    assert result_misfit(common, "result = int((df['rate'] > 5).sum())", shown, ["Many", "Few"], ["size"], ["size", "rate"]) is None
    assert "Alaska" in (result_misfit("What is the rate in Alaska?", "result = df['rate'].mean()", shown, ["Alaska"]) or "")
    assert "North" in (result_misfit("What is the rate in the 'north' region?", "result = df['rate'].mean()", shown, ["North"]) or "")
    complete = ("What is the mean of the yearly means? Use complete years only: 2009 has only three quarters and is left out.")
    kept = "n = df.groupby('year')['v'].count()\nm = df.groupby('year')['v'].mean()\nresult = m[n == 4].mean()"
    assert result_misfit(complete, kept, shown, columns=["year", "quarter", "v"]) is None
    assert "2009" in (result_misfit(complete, "result = df.groupby('year')['v'].mean().mean()", shown, columns=["year", "quarter", "v"]) or "")


def test_a_list_of_quoted_examples_asks_for_no_filter():
    """"do not merge different spellings such as 'AIRBUS' and 'AIRBUS INDUSTRIE'" (R 10227, seen):
    each value of the list is an example, so code that uses neither is not sent back."""
    question = ("Which manufacturer has the most planes? Count the rows per manufacturer exactly as written (do not merge "
                "different spellings such as 'AIRBUS' and 'AIRBUS INDUSTRIE').")
    code = "result = {'top': df['manufacturer'].value_counts().idxmax()}\n"
    found = result_misfit(question, code, {"result_type": "dict", "result_str": "{'top': 'BOEING'}"}, ["AIRBUS", "AIRBUS INDUSTRIE", "BOEING"])
    assert found is None or "never uses" not in found
    from dsagent.workflows.common.wording import without_examples

    assert "INDUSTRIE" not in without_examples(question) and "X" in without_examples("such as 'A', 'B' or 'C'. X")
    assert "Then" in without_examples("such as Jan and Then count")  # unquoted examples: only the first word
