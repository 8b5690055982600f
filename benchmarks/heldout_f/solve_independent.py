"""Second, independent solution of held-out batch F, written from the text of each question alone.

It does not share code with ``labels_f.py`` and is written in a different style: DuckDB SQL over
the CSV files for the data work (the wide El Nino table is unpivoted in SQL), and numpy arithmetic
written out by hand for the tests and fits (scipy is used only for the cumulative t distribution of
a p-value).

    .venv/bin/python benchmarks/heldout_f/solve_independent.py [TABLES_DIR]

writes ``independent_answers.jsonl`` (layout of a labels file) beside this file, unless a tables
folder is given, in which case it only prints the answers. Do not read this file before a
measurement of the batch.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

# heldout_common (in benchmarks/) has what the batches share; taken from it here: the command line,
# the DuckDB query helpers, the value formatting and the tie check, none of which computes an answer.
sys.path.append(str(Path(__file__).resolve().parents[1]))
import heldout_common  # noqa: E402
from heldout_common import dec, only_top  # noqa: E402

HERE = Path(__file__).resolve().parent
MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]


def _types(**columns: str) -> str:
    return heldout_common.column_types(columns.items())


DBL, INT, TXT = "DOUBLE", "INTEGER", "VARCHAR"
CSV_TYPES = {  # explicit column types: nothing is left to type sniffing
    "macrodata.csv": _types(year=INT, quarter=INT, realgdp=DBL, realcons=DBL, realinv=DBL, realgovt=DBL,
                            realdpi=DBL, cpi=DBL, m1=DBL, tbilrate=DBL, unemp=DBL, pop=DBL, infl=DBL, realint=DBL),
    "grunfeld.csv": _types(invest=DBL, value=DBL, capital=DBL, firm=TXT, year=INT),
    "elnino.csv": _types(YEAR=INT, **{m: DBL for m in MONTHS}),
    "statecrime.csv": _types(state=TXT, violent=DBL, murder=DBL, hs_grad=DBL, poverty=DBL, single=DBL, white=DBL,
                             urban=DBL),
    "fair.csv": _types(rate_marriage=DBL, age=DBL, yrs_married=DBL, children=DBL, religious=DBL, educ=DBL,
                       occupation=DBL, occupation_husb=DBL, affairs=DBL),
    "china_smoking.csv": _types(Location=TXT, smoking_yes_cancer_yes=INT, smoking_yes_cancer_no=INT,
                                smoking_no_cancer_yes=INT, smoking_no_cancer_no=INT),
    "sunspots.csv": _types(YEAR=INT, SUNACTIVITY=DBL),
    "nile.csv": _types(year=INT, volume=DBL),
    "anes96.csv": _types(popul=INT, TVnews=INT, selfLR=INT, ClinLR=INT, DoleLR=INT, PID=INT, age=INT, educ=INT,
                         income=INT, vote=INT),
}
VIEWS = {"macrodata.csv": "macro", "grunfeld.csv": "grun", "elnino.csv": "nino_wide", "statecrime.csv": "crime",
         "fair.csv": "fair", "china_smoking.csv": "china", "sunspots.csv": "sun", "nile.csv": "nile",
         "anes96.csv": "anes"}


class Tables(heldout_common.SqlTables):
    """One DuckDB connection with a view per table (macro, grun, nino_wide, crime, fair, china, sun,
    nile, anes) and two derived views: nino (El Nino unpivoted to year, month name, month number,
    temp) and macro_t (macro with a running quarter index t)."""

    def __init__(self, folder: Path):
        super().__init__()
        for file, view in VIEWS.items():
            path = heldout_common.sql_path(folder, file)
            self.con.execute(
                f"CREATE VIEW {view} AS SELECT * FROM read_csv('{path}', header=true, delim=',', quote='\"', "
                f"columns={CSV_TYPES[file]})"
            )
        cases = " ".join(f"WHEN '{m}' THEN {i + 1}" for i, m in enumerate(MONTHS))
        self.con.execute(
            f"CREATE VIEW nino AS SELECT YEAR AS y, month, CASE month {cases} END AS mno, temp "
            f"FROM (UNPIVOT nino_wide ON {', '.join(MONTHS)} INTO NAME month VALUE temp)"
        )
        self.con.execute("CREATE VIEW macro_t AS SELECT year * 4 + quarter AS t, * FROM macro")


def ols(x: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """(intercept, slope, R squared) of the least-squares line, from the normal equations."""
    xm, ym = x.mean(), y.mean()
    sxy = ((x - xm) * (y - ym)).sum()
    sxx = ((x - xm) ** 2).sum()
    slope = sxy / sxx
    intercept = ym - slope * xm
    resid = y - (intercept + slope * x)
    return intercept, slope, 1 - (resid**2).sum() / ((y - ym) ** 2).sum()


def t_two_sided_p(t: float, df: float) -> float:
    from scipy.stats import t as t_dist  # only the distribution function

    return float(2 * t_dist.sf(abs(t), df))


def solve(T: Tables) -> dict[int, list[list[str]]]:
    A: dict[int, list[list[str]]] = {}
    # --- easy
    A[9501] = [["states_above_15", str(T.one("SELECT count(*) FROM crime WHERE poverty > 15"))]]
    A[9502] = [["ibm_mean_invest", dec(T.one("SELECT avg(invest) FROM grun WHERE firm = 'IBM'"), 2)]]
    A[9503] = [["peak_quarter", only_top(T.rows(
        "SELECT year || 'Q' || quarter, unemp FROM macro ORDER BY unemp DESC"))]]
    A[9504] = [["quiet_years", str(T.one("SELECT count(*) FROM sun WHERE SUNACTIVITY < 10"))]]
    A[9505] = [["median_volume", dec(T.one("SELECT median(volume) FROM nile"), 1)]]
    A[9506] = [["pct_any_affair", dec(T.one(
        "SELECT 100.0 * count(*) FILTER (WHERE affairs > 0) / count(*) FROM fair"), 2)]]
    A[9507] = [["dole_voters", str(T.one("SELECT count(*) FROM anes WHERE vote = 1"))]]
    A[9508] = [["coolest_month_1997", only_top(T.rows(
        "SELECT month, -temp FROM nino WHERE y = 1997 ORDER BY temp ASC"))]]
    A[9509] = [["total_people", str(T.one(
        "SELECT sum(smoking_yes_cancer_yes + smoking_yes_cancer_no + smoking_no_cancer_yes + smoking_no_cancer_no) "
        "FROM china"))]]
    A[9510] = [["safest_state", only_top(T.rows("SELECT state, -violent FROM crime ORDER BY violent ASC"))]]
    # --- medium
    firms = T.rows("SELECT firm, sum(invest) AS s FROM grun GROUP BY firm ORDER BY s DESC")
    assert firms[2][1] != firms[3][1]
    A[9511] = [["top3_firms", ", ".join(f for f, _ in firms[:3])]]
    A[9512] = [["worst_year", str(only_top(T.rows(
        "SELECT year, avg(unemp) AS a FROM macro GROUP BY year HAVING count(*) = 4 ORDER BY a DESC")))]]
    A[9513] = [["pct_affair_very_poor", dec(T.one(
        "SELECT 100.0 * count(*) FILTER (WHERE affairs > 0) / count(*) FROM fair WHERE rate_marriage = 1"), 2)]]
    A[9514] = [["r_poverty_murder", dec(T.one("SELECT corr(poverty, murder) FROM crime"), 4)]]
    A[9515] = [["pct_clinton_strong_rep", dec(T.one(
        "SELECT 100.0 * count(*) FILTER (WHERE vote = 0) / count(*) FROM anes WHERE PID = 6"), 2)]]
    A[9516] = [["top_decade", str(only_top(T.rows(
        "SELECT (YEAR // 10) * 10 AS decade, avg(SUNACTIVITY) AS a FROM sun GROUP BY decade ORDER BY a DESC")))]]
    A[9517] = [["year_biggest_drop", str(only_top(T.rows(
        "SELECT year, -(volume - lag(volume) OVER (ORDER BY year)) AS drop FROM nile "
        "QUALIFY lag(volume) OVER (ORDER BY year) IS NOT NULL ORDER BY drop DESC")))]]
    A[9518] = [["warmest_month", only_top(T.rows(
        "SELECT month, avg(temp) AS a FROM nino GROUP BY month ORDER BY a DESC"))]]
    A[9519] = [["gdp_growth_pct", dec(T.one(
        "SELECT 100 * ((SELECT realgdp FROM macro WHERE year = 2009 AND quarter = 3) / "
        "(SELECT realgdp FROM macro WHERE year = 1959 AND quarter = 1) - 1)"), 2)]]
    A[9520] = [["ge_value_change_pct", dec(T.one(
        "SELECT 100 * (max(value) FILTER (WHERE year = 1954) / max(value) FILTER (WHERE year = 1935) - 1) "
        "FROM grun WHERE firm = 'General Electric'"), 2)]]
    A[9521] = [["city", only_top(T.rows(
        "SELECT Location, smoking_yes_cancer_yes / (smoking_yes_cancer_yes + smoking_no_cancer_yes) AS s "
        "FROM china ORDER BY s DESC"))]]
    A[9522] = [["educ_occupation_pairs", str(T.one(
        "SELECT count(*) FROM (SELECT DISTINCT educ, occupation FROM fair)"))]]
    A[9523] = [["murder_outliers", str(T.one(
        "SELECT count(*) FROM crime, (SELECT avg(murder) AS mu, stddev_samp(murder) AS sd FROM crime) "
        "WHERE abs(murder - mu) / sd > 2"))]]
    A[9524] = [["falling_quarters", str(T.one(
        "SELECT count(*) FROM (SELECT realgdp < lag(realgdp) OVER (ORDER BY t) AS fell FROM macro_t) WHERE fell"))]]
    A[9525] = [["educ_code", str(only_top(T.rows(
        "SELECT educ, avg(age) AS a FROM anes GROUP BY educ ORDER BY a DESC")))]]
    A[9526] = [["iqr_outliers", str(T.one(
        "WITH q AS (SELECT quantile_cont(SUNACTIVITY, 0.25) AS q1, quantile_cont(SUNACTIVITY, 0.75) AS q3 FROM sun) "
        "SELECT count(*) FROM sun, q WHERE SUNACTIVITY < q1 - 1.5 * (q3 - q1) OR SUNACTIVITY > q3 + 1.5 * (q3 - q1)"))]]
    # --- hard
    yes = T.col("SELECT age FROM fair WHERE affairs > 0")
    no = T.col("SELECT age FROM fair WHERE affairs = 0")
    v1, v2 = yes.var(ddof=1) / len(yes), no.var(ddof=1) / len(no)
    t = (yes.mean() - no.mean()) / np.sqrt(v1 + v2)
    df = (v1 + v2) ** 2 / (v1**2 / (len(yes) - 1) + v2**2 / (len(no) - 1))
    A[9527] = [["t_statistic", dec(t, 4)], ["significant", "yes" if t_two_sided_p(t, df) < 0.05 else "no"]]

    cells = T.rows("SELECT religious, affairs > 0 AS any_affair, count(*) FROM fair GROUP BY ALL")
    rel = sorted({r for r, _, _ in cells})
    obs = np.zeros((len(rel), 2))
    for r, a, n in cells:
        obs[rel.index(r), int(a)] = n
    expected = obs.sum(1, keepdims=True) * obs.sum(0, keepdims=True) / obs.sum()
    A[9528] = [["chi2", dec(((obs - expected) ** 2 / expected).sum(), 2)],
               ["dof", str((obs.shape[0] - 1) * (obs.shape[1] - 1))]]

    A[9529] = [["mh_odds_ratio", dec(T.one(
        "WITH c AS (SELECT smoking_yes_cancer_yes::DOUBLE AS a, smoking_yes_cancer_no::DOUBLE AS b, "
        "smoking_no_cancer_yes::DOUBLE AS c, smoking_no_cancer_no::DOUBLE AS d FROM china) "
        "SELECT sum(a * d / (a + b + c + d)) / sum(b * c / (a + b + c + d)) FROM c"), 4)]]

    growth = T.rows(
        "WITH y AS (SELECT year, avg(realgdp) AS g FROM macro GROUP BY year HAVING count(*) = 4) "
        "SELECT year, 100 * (g / lag(g) OVER (ORDER BY year) - 1) AS pct FROM y "
        "QUALIFY lag(g) OVER (ORDER BY year) IS NOT NULL ORDER BY pct DESC")
    A[9530] = [["year", str(only_top(growth))], ["growth_pct", dec(growth[0][1], 2)]]

    pairs = np.array(T.rows(
        "SELECT 100 * (realgdp / lag(realgdp) OVER w - 1), unemp - lag(unemp) OVER w FROM macro_t "
        "WINDOW w AS (ORDER BY t) QUALIFY lag(realgdp) OVER w IS NOT NULL"))
    assert pairs.shape == (202, 2)
    a, b, _ = ols(pairs[:, 0], pairs[:, 1])
    A[9531] = [["slope", dec(b, 4)], ["intercept", dec(a, 4)]]

    slopes = []
    for (firm,) in T.rows("SELECT DISTINCT firm FROM grun"):
        xy = np.array(T.rows(f"SELECT value, invest FROM grun WHERE firm = '{firm}' ORDER BY year"))
        assert len(xy) == 20
        slopes.append((firm, ols(xy[:, 0], xy[:, 1])[1]))
    A[9532] = [["firm", only_top(sorted(slopes, key=lambda r: -r[1]))]]

    share = T.rows(
        "SELECT year, 100 * sum(invest) FILTER (WHERE firm = 'General Motors') / sum(invest) AS s "
        "FROM grun GROUP BY year ORDER BY s DESC")
    A[9533] = [["year", str(only_top(share))], ["gm_share_pct", dec(share[0][1], 2)]]

    A[9534] = [["warm_readings", str(T.one(
        "SELECT count(*) FROM nino, (SELECT avg(temp) AS mu, stddev_samp(temp) AS sd, count(*) AS n FROM nino) "
        "WHERE n = 732 AND temp > mu + 2 * sd"))]]

    anomaly = T.rows(
        "SELECT y, mno, temp - avg(temp) OVER (PARTITION BY month) AS an FROM nino ORDER BY an DESC")
    top = only_top([((y, m), an) for y, m, an in anomaly])
    A[9535] = [["peak_anomaly", f"{top[0]}-{top[1]:02d}"]]

    A[9536] = [["centre_year", str(only_top(T.rows(
        "SELECT YEAR, avg(SUNACTIVITY) OVER w AS a FROM sun "
        "WINDOW w AS (ORDER BY YEAR ROWS BETWEEN 5 PRECEDING AND 5 FOLLOWING) "
        "QUALIFY count(*) OVER w = 11 ORDER BY a DESC")))]]

    early = T.col("SELECT volume FROM nile WHERE year BETWEEN 1871 AND 1897")
    late = T.col("SELECT volume FROM nile WHERE year BETWEEN 1898 AND 1970")
    n1, n2 = len(early), len(late)
    assert (n1, n2) == (27, 73)
    pooled = ((n1 - 1) * early.var(ddof=1) + (n2 - 1) * late.var(ddof=1)) / (n1 + n2 - 2)
    A[9537] = [["t_statistic", dec((early.mean() - late.mean()) / np.sqrt(pooled * (1 / n1 + 1 / n2)), 3)]]

    xy = np.array(T.rows("SELECT single, violent FROM crime WHERE state <> 'District of Columbia'"))
    assert len(xy) == 50
    _, b, r2 = ols(xy[:, 0], xy[:, 1])
    A[9538] = [["slope", dec(b, 3)], ["r_squared", dec(r2, 4)]]

    A[9539] = [["closer_to_dole_vote_clinton", str(T.one(
        "SELECT count(*) FROM anes WHERE abs(selfLR - DoleLR) < abs(selfLR - ClinLR) AND vote = 0"))]]

    A[9540] = [["occupation_code", str(int(only_top(T.rows(
        "SELECT occupation, avg(CASE WHEN affairs > 0 THEN 1.0 ELSE 0.0 END) AS p FROM fair "
        "GROUP BY occupation ORDER BY p DESC"))))]]
    return A


if __name__ == "__main__":
    heldout_common.run_solver(sys.argv[1:], HERE, solve, Tables)
