"""Does the code's ``result`` fit the question? Checked by code, after a run that succeeded.

Code that runs can still answer another question: a Series of per-row values for "what is the
mean", ``idxmax()``'s row number for "which country", a chart stored as the answer, a question
about one year or one group answered over all rows. Each finding is said like an error, so the code
step gets it back and fixes it as it fixes an exception. The rules are about pandas and the
question's wording, never about a dataset.

- ``result``: :func:`result_misfit`, which runs every check below, and :func:`asks_one_value`;
- ``named``: each value of a dict of named values (``result = {'name': value}``);
- ``rows``: which rows the code keeps (a year, a group, a filter that keeps no row);
- ``sanity``: a result no question could want (None, NaN, a share above 100 %, a count of periods);
- ``stats``: the statistic or test the question names, and its options (ddof, Welch, a constant);
- ``cycle``: a month or a weekday taken from dates; ``wide``: a table with one column per period;
- ``labels``: row numbers turned into the names a "which …" question asks for.
"""

from dsagent.workflows.common.fit.labels import name_at_label, numbered_names, ranked_note, series_rows
from dsagent.workflows.common.fit.result import asks_one_value, decade_number, result_misfit

__all__ = ["asks_one_value", "decade_number", "name_at_label", "numbered_names", "ranked_note", "result_misfit",
           "series_rows"]
