"""Mends: code rewrites of a model's mistakes, one ordered registry per moment of the code step.

- **before the run** — :mod:`.before_run` (``BEFORE_RUN``): ``mend(code, facts) -> code``, applied
  to every freshly written code (a removed pandas/scikit-learn keyword, a dict that reads its own
  keys, a test's result unpacked the wrong way round, an import that can only fail, …);
- **after a misfit** — :mod:`.after_misfit` (``AFTER_MISFIT``): ``mend(question, code, tree,
  execution_result, facts) -> code | None``, tried when code ran but its ``result`` does not fit
  the question (``common.fit``); the mended code is run and kept only if it then fits;
- **on an error** — no code rewrites: an error's text gets a one-line hint where the sandbox forms
  it (``sandbox.api_drift``), and the model writes the fix.

:mod:`.facts` reads what the mends need to know of the data once per run. The code step
(``common.attempt``) applies both registries; each has its own test file in ``tests/workflows/common/mends/``.
"""

from dsagent.workflows.common.mends.after_misfit import AFTER_MISFIT, mend_chain, mend_misfit
from dsagent.workflows.common.mends.before_run import BEFORE_RUN, mend_before_run
from dsagent.workflows.common.mends.facts import MendFacts, mend_facts, run_facts

__all__ = ["AFTER_MISFIT", "BEFORE_RUN", "MendFacts", "mend_before_run", "mend_chain", "mend_facts", "mend_misfit",
           "run_facts"]
