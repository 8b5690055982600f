"""Second, independent solution of held-out batch L, written from the text of each question alone.

It does not share code with ``labels_l.py`` and is written in a different style: DuckDB SQL over
the CSV files for the data work (explicit column names and types, header rows skipped, empty cells
read as missing, the silver weights read as exact ``DECIMAL(11, 7)`` and their means differenced
with Python's ``decimal``, the ``1960q1`` quarters taken apart with ``split_part``, calendar months
with ``strftime``, medians and quartiles with ``quantile_cont``, previous periods with ``lag``, runs
of rising quarters with the difference of two ``row_number`` windows, the mean table of the kidney
data with conditional aggregates, the council rows filtered in SQL), and the statistics written out
by hand with numpy and the standard library: the least-squares fits from the normal equations, the
Pearson correlation from centred sums, the chi-square statistic from expected counts with its
1-degree-of-freedom p-value from ``math.erfc``, the Mann-Whitney U and the Kruskal-Wallis H from SQL
average ranks and the size of each tie, the ANOVA F from sums of squares and the pooled t from the
two sample variances (the fits, the correlation and the F are ``heldout_common``'s solver helpers,
which the label functions do not use). No scipy and no pandas.

    .venv/bin/python benchmarks/heldout_l/solve_independent.py [TABLES_DIR]

writes ``independent_answers.jsonl`` (layout of a labels file) beside this file, unless a tables
folder is given, in which case it only prints the answers. Do not read this file before a
measurement of the batch.
"""

from __future__ import annotations

import math
import sys
from decimal import Decimal
from functools import partial
from pathlib import Path

import numpy as np

sys.path.append(str(Path(__file__).resolve().parents[1]))
import heldout_common  # noqa: E402
from heldout_common import dec_refusing_halves as dec, least_squares, one_way_f, pearson  # noqa: E402

only_top = partial(heldout_common.only_top, runner_up=True)  # a runner-up is wanted, as in I-K

HERE = Path(__file__).resolve().parent
DBL, INT, BIG, TXT, DEC = "DOUBLE", "INTEGER", "BIGINT", "VARCHAR", "DECIMAL(11,7)"
SCOT = ["area", "density", "males", "females", "total", "change", "tpfr", "smr", "u5", "a5_15", "working", "pension"]
MODEL = ["dep1", "sr1", "sp1", "sp2", "sp3", "sf1", "sf2", "sf3", "sm1", "sm2", "sm3"]

# file -> (table name, [(column, type), ...]); every table is read without its header line, with
# the names and types given here.
FILES = {
    "marriage_survey.csv": ("ms", [("identifier", INT), ("constant", DBL), ("sex", INT), ("age", DBL),
                                   ("nmarried", DBL), ("nchildren", INT), ("religious", INT), ("education", DBL),
                                   ("occupation", INT), ("rate_marriage", INT), ("naffairs", DBL)]),
    "grad_school_plans.csv": ("gs", [("apply", TXT), ("pared", INT), ("public", INT), ("gpa", DBL)]),
    "cancer_drug_trial.csv": ("ct", [("studytime", INT), ("age", INT), ("drug", INT)]),
    "county_cancer_cases.csv": ("cc", [("cancer", BIG), ("population", BIG)]),
    "scotland_councils.csv": ("sc_all", [("region", TXT), *[(c, DBL) for c in SCOT]]),
    "kidney_hospital_days.csv": ("kd", [("days", DBL), ("duration", INT), ("weight", INT), ("id", INT)]),
    "wholesale_prices.csv": ("wp_raw", [("wpi", DBL), ("t", TXT), ("ln_wpi", DBL), *[(c, DBL) for c in MODEL]]),
    "silver_atomic_weight.csv": ("sa", [("instrument", INT), ("agwt", DEC)]),
    "ozone_calibration.csv": ("oz", [("y", DBL), ("x", DBL)]),
    "goog_daily.csv": ("go", [("d", "DATE"), ("open", DBL), ("high", DBL), ("low", DBL), ("close", DBL),
                              ("volume", BIG), ("adj_close", DBL)]),
}


class Tables(heldout_common.SqlTables):
    """One DuckDB connection with a table per file and derived views: sc (the 32 council areas, the
    two total rows left out), wp (quarters with year ``yr``, quarter ``q`` and a running number
    ``k``) and gm (trading days with their month ``m``, written YYYY-MM, and year ``yr``)."""

    def __init__(self, folder: Path):
        super().__init__()
        self.con.execute("SET threads = 1")
        self.read_files(folder, FILES)
        self.con.execute("CREATE VIEW sc AS SELECT * FROM sc_all WHERE region NOT IN ('United Kingdom', 'Scotland')")
        self.con.execute(
            "CREATE VIEW wp AS SELECT CAST(split_part(t, 'q', 1) AS INTEGER) AS yr, "
            "CAST(split_part(t, 'q', 2) AS INTEGER) AS q, "
            "CAST(split_part(t, 'q', 1) AS INTEGER) * 4 + CAST(split_part(t, 'q', 2) AS INTEGER) AS k, * FROM wp_raw")
        self.con.execute("CREATE VIEW gm AS SELECT strftime(d, '%Y-%m') AS m, year(d) AS yr, * FROM go")
        assert self.one("SELECT count(*) FROM sc") == 32
        assert self.one("SELECT max(k) - min(k) + 1 = count(*) AND count(DISTINCT k) = count(*) FROM wp")


def normal_two_sided(z: float) -> float:
    """Two-sided tail of the standard normal beyond |z|."""
    return math.erfc(abs(z) / math.sqrt(2))


def ranked(T: Tables, table: str, value: str, group: str) -> tuple[list[tuple], float]:
    """(group, average rank) of every row, ranking ``value`` over the whole table, and the tie term
    sum(t^3 - t) over the groups of tied values."""
    rows = T.rows(f"SELECT {group}, rank() OVER (ORDER BY {value}) + (count(*) OVER (PARTITION BY {value}) - 1) "
                  f"/ 2.0 FROM {table}")
    ties = T.one(f"SELECT coalesce(sum(c * c * c - c), 0) FROM (SELECT CAST(count(*) AS DOUBLE) c FROM {table} "
                 f"GROUP BY {value})")
    return rows, ties


def solve(T: Tables) -> dict[int, list[list[str]]]:
    A: dict[int, list[list[str]]] = {}
    # ---- easy
    A[9981] = [["respondents_with_affairs", str(T.one("SELECT count(*) FROM ms WHERE naffairs > 0"))]]
    A[9982] = [["high_gpa_students", str(T.one("SELECT count(*) FROM gs WHERE gpa >= 3.5"))]]
    A[9983] = [["median_placebo_months", dec(T.one(
        "SELECT quantile_cont(studytime, 0.5) FROM ct WHERE drug = 1"), 1)]]
    A[9984] = [["total_cases", str(T.one("SELECT sum(cancer) FROM cc"))]]
    A[9985] = [["largest_council", only_top(T.rows("SELECT region, area FROM sc ORDER BY area DESC"))]]
    A[9986] = [["mean_days_substantial_gain", dec(T.one("SELECT avg(days) FROM kd WHERE weight = 3"), 2)]]
    A[9987] = [["first_quarter_at_100", T.one("SELECT t FROM wp WHERE wpi >= 100 ORDER BY k LIMIT 1")]]
    A[9988] = [["heavy_readings", str(T.one("SELECT count(*) FROM sa WHERE agwt > 107.86815"))]]
    A[9989] = [["readings_above_reference", str(T.one("SELECT count(*) FROM oz WHERE y > x"))]]
    A[9990] = [["busiest_day", only_top(T.rows(
        "SELECT strftime(d, '%Y-%m-%d'), volume FROM go ORDER BY volume DESC"), tolerance=None)]]
    # ---- medium
    A[9991] = [["pct_low_rating_with_affairs", dec(T.one(
        "SELECT 100.0 * count(*) FILTER (WHERE naffairs > 0) / count(*) FROM ms WHERE rate_marriage <= 3"), 2)]]
    A[9992] = [["happiest_occupation", str(only_top(T.rows(
        "SELECT occupation, avg(rate_marriage) r FROM ms GROUP BY occupation HAVING count(*) >= 40 "
        "ORDER BY r DESC")))]]
    A[9993] = [["mean_years_married_42_plus", dec(T.one("SELECT avg(nmarried) FROM ms WHERE age >= 42"), 3)]]
    A[9994] = [["pct_very_likely", dec(T.one(
        "SELECT 100.0 * count(*) FILTER (WHERE apply = 'very likely') / count(*) FROM gs WHERE pared = 1"), 2)]]
    A[9995] = [["most_public_category", only_top(T.rows(
        "SELECT apply, sum(public) / count(*) s FROM gs GROUP BY apply ORDER BY s DESC"))]]
    A[9996] = [["gpa_std_somewhat_likely", dec(T.one(
        "SELECT stddev_samp(gpa) FROM gs WHERE apply = 'somewhat likely'"), 4)]]
    A[9997] = [["longest_surviving_group", str(only_top(T.rows(
        "SELECT drug, avg(studytime) m FROM ct GROUP BY drug ORDER BY m DESC")))]]
    A[9998] = [["cases_per_100k", dec(T.one("SELECT 100000.0 * sum(cancer) / sum(population) FROM cc"), 2)]]
    A[9999] = [["median_cases_large_counties", dec(T.one(
        "SELECT quantile_cont(cancer, 0.5) FROM cc WHERE population >= 10000"), 1)]]
    A[10000] = [["pct_in_three_largest", dec(T.one(
        "SELECT 100.0 * sum(total) FILTER (WHERE n <= 3) / sum(total) FROM "
        "(SELECT total, row_number() OVER (ORDER BY total DESC) n FROM sc)"), 2)]]
    A[10001] = [["density_smr_correlation", dec(pearson(T.array("SELECT density, smr FROM sc")), 4)]]
    A[10002] = [["weight_level_largest_gap", str(only_top(T.rows(
        "SELECT weight, avg(days) FILTER (WHERE duration = 1) - avg(days) FILTER (WHERE duration = 2) g "
        "FROM kd GROUP BY weight ORDER BY g DESC")))]]
    first, last = (T.one(f"SELECT wpi FROM wp ORDER BY k {order} LIMIT 1") for order in ("ASC", "DESC"))
    A[10003] = [["pct_change_1960_1990", dec(100 * (last - first) / first, 2)]]
    A[10004] = [["busiest_month", only_top(T.rows(
        "SELECT m, sum(volume) v FROM gm GROUP BY m ORDER BY v DESC"), tolerance=None)]]
    sums = dict(T.rows("SELECT instrument, sum(agwt) FROM sa GROUP BY instrument"))
    counts = dict(T.rows("SELECT instrument, count(*) FROM sa GROUP BY instrument"))
    exact = (Decimal(sums[1]) / counts[1] - Decimal(sums[2]) / counts[2]) * Decimal(10) ** 7
    A[10005] = [["mean_difference_e7", dec(float(exact), 1)]]
    line = least_squares(T.array("SELECT y, x FROM oz"))
    A[10006] = [["slope", dec(line[1], 6)], ["intercept", dec(line[0], 4)]]
    # ---- hard
    cells = {(kids, affair): n for kids, affair, n in T.rows(
        "SELECT nchildren, naffairs > 0, count(*) FROM ms GROUP BY ALL")}
    assert len(cells) == 4
    total = sum(cells.values())
    row_t = {a: sum(n for (x, _), n in cells.items() if x == a) for a, _ in cells}
    col_t = {b: sum(n for (_, y), n in cells.items() if y == b) for _, b in cells}
    chi = sum((n - row_t[a] * col_t[b] / total) ** 2 / (row_t[a] * col_t[b] / total) for (a, b), n in cells.items())
    A[10007] = [["chi_square", dec(chi, 4)], ["p_value", dec(normal_two_sided(math.sqrt(chi)), 4)]]
    A[10008] = [["rate_marriage_coefficient", dec(least_squares(T.array(
        "SELECT naffairs, rate_marriage, age, nmarried, religious FROM ms"))[1], 4)]]
    ranks, ties = ranked(T, "gs", "gpa", "public")
    n1 = sum(1 for g, _ in ranks if g == 1)
    n2 = len(ranks) - n1
    n = n1 + n2
    u = sum(r for g, r in ranks if g == 1) - n1 * (n1 + 1) / 2
    sigma = math.sqrt(n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))))
    z = (abs(u - n1 * n2 / 2) - 0.5) / sigma
    A[10009] = [["u_public", dec(u, 1)], ["p_value", dec(normal_two_sided(z), 6)]]
    A[10010] = [["pared_coefficient", dec(least_squares(T.array("SELECT gpa, pared, public FROM gs"))[1], 4)]]
    ranks, ties = ranked(T, "ct", "studytime", "drug")
    n = len(ranks)
    groups = {g: [r for h, r in ranks if h == g] for g in {g for g, _ in ranks}}
    h = 12 / (n * (n + 1)) * sum(sum(r) ** 2 / len(r) for r in groups.values()) - 3 * (n + 1)
    A[10011] = [["kruskal_h", dec(h / (1 - ties / (n ** 3 - n)), 4)]]
    A[10012] = [["rate_outlier_counties", str(T.one(
        "WITH r AS (SELECT 1000.0 * cancer / population rate FROM cc), s AS (SELECT avg(rate) m, "
        "stddev_samp(rate) sd FROM r) SELECT count(*) FROM r, s WHERE abs(rate - m) / sd > 3"))]]
    A[10013] = [["change_coefficient", dec(least_squares(T.array("SELECT smr, density, change FROM sc"))[2], 4)]]
    A[10014] = [["f_statistic", dec(one_way_f([T.col(f"SELECT days FROM kd WHERE weight = {w}") for w in (1, 2, 3)]),
                                    4)]]
    runs = T.rows(
        "WITH f AS (SELECT k, t, coalesce(wpi > lag(wpi) OVER (ORDER BY k), false) AS up FROM wp), "
        "g AS (SELECT k, t, up, row_number() OVER (ORDER BY k) - row_number() OVER (PARTITION BY up ORDER BY k) AS grp "
        "FROM f) SELECT arg_min(t, k), count(*) n FROM g WHERE up GROUP BY grp ORDER BY n DESC")
    A[10015] = [["longest_rise_quarters", str(runs[0][1])], ["rise_start", only_top(runs, tolerance=None)]]
    growth = T.rows(
        "SELECT yr, 100 * (a - lag(a) OVER (ORDER BY yr)) / lag(a) OVER (ORDER BY yr) g FROM "
        "(SELECT yr, avg(wpi) a, count(*) c FROM wp GROUP BY yr) QUALIFY g IS NOT NULL ORDER BY g DESC")
    A[10016] = [["fastest_inflation_year", str(only_top(growth))], ["pct_increase", dec(growth[0][1], 2)]]
    A[10017] = [["steepest_fall_month", only_top(T.rows(
        "SELECT m, (a - lag(a) OVER (ORDER BY m)) / lag(a) OVER (ORDER BY m) c FROM "
        "(SELECT m, avg(close) a FROM gm GROUP BY m) QUALIFY c IS NOT NULL ORDER BY c ASC"))]]
    A[10018] = [["volume_outlier_days", str(T.one(
        "WITH qs AS (SELECT yr, quantile_cont(volume, 0.25) q1, quantile_cont(volume, 0.75) q3 FROM gm GROUP BY yr) "
        "SELECT count(*) FROM gm JOIN qs USING (yr) "
        "WHERE volume < q1 - 1.5 * (q3 - q1) OR volume > q3 + 1.5 * (q3 - q1)"))]]
    one, two = (T.col(f"SELECT agwt - 107.868 FROM sa WHERE instrument = {k}") for k in (1, 2))
    pooled = (((one - one.mean()) ** 2).sum() + ((two - two.mean()) ** 2).sum()) / (len(one) + len(two) - 2)
    A[10019] = [["t_statistic", dec((one.mean() - two.mean()) / math.sqrt(pooled * (1 / len(one) + 1 / len(two))), 4)]]
    data = T.array("SELECT y, x FROM oz")
    resid = data[:, 0] - (line[0] + line[1] * data[:, 1])
    se = math.sqrt((resid ** 2).sum() / (len(resid) - 2))
    A[10020] = [["large_residuals", str(int((np.abs(resid) > 2 * se).sum()))]]
    return A


if __name__ == "__main__":
    heldout_common.run_solver(sys.argv[1:], HERE, solve, Tables)
