"""code_exec's static check (the seed's allowed libraries) and the outputs read off the code."""

from dsagent.workflows.react.code_policy import ALLOWED_IMPORTS, check_code, expected_outputs


def test_allowed_libraries_and_harmless_standard_modules_pass():
    code = ("import pandas as pd\nimport numpy as np\nfrom sklearn.cluster import KMeans\nimport matplotlib.pyplot as plt\n"
            "import seaborn as sns\nimport math, statistics, datetime, re, json, collections, itertools, functools\n"
            "from __future__ import annotations\nresult = 1")
    assert check_code(code) is None
    assert {"pandas", "numpy", "sklearn", "matplotlib", "seaborn"} <= set(ALLOWED_IMPORTS)


def test_other_libraries_are_refused_with_a_clear_error():
    for code in ("import scipy.stats", "from statsmodels.formula.api import ols", "import plotly.express as px",
                 "import os", "import subprocess", "m = __import__('scipy')"):
        error = check_code(code)
        assert error and error.startswith("ImportError: this workflow does not allow"), code
        assert "Use only pandas, numpy, sklearn, matplotlib, seaborn" in error
    assert "scipy.stats, os" in check_code("import scipy.stats\nimport os\nimport scipy.stats")


def test_a_refused_statistics_library_comes_with_what_to_use_instead():
    for code in ("from scipy.stats import skew", "import statsmodels.api as sm", "r = stats.skew(df['a'])"):
        assert "Without scipy: s.skew()" in check_code(code), code
    assert "Without scipy" not in check_code("import plotly.express as px")
    assert "Without scipy" not in check_code("fig = px.bar(df, x='a')")


def test_preimported_names_of_other_libraries_are_refused_unless_the_code_binds_them():
    error = check_code("fig = px.bar(df, x='a')\nr = stats.ttest_ind([1], [2])")
    assert error.startswith("NameError: px (plotly), stats (scipy) is not available")
    assert check_code("stats = df.describe()\nresult = stats") is None
    assert check_code("def f(go):\n    return go\nresult = f(1)") is None


def test_a_syntax_error_is_left_to_the_sandbox():
    assert check_code("result = (") is None


def test_expected_outputs_name_the_saved_files_with_their_titles():
    code = (
        "fig, ax = plt.subplots()\nax.set_title('Units by region')\nplt.savefig('units.png')\nplt.close()\n"
        "plt.figure()\nplt.savefig(fname='second.png')\n"
        "plt.title('月別')\nplt.savefig('monthly.png')\n"
        "df.to_csv('summary.csv')\nplt.savefig(name)\n"
    )
    outputs = [(o.file_name, o.description, o.output_type) for o in expected_outputs(code, "the step")]
    assert outputs == [("units.png", "Units by region", "figure"), ("second.png", "the step", "figure"),
                       ("monthly.png", "月別", "figure"), ("summary.csv", "the step", "table")]
    assert expected_outputs("x = (", "s") == []
