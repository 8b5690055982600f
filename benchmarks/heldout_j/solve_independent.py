"""Second, independent solution of held-out batch J, written from the text of each question alone.

It does not share code with ``labels_j.py`` and is written in a different style: DuckDB SQL over
the CSV files for the data work (explicit column names and types, header rows skipped, empty cells
read as missing, ISO dates parsed with strptime, the Stata-style ``1960q1`` and ``1972m1`` periods
taken apart with ``split_part``, calendar parts with SQL date functions, medians and quartiles with
``quantile_cont``, month-end values with ``arg_max``, lags and average ranks as window functions,
the pastes table pivoted with conditional aggregates, the wide wages table made long with
``UNION ALL``, a year-on-year change as a self-join), and the statistics written out by hand with
numpy and the standard library: the least-squares fits from the normal equations, the chi-square
statistic from expected counts, the Mann-Whitney U and its tie-corrected normal approximation, the
Kruskal-Wallis H with its tie correction (the chi-square tail with 2 degrees of freedom is
``exp(-H / 2)``), the one-way ANOVA F from sums of squares, the Kaplan-Meier product and the Welch
statistic with its degrees of freedom (scipy is used only for the t distribution's tail).

    .venv/bin/python benchmarks/heldout_j/solve_independent.py [TABLES_DIR]

writes ``independent_answers.jsonl`` (layout of a labels file) beside this file, unless a tables
folder is given, in which case it only prints the answers. Do not read this file before a
measurement of the batch.
"""

from __future__ import annotations

import math
import sys
from functools import partial
from pathlib import Path

import numpy as np

# heldout_common (in benchmarks/) has what the batches share; taken from it here: the command line,
# the DuckDB query helpers, the value formatting and the tie check, none of which computes an answer.
sys.path.append(str(Path(__file__).resolve().parents[1]))
import heldout_common  # noqa: E402
from heldout_common import dec_refusing_halves as dec  # noqa: E402

# I's and J's tie check also wants a runner-up
only_top = partial(heldout_common.only_top, runner_up=True)

HERE = Path(__file__).resolve().parent
DBL, INT, BIG, TXT = "DOUBLE", "INTEGER", "BIGINT", "VARCHAR"

# file -> (table name, [(column, type), ...]); every table is read without its header line, with
# the names and types given here (``order`` of the births table is called birth_order).
FILES = {
    "births.csv": ("bi", [("bweight", INT), ("mmarried", TXT), ("mhisp", INT), ("fhisp", INT), ("foreign_born", INT),
                          ("alcohol", INT), ("deadkids", INT), ("mage", INT), ("medu", INT), ("fage", INT),
                          ("fedu", INT), ("nprenatal", INT), ("monthslb", INT), ("birth_order", INT),
                          ("msmoke", TXT), ("mbsmoke", TXT), ("mrace", INT), ("frace", INT), ("prenatal", INT),
                          ("birthmonth", INT), ("lbweight", INT), ("fbaby", TXT), ("prenatal1", TXT),
                          ("smoker01", INT), ("married01", INT), ("fbaby01", INT), ("prenatal101", INT),
                          ("mage2", DBL)]),
    "doctor_visits.csv": ("dv", [("offer", INT), ("ssiratio", DBL), ("age", INT), ("educyr", INT),
                                 ("physician", INT), ("nonphysician", INT), ("medicaid", INT), ("private", INT),
                                 ("female", INT), ("phylim", INT), ("actlim", INT), ("income", DBL),
                                 ("totchr", INT), ("insured", INT), ("age2", INT), ("linc", DBL), ("bh", INT),
                                 ("docvis", INT), ("ldocvis", DBL), ("ldocvisa", DBL), ("docbin", INT),
                                 ("aget", DBL), ("aget2", DBL), ("incomet", DBL)]),
    "bone_marrow.csv": ("bm", [("grp", TXT), ("t", INT), ("status", INT)]),
    "pastes.csv": ("pa", [("rn", INT), ("strength", DBL), ("batch", TXT), ("cask", TXT), ("sample", TXT)]),
    "heart_transplant.csv": ("ht", [("survival", DBL), ("censors", DBL), ("age", DBL)]),
    "google_prices.csv": ("gp_raw", [("date", TXT), ("open", DBL), ("high", DBL), ("low", DBL), ("close", DBL),
                                     ("volume", BIG), ("adj_close", DBL)]),
    "german_macro.csv": ("gm_raw", [("inv", INT), ("inc", INT), ("consump", INT), ("qtr", TXT), ("ln_inv", DBL),
                                    ("dln_inv", DBL), ("ln_inc", DBL), ("dln_inc", DBL), ("ln_consump", DBL),
                                    ("dln_consump", DBL)]),
    "manufacturing.csv": ("mf_raw", [("month", TXT), ("hours", DBL), ("caputil", DBL), ("lncaputil", DBL),
                                     ("lnhours", DBL)]),
    "young_men_wages.csv": ("yw", [(name, DBL) for name in (
        "rns", "rns80", "mrt", "mrt80", "smsa", "smsa80", "med", "iq", "kww", "year", "age", "age80", "s", "s80",
        "expr", "expr80", "tenure", "tenure80", "lw", "lw80")]),
}


class Tables(heldout_common.SqlTables):
    """One DuckDB connection with a table per file and derived views: gp (trading days with a parsed
    date ``d`` and month key ``ym``), gm (quarters with integer year ``yr`` and quarter ``q``), mf
    (months with integer year ``yr``, month ``mo`` and a running index ``k``), gy (German yearly
    sums), me (Google month-end closes with the month's return)."""

    def __init__(self, folder: Path):
        super().__init__()
        self.con.execute("SET threads = 1")
        for file, (table, columns) in FILES.items():
            path = heldout_common.sql_path(folder, file)
            spec = heldout_common.column_types(columns)
            self.con.execute(
                f"CREATE TABLE {table} AS SELECT * FROM read_csv('{path}', header=false, skip=1, delim=',', "
                f"quote='\"', nullstr='', columns={spec})")
        self.con.execute(
            "CREATE VIEW gp AS SELECT CAST(strptime(date, '%Y-%m-%d') AS DATE) AS d, "
            "strftime(CAST(strptime(date, '%Y-%m-%d') AS DATE), '%Y-%m') AS ym, close, volume FROM gp_raw")
        self.con.execute(
            "CREATE VIEW gm AS SELECT CAST(split_part(qtr, 'q', 1) AS INTEGER) AS yr, "
            "CAST(split_part(qtr, 'q', 2) AS INTEGER) AS q, * FROM gm_raw")
        self.con.execute(
            "CREATE VIEW mf AS SELECT CAST(split_part(month, 'm', 1) AS INTEGER) AS yr, "
            "CAST(split_part(month, 'm', 2) AS INTEGER) AS mo, "
            "CAST(split_part(month, 'm', 1) AS INTEGER) * 12 + CAST(split_part(month, 'm', 2) AS INTEGER) AS k, "
            "* FROM mf_raw")
        self.con.execute(
            "CREATE VIEW gy AS SELECT yr, sum(inc) AS inc, sum(consump) AS consump, sum(inv) AS inv, "
            "count(*) AS n FROM gm GROUP BY yr")
        self.con.execute(
            "CREATE VIEW me AS SELECT ym, c, 100 * (c / lag(c) OVER (ORDER BY ym) - 1) AS ret FROM "
            "(SELECT ym, arg_max(close, d) AS c FROM gp GROUP BY ym)")


def least_squares(data: np.ndarray) -> np.ndarray:
    """Normal equations: column 0 of ``data`` is y, the others the regressors (an intercept is added)."""
    y = data[:, 0]
    X = np.hstack([np.ones((len(y), 1)), data[:, 1:]])
    return np.linalg.solve(X.T @ X, X.T @ y)


def welch(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    from scipy.stats import t as t_dist

    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    t = (a.mean() - b.mean()) / np.sqrt(va + vb)
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    return float(t), float(2 * t_dist.sf(abs(t), df))


def ranked(T: Tables, sql: str) -> str:
    """SQL of (g, x, r): the rows of ``sql`` (columns g, x) with the average rank r of x over all rows."""
    return (f"SELECT g, x, rank() OVER (ORDER BY x) + (count(*) OVER (PARTITION BY x) - 1) / 2.0 AS r "
            f"FROM ({sql})")


def tie_sum(T: Tables, sql: str) -> float:
    """Sum of t^3 - t over the groups of tied x values of ``sql`` (column x)."""
    return float(T.one(f"SELECT coalesce(sum(c * c * c - c), 0) FROM (SELECT count(*)::DOUBLE c FROM ({sql}) "
                       "GROUP BY x)"))


def mann_whitney(T: Tables, sql: str) -> tuple[float, float]:
    """U of group 1 and the two-sided asymptotic p-value (tie and continuity corrected); ``sql`` has
    columns g (1 or 2) and x."""
    n1, n2, r1 = T.rows(f"SELECT count(*) FILTER (WHERE g = 1), count(*) FILTER (WHERE g = 2), "
                        f"sum(r) FILTER (WHERE g = 1) FROM ({ranked(T, sql)})")[0]
    n = n1 + n2
    u1 = float(r1) - n1 * (n1 + 1) / 2
    u2 = n1 * n2 - u1
    mu = n1 * n2 / 2
    sigma = math.sqrt(n1 * n2 / 12 * ((n + 1) - tie_sum(T, sql) / (n * (n - 1))))
    z = (max(u1, u2) - mu - 0.5) / sigma
    return u1, min(1.0, math.erfc(z / math.sqrt(2)))


def kruskal_wallis(T: Tables, sql: str) -> tuple[float, float]:
    """H (tie corrected) and its p-value for three groups (chi-square tail with 2 df = exp(-H/2))."""
    groups = T.rows(f"SELECT g, count(*), sum(r) FROM ({ranked(T, sql)}) GROUP BY g")
    assert len(groups) == 3
    n = sum(c for _, c, _ in groups)
    h = 12 / (n * (n + 1)) * sum(float(s) ** 2 / c for _, c, s in groups) - 3 * (n + 1)
    h /= 1 - tie_sum(T, sql) / (n**3 - n)
    return h, math.exp(-h / 2)


def solve(T: Tables) -> dict[int, list[list[str]]]:
    A: dict[int, list[list[str]]] = {}
    assert T.rows("SELECT count(*) FROM bi") == [(4642,)] and T.rows("SELECT count(*) FROM yw") == [(758,)]
    # ------------------------------------------------------------ easy
    A[9901] = [["unmarried_teen_births", str(T.one(
        "SELECT count(*) FROM bi WHERE mage < 20 AND mmarried = 'notmarried'"))]]
    A[9902] = [["median_doctor_visits", dec(T.one("SELECT quantile_cont(docvis, 0.5) FROM dv"), 1)]]
    A[9903] = [["high_risk_events", str(T.one(
        "SELECT count(*) FROM bm WHERE grp = 'AML-High Risk' AND status = 1"))]]
    A[9904] = [["busiest_day", only_top(T.rows(
        "SELECT strftime(d, '%Y-%m-%d'), volume FROM gp ORDER BY volume DESC"))]]
    A[9905] = [["lowest_utilization_month", only_top([(m, -c) for m, c in T.rows(
        "SELECT month, caputil FROM mf ORDER BY caputil ASC")])]]
    A[9906] = [["married_pct", dec(T.one("SELECT 100.0 * count(*) FILTER (WHERE mrt = 1) / count(*) FROM yw"), 2)]]
    A[9907] = [["mean_age", dec(T.one("SELECT avg(age) FROM ht"), 2)]]
    A[9908] = [["strength_sd", dec(T.one("SELECT stddev_samp(strength) FROM pa"), 3)]]
    A[9909] = [["peak_investment_quarter", only_top(T.rows("SELECT qtr, inv FROM gm ORDER BY inv DESC"))]]
    A[9910] = [["first_baby_mean_weight", dec(T.one("SELECT avg(bweight) FROM bi WHERE fbaby = 'Yes'"), 2)]]
    # ------------------------------------------------------------ medium
    A[9911] = [["unmarried_smoker_pct", dec(T.one(
        "SELECT 100.0 * count(*) FILTER (WHERE mbsmoke = 'smoker') / count(*) FROM bi "
        "WHERE mmarried = 'notmarried'"), 2)]]
    levels = T.rows("SELECT msmoke, avg(bweight) m FROM bi GROUP BY msmoke ORDER BY m ASC")
    A[9912] = [["lightest_smoking_level", only_top([(k, -m) for k, m in levels])],
               ["mean_weight", dec(levels[0][1], 2)]]
    A[9913] = [["busiest_chronic_count", str(only_top(T.rows(
        "SELECT totchr, avg(docvis) m FROM dv GROUP BY totchr HAVING count(*) >= 100 ORDER BY m DESC")))]]
    A[9914] = [["women_no_visit_pct", dec(T.one(
        "SELECT 100.0 * count(*) FILTER (WHERE docvis = 0) / count(*) FROM dv WHERE female = 1"), 2)]]
    A[9915] = [["fastest_event_group", only_top([(g, -m) for g, m in T.rows(
        "SELECT grp, quantile_cont(t, 0.5) m FROM bm WHERE status = 1 GROUP BY grp ORDER BY m ASC")])]]
    A[9916] = [["peak_month", only_top(T.rows("SELECT ym, avg(close) m FROM gp GROUP BY ym ORDER BY m DESC"))]]
    A[9917] = [["growth_2006_pct", dec(T.one(
        "SELECT 100 * (max_by(close, d) FILTER (WHERE year(d) = 2006) / "
        "max_by(close, d) FILTER (WHERE year(d) = 2005) - 1) FROM gp"), 2)]]
    assert T.rows("SELECT count(*), min(n), max(n) FROM (SELECT yr, count(*) n FROM mf GROUP BY yr)") == [(37, 12, 12)]
    A[9918] = [["weakest_year", str(only_top([(y, -m) for y, m in T.rows(
        "SELECT yr, avg(caputil) m FROM mf GROUP BY yr ORDER BY m ASC")]))]]
    A[9919] = [["hours_utilization_r", dec(T.one("SELECT corr(hours, caputil) FROM mf"), 4)]]
    assert T.one("SELECT min(n) = 4 AND max(n) = 4 FROM gy")
    A[9920] = [["consumption_growth_pct", dec(T.one(
        "SELECT 100 * (a.consump / b.consump - 1) FROM gy a, gy b WHERE a.yr = 1980 AND b.yr = 1970"), 2)]]
    A[9921] = [["left_south_pct", dec(T.one(
        "SELECT 100.0 * count(*) FILTER (WHERE rns80 = 0) / count(*) FROM yw WHERE rns = 1"), 2)]]
    A[9922] = [["more_schooling", str(T.one("SELECT count(*) FROM yw WHERE s80 > s"))]]
    A[9923] = [["median_survival_days", dec(T.one(
        "SELECT quantile_cont(survival, 0.5) FROM ht WHERE censors = 1"), 1)]]
    A[9924] = [["cask_a_stronger", str(T.one(
        "SELECT count(*) FROM (SELECT batch, avg(strength) FILTER (WHERE cask = 'a') AS a, "
        "avg(strength) FILTER (WHERE cask = 'c') AS c FROM pa GROUP BY batch) WHERE a > c"))]]
    A[9925] = [["months_above_600", str(T.one("SELECT count(DISTINCT ym) FROM gp WHERE close > 600"))]]
    A[9926] = [["investment_falls", str(T.one(
        "SELECT count(*) FROM (SELECT inv - lag(inv) OVER (ORDER BY yr, q) AS ch FROM gm) WHERE ch < 0"))]]
    # ------------------------------------------------------------ hard
    counts = T.array(
        "SELECT count(*) FILTER (WHERE lbweight = 0), count(*) FILTER (WHERE lbweight = 1) FROM bi GROUP BY msmoke")
    assert counts.shape == (4, 2)
    expected = np.outer(counts.sum(axis=1), counts.sum(axis=0)) / counts.sum()
    A[9927] = [["chi_square", dec(float(((counts - expected) ** 2 / expected).sum()), 2)]]
    beta = least_squares(T.array("SELECT bweight, mage, medu, CASE WHEN mbsmoke = 'smoker' THEN 1 ELSE 0 END FROM bi"))
    A[9928] = [["smoking_coefficient", dec(beta[3], 2)]]
    q1, q3 = T.rows("SELECT quantile_cont(docvis, 0.25), quantile_cont(docvis, 0.75) FROM dv")[0]
    A[9929] = [["high_visit_outliers", str(T.one(f"SELECT count(*) FROM dv WHERE docvis > {q3 + 1.5 * (q3 - q1)!r}"))]]
    u, p = mann_whitney(T, "SELECT CASE WHEN female = 1 THEN 1 ELSE 2 END AS g, docvis AS x FROM dv")
    A[9930] = [["u_statistic", dec(u, 1)], ["p_value", dec(p, 4)]]
    km = 1.0
    for _, events, at_risk in T.rows(
            "SELECT e.t, e.d, (SELECT count(*) FROM bm r WHERE r.grp = 'ALL' AND r.t >= e.t) FROM "
            "(SELECT t, count(*) AS d FROM bm WHERE grp = 'ALL' AND status = 1 AND t <= 365 GROUP BY t) e "
            "ORDER BY e.t"):
        km *= 1 - events / at_risk
    A[9931] = [["one_year_survival", dec(km, 4)]]
    h, p = kruskal_wallis(T, "SELECT grp AS g, t AS x FROM bm")
    A[9932] = [["h_statistic", dec(h, 4)], ["p_value", dec(p, 4)]]
    worst = T.rows("SELECT ym, ret FROM me WHERE ret IS NOT NULL ORDER BY ret ASC")
    A[9933] = [["worst_month", only_top([(m, -r) for m, r in worst])], ["worst_return_pct", dec(worst[0][1], 2)]]
    A[9934] = [["return_outliers", str(T.one(
        "WITH r AS (SELECT 100 * (close / lag(close) OVER (ORDER BY d) - 1) AS ret FROM gp), "
        "s AS (SELECT avg(ret) mu, stddev_samp(ret) sd FROM r) "
        "SELECT count(*) FROM r, s WHERE ret IS NOT NULL AND abs(ret - mu) / sd > 3"))]]
    A[9935] = [["steepest_yearly_fall", only_top([(m, -c) for m, c in T.rows(
        "SELECT a.month, a.caputil - b.caputil AS ch FROM mf a JOIN mf b ON b.yr = a.yr - 1 AND b.mo = a.mo "
        "ORDER BY ch ASC")])]]
    t, p = welch(T.array("SELECT age FROM ht WHERE censors = 1")[:, 0],
                 T.array("SELECT age FROM ht WHERE censors = 0")[:, 0])
    A[9936] = [["t_statistic", dec(t, 4)], ["p_value", dec(p, 4)]]
    A[9937] = [["peak_saving_year", str(only_top(T.rows(
        "SELECT yr, 100 * (1 - consump / inc) AS sr FROM gy ORDER BY sr DESC")))]]
    beta = least_squares(T.array("SELECT lw80, s80, expr80, iq FROM yw"))
    A[9938] = [["schooling_return", dec(beta[1], 4)]]
    A[9939] = [["schooling_wage_r", dec(T.one(
        "SELECT corr(school, wage) FROM (SELECT s AS school, lw AS wage FROM yw "
        "UNION ALL SELECT s80, lw80 FROM yw)"), 4)]]
    k, n, grand = T.rows("SELECT count(DISTINCT batch), count(*), avg(strength) FROM pa")[0]
    between = T.one(
        f"SELECT sum(c * (m - {grand!r}) ^ 2) FROM (SELECT count(*) c, avg(strength) m FROM pa GROUP BY batch)")
    within = T.one("SELECT sum((strength - m) ^ 2) FROM pa JOIN (SELECT batch, avg(strength) m FROM pa GROUP BY batch) "
                   "USING (batch)")
    A[9940] = [["f_statistic", dec((between / (k - 1)) / (within / (n - k)), 4)]]
    return A


if __name__ == "__main__":
    heldout_common.run_solver(sys.argv[1:], HERE, solve, Tables)
