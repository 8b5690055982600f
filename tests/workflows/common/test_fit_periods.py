"""A count of calendar periods that the data cannot hold is sent back (``fit_sanity.period_count_misfit``):
"how many months …" answered with a count of a daily table's rows. A length of time, a mean, a
count that fits, or code that groups by the period is left alone."""

from dsagent.workflows.common.fit import result_misfit
from dsagent.workflows.common.fit_sanity import period_count_misfit

DAILY = {"year": 5, "quarter": 17, "month": 50, "week": 215, "day": 1047}
MONTHLY = {"year": 12, "quarter": 48, "month": 144, "week": 144, "day": 144}
COUNTED = "df['Date'] = pd.to_datetime(df['Date'])\nresult = int((df['Close'] > 600).sum())\n"
BY_MONTH = "m = df.set_index('Date')['Close'].resample('ME').mean()\nresult = int((m > 600).sum())\n"


def test_more_months_than_the_data_covers_is_sent_back():
    found = period_count_misfit("How many months had a mean close above 600?", COUNTED, "int", "72", DAILY)
    assert found and "ResultOutOfRange" in found and "72" in found and "50 calendar months" in found
    named = period_count_misfit("How many calendar months had a mean close above 600?", BY_MONTH, "dict", "{'n': 72}", DAILY)
    assert named and "ResultOutOfRange" in named


def test_rows_finer_than_the_period_counted_without_grouping_are_sent_back():
    found = period_count_misfit("How many months had a mean close above 600?", COUNTED, "int", "4", DAILY)
    assert found and "never groups them by month" in found
    for grouped in (BY_MONTH, "result = int((df.groupby(df['Date'].str[:7])['Close'].mean() > 600).sum())\n",
                    "result = int((df.groupby(df['Date'].dt.to_period('M'))['Close'].mean() > 600).sum())\n"):
        assert period_count_misfit("How many months had a mean close above 600?", grouped, "int", "4", DAILY) is None, grouped
    # rows that are months already: counting rows counts months
    assert period_count_misfit("How many months had sales above 600?", COUNTED, "int", "40", MONTHLY) is None


def test_lengths_of_time_means_and_other_questions_are_left_alone():
    for question in ("How many days passed between the highest and the lowest close?",
                     "How many years of schooling does the average man have?",
                     "What is the average number of days between two peaks?",
                     "How many months long was the longest run of rises?",
                     "How many rows have a close above 600?"):
        assert period_count_misfit(question, COUNTED, "int", "2000", DAILY) is None, question
    assert period_count_misfit("How many months had a close above 600?", COUNTED, "int", "72", {}) is None  # no dates
    assert period_count_misfit("How many months had a close above 600?", COUNTED, "float", "4.5", DAILY) is None


def test_the_code_step_sends_it_back_through_result_misfit():
    found = result_misfit("How many months had a mean close above 600?", COUNTED, {"result_type": "int", "result_str": "72"},
                          text_columns=["Date"], columns=["Date", "Close"], periods=DAILY)
    assert found and "ResultOutOfRange" in found
    assert result_misfit("How many months had a mean close above 600?", COUNTED, {"result_type": "int", "result_str": "72"},
                         text_columns=["Date"], columns=["Date", "Close"]) is None
