"""The engine under every workflow: one code step, one grounded explanation, the mends, the prompts.

Where a thing goes (one module each):

- **a new mend of model code** → :mod:`.mends`: before the run (``mends/before_run.py``,
  ``BEFORE_RUN``: ``mend(code, facts) -> code``) or after a misfit (``mends/after_misfit.py``,
  ``AFTER_MISFIT``), with its test in ``tests/workflows/common/mends/``; a hint on an error's text (no rewrite) goes
  to ``sandbox/api_drift.py``;
- **a new fit check** (a result that runs but does not answer the question) → :mod:`.fit`, or
  :mod:`.fit.named` for a check of each value of a dict of named values; which column a question's
  words or a key name is read in :mod:`.naming`;
- **a new grounding rule** (a claim of an explanation checked against the computed outputs) →
  :mod:`.grounding` (claims and numbers), :mod:`.computed` (what the outputs hold),
  :mod:`.rankings` (highest/lowest); a workflow calls them through :mod:`.grounded`
  (``ground_in_run`` for one explanation, ``ground_parts`` for a report's sections);
- **a new prompt rule** → :mod:`.prompting`: ``CODE_RULES`` when every code prompt needs it,
  ``_RECIPES`` when a question's words call for it; data in a prompt is fenced with
  :func:`.text.quote_data`;
- **a word list** code reads in a question or an explanation → :mod:`.wording`, nowhere else;
- **how an answer is verified** (an independent computation of the question, when it is started,
  what agreement marks it, what happens when none agrees) → :mod:`.verify`; a workflow starts the
  check (``start_check``) and marks its answer (``verify``), and every door shows the record's
  line (``reports.build.verification_line``).

The code step itself is :mod:`.attempt` (write → before-run mends → run → fit check → after-misfit
mends → verdict), built from :mod:`.code` (ask for code, extract it, run it, describe its output).
Other pieces: :mod:`.agreement` (two results agree), :mod:`.named` (what a question names of the
data), :mod:`.history` (the chat history a prompt carries), :mod:`.text` (clip and fence text; the
lowest module, imported by the others).
"""
