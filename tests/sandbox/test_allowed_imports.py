"""The per-execution import allow-list (seed 001: pandas, numpy, sklearn, matplotlib, seaborn)."""

from __future__ import annotations

from dataclasses import replace

from dsagent.sandbox import Sandbox
from dsagent.workflows.react.code_policy import ALLOWED_IMPORTS

from .conftest import TEST_LIMITS, assert_recovers

SLOW_IMPORTS = replace(TEST_LIMITS, wall_s=120.0)  # sklearn, matplotlib and seaborn on a cold worker


def test_a_refused_import_names_the_allowed_modules(sandbox: Sandbox) -> None:
    res = sandbox.run("import scipy.stats\nresult = 1", allowed_imports=ALLOWED_IMPORTS)
    assert not res.success
    assert "ImportError" in res.error and "'scipy.stats' is not allowed" in res.error
    assert "pandas, numpy, sklearn, matplotlib, seaborn" in res.error
    for module in ("plotly.express", "statsmodels.api", "os", "subprocess"):
        res = sandbox.run(f"import {module}", allowed_imports=ALLOWED_IMPORTS)
        assert not res.success and "is not allowed" in res.error, module
    res = sandbox.run("from scipy import stats", allowed_imports=ALLOWED_IMPORTS)
    assert not res.success and "'scipy' is not allowed" in res.error
    res = sandbox.run("__import__('plotly')", allowed_imports=ALLOWED_IMPORTS)
    assert not res.success and "is not allowed" in res.error


def test_allowed_imports_work_and_libraries_keep_their_own(sandbox: Sandbox) -> None:
    code = (
        "import pandas as pd\nimport numpy as np\nimport math, statistics, json\n"
        "from sklearn.linear_model import LinearRegression\nimport matplotlib.pyplot as plt\nimport seaborn as sns\n"
        # pandas itself uses scipy for a Spearman correlation: a library's import is not the cell's
        "rho = df[['amount']].assign(rank=[3, 1, 2]).corr(method='spearman').iloc[0, 1]\n"
        "model = LinearRegression().fit(df[['amount']], np.arange(3))\n"
        "result = round(float(rho), 3), round(math.sqrt(16)), statistics.mean([1, 2, 3])"
    )
    res = sandbox.run(code, SLOW_IMPORTS, allowed_imports=ALLOWED_IMPORTS)
    assert res.success, res.error
    assert res.result == "(-0.5, 4, 2)"


def test_preimported_names_of_other_modules_are_hidden_only_during_the_run(sandbox: Sandbox) -> None:
    res = sandbox.run("fig = px.bar(df, x='region', y='amount')", allowed_imports=ALLOWED_IMPORTS)
    assert not res.success and "NameError" in res.error and "'px'" in res.error
    # the next runs still work, with and without the allow-list
    assert_recovers(sandbox)
    res = sandbox.run("import scipy\nresult = scipy.__name__ + ' ' + px.__name__")
    assert res.success, res.error
    assert res.result == "scipy plotly.express"
    res = sandbox.run("result = int(df['amount'].sum())", allowed_imports=ALLOWED_IMPORTS)
    assert res.success and res.result == "60"
