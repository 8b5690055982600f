"""Imports that can only fail are dropped before the code runs (common/repair_imports.py)."""

from dsagent.workflows.common.code import extract_code
from dsagent.workflows.common.repair_imports import mend_imports

BODY = "r, p = stats.pearsonr(df['a'], df['b'])\nresult = {'r': round(r, 2)}\n"


def test_a_ready_name_imported_from_a_module_that_does_not_hold_it_is_dropped():
    code = "from plotly.graph_objects import go\nfrom plotly.io import go\nimport pandas as pd\n" + BODY
    assert mend_imports(code) == "import pandas as pd\n" + BODY


def test_an_import_from_a_module_not_installed_is_dropped_when_its_names_are_unused():
    code = "from plotly.template import plotly_white\nimport no_such_module_here\n" + BODY
    assert mend_imports(code) == BODY
    used = "import no_such_module_here as m\nresult = m.f()\n"
    assert mend_imports(used) == used  # its error says more than a NameError would


def test_right_imports_and_statements_that_share_a_line_or_a_block_are_kept():
    code = ("from plotly import express as px\nfrom plotly.subplots import make_subplots\nfrom scipy import stats\n"
            "from sklearn.linear_model import LinearRegression\nimport statsmodels.api as sm\n"
            "if True:\n    import no_such_module_here\nx = 1; import no_such_module_here\n" + BODY)
    assert mend_imports(code) == code


def test_only_the_failing_names_of_one_statement_go():
    assert mend_imports("from plotly.graph_objects import go, Figure\n" + BODY) == "from plotly.graph_objects import Figure\n" + BODY


def test_a_module_is_looked_up_without_running_it(monkeypatch):
    import sys

    before = set(sys.modules)
    mend_imports("from antigravity.sub import x\nimport this.that\n" + BODY)
    assert not {"antigravity", "this"} & (set(sys.modules) - before)


def test_the_code_step_mends_the_reply():
    reply = "```python\nimport pandas as pd\nfrom plotly.template import plotly_white\n" + BODY + "```"
    assert extract_code(reply) == "import pandas as pd\n" + BODY
