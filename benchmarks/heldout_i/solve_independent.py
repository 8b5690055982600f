"""Second, independent solution of held-out batch I, written from the text of each question alone.

It does not share code with ``labels_i.py`` and is written in a different style: DuckDB SQL over
the CSV files for the data work (explicit column names and types, header rows skipped, ``NA`` and
empty cells read as missing, dates parsed with strptime or built from the parts of a month/day/year
string, calendar parts with SQL date functions, medians and quartiles with ``quantile_cont``, per-group slopes with
``regr_slope``, running means, lags and average ranks as window functions, the wide macro table
queried column by column), and numpy arithmetic written out by hand for the tests and fits (the
normal equations for least squares and R squared, the Welch statistic and its degrees of freedom,
the chi-square statistic from expected counts; scipy is used only for the cumulative t
distribution of a p-value).

    .venv/bin/python benchmarks/heldout_i/solve_independent.py [TABLES_DIR]

writes ``independent_answers.jsonl`` (layout of a labels file) beside this file, unless a tables
folder is given, in which case it only prints the answers. Do not read this file before a
measurement of the batch.
"""

from __future__ import annotations

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
DBL, INT, TXT = "DOUBLE", "INTEGER", "VARCHAR"
MACRO = ["PAYEMS", "JTSJOL", "CPIAUCSL", "DGORDER", "HSN1F", "RSAFS", "UNRATE", "HOUST", "INDPRO", "PPIFIS",
         "DSPIC96", "BOPTEXP", "BOPTIMP", "WHLSLRIMSA", "TTLCONS", "IR", "CPILFESL", "PCEPILFE", "PCEPI", "PERMIT",
         "TCU", "BUSINV", "IQ", "GACDISA066MSFRBNY", "PCEC96", "GACDFSA066MSFRBPHI", "GDPC1", "ULCNFB",
         "A261RX1Q020SBEA"]
MONTH_NAMES = "January February March April May June July August September October November December".split()

# file -> (table name, [(column, type), ...]); every table is read without its header line, with
# the names and types given here.
FILES = {
    "dietox.csv": ("dx", [("rn", INT), ("Weight", DBL), ("Feed", DBL), ("Time", INT), ("Pig", INT), ("Evit", INT),
                          ("Cu", INT), ("Litter", INT)]),
    "epil.csv": ("ep", [("rn", INT), ("y", INT), ("trt", TXT), ("base", INT), ("age", INT), ("V4", INT),
                        ("subject", INT), ("period", INT), ("lbase", DBL), ("lage", DBL)]),
    "lbw.csv": ("lb_raw", [("id", INT), ("low", INT), ("age", INT), ("lwt", INT), ("race", TXT), ("smoke", INT),
                           ("ptl", INT), ("ht", INT), ("ui", INT), ("ftv", INT), ("bwt", INT)]),
    "autos.csv": ("au", [("symbol", INT), ("loss", DBL), ("make", TXT), ("fuel", TXT), ("aspir", TXT),
                         ("doors", TXT), ("style", TXT), ("drive", TXT), ("eng_loc", TXT), ("wb", DBL),
                         ("length", DBL), ("width", DBL), ("height", DBL), ("weight", DBL), ("eng_type", TXT),
                         ("cylinders", TXT), ("eng_cc", DBL), ("fuel_sys", TXT), ("bore", DBL), ("stroke", DBL),
                         ("comp_ratio", DBL), ("hp", DBL), ("rpm", DBL), ("city_mpg", INT), ("hw_mpg", INT),
                         ("price", DBL)]),
    "framing.csv": ("fr", [("rn", INT), ("cond", INT), ("anx", TXT), ("age", INT), ("educ", TXT), ("gender", TXT),
                           ("income", INT), ("emo", INT), ("p_harm", INT), ("tone", INT), ("eth", INT),
                           ("treat", INT), ("english", TXT), ("immigr", INT), ("anti_info", INT),
                           ("cong_mesg", INT)]),
    "housing_starts.csv": ("hs_raw", [("DATE", TXT), ("starts", DBL)]),
    "elec_vic.csv": ("ev_raw", [("ds", TXT), ("y", DBL)]),
    "engel.csv": ("en", [("income", DBL), ("foodexp", DBL)]),
    "us_macro.csv": ("mc_raw", [("Date", TXT)] + [(name, DBL) for name in MACRO]),
}


class Tables(heldout_common.SqlTables):
    """One DuckDB connection with a table per file and derived views: lb (the births, the empty last
    line dropped), hs (housing starts with a parsed date ``d``), hy (complete years 1959-2017 with
    their total), ev (hours with a parsed timestamp ``t`` and date ``day``), dd (daily mean demand),
    mc (the macro months with a date ``d`` built from the month/day/year text), ps (per-patient
    seizure total and mean)."""

    def __init__(self, folder: Path):
        super().__init__()
        self.con.execute("SET threads = 1")
        for file, (table, columns) in FILES.items():
            path = heldout_common.sql_path(folder, file)
            spec = heldout_common.column_types(columns)
            self.con.execute(
                f"CREATE TABLE {table} AS SELECT * FROM read_csv('{path}', header=false, skip=1, delim=',', "
                f"quote='\"', nullstr=['NA', ''], columns={spec})")
        self.con.execute("CREATE VIEW lb AS SELECT * FROM lb_raw WHERE id IS NOT NULL")
        self.con.execute("CREATE VIEW hs AS SELECT CAST(strptime(DATE, '%Y-%m-%d') AS DATE) AS d, starts FROM hs_raw")
        self.con.execute(
            "CREATE VIEW hy AS SELECT year(d) AS yr, sum(starts) AS total, count(*) AS n FROM hs "
            "WHERE year(d) BETWEEN 1959 AND 2017 GROUP BY year(d)")
        self.con.execute(
            "CREATE VIEW ev AS SELECT strptime(ds, '%Y-%m-%d %H:%M:%S') AS t, "
            "CAST(strptime(ds, '%Y-%m-%d %H:%M:%S') AS DATE) AS day, y FROM ev_raw")
        self.con.execute("CREATE VIEW dd AS SELECT day, avg(y) AS m, count(*) AS n FROM ev GROUP BY day")
        self.con.execute(
            "CREATE VIEW mc AS SELECT make_date(CASE WHEN CAST(split_part(Date, '/', 3) AS INTEGER) >= 50 "
            "THEN 1900 ELSE 2000 END + CAST(split_part(Date, '/', 3) AS INTEGER), "
            "CAST(split_part(Date, '/', 1) AS INTEGER), CAST(split_part(Date, '/', 2) AS INTEGER)) AS d, * "
            "FROM mc_raw")
        self.con.execute(
            "CREATE VIEW ps AS SELECT subject, any_value(trt) AS trt, count(DISTINCT trt) AS ntrt, "
            "sum(y) AS total, avg(y) AS mean, count(*) AS n FROM ep GROUP BY subject")


def least_squares(data: np.ndarray) -> tuple[np.ndarray, float]:
    """Normal equations: column 0 of ``data`` is y, the others the regressors (an intercept is added)."""
    y = data[:, 0]
    X = np.hstack([np.ones((len(y), 1)), data[:, 1:]])
    beta = np.linalg.solve(X.T @ X, X.T @ y)
    fitted = X @ beta
    ss_res = float(((y - fitted) ** 2).sum())
    ss_tot = float(((y - y.mean()) ** 2).sum())
    return beta, 1.0 - ss_res / ss_tot


def welch(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    from scipy.stats import t as t_dist

    va, vb = a.var(ddof=1) / len(a), b.var(ddof=1) / len(b)
    t = (a.mean() - b.mean()) / np.sqrt(va + vb)
    df = (va + vb) ** 2 / (va**2 / (len(a) - 1) + vb**2 / (len(b) - 1))
    return float(t), float(2 * t_dist.sf(abs(t), df))


def solve(T: Tables) -> dict[int, list[list[str]]]:
    A: dict[int, list[list[str]]] = {}
    # ------------------------------------------------------------ easy
    A[9801] = [["smoking_low_births", str(T.one("SELECT count(*) FROM lb WHERE smoke = 1 AND low = 1"))]]
    A[9802] = [["most_common_make", only_top(T.rows("SELECT make, count(*) c FROM au GROUP BY make ORDER BY c DESC"))]]
    A[9803] = [["busiest_month", only_top(T.rows(
        "SELECT strftime(d, '%Y-%m'), starts FROM hs ORDER BY starts DESC"))]]
    A[9804] = [["mean_food_expenditure", dec(T.one("SELECT avg(foodexp) FROM en"), 2)]]
    A[9805] = [["very_anxious_women", str(T.one(
        "SELECT count(*) FROM fr WHERE gender = 'female' AND anx = 'very anxious'"))]]
    A[9806] = [["peak_demand_hour", only_top(T.rows("SELECT strftime(t, '%Y-%m-%d %H:%M'), y FROM ev ORDER BY y DESC"))]]
    A[9807] = [["heavy_pigs", str(T.one("SELECT count(*) FROM dx WHERE Time = 12 AND Weight > 100"))]]
    A[9808] = [["progabide_patients", str(T.one("SELECT count(DISTINCT subject) FROM ep WHERE trt = 'progabide'"))]]
    A[9809] = [["median_diesel_price", dec(T.one(
        "SELECT quantile_cont(price, 0.5) FROM au WHERE fuel = 'diesel' AND price IS NOT NULL"), 1)]]
    A[9810] = [["high_unemployment_months", str(T.one("SELECT count(*) FROM mc WHERE UNRATE >= 8.0"))]]
    # ------------------------------------------------------------ medium
    A[9811] = [["weight_gap_grams", dec(T.one(
        "SELECT avg(bwt) FILTER (WHERE smoke = 0) - avg(bwt) FILTER (WHERE smoke = 1) FROM lb"), 1)]]
    A[9812] = [["priciest_style", only_top(T.rows(
        "SELECT style, median(price) m FROM au WHERE price IS NOT NULL GROUP BY style HAVING count(*) >= 10 "
        "ORDER BY m DESC"))]]
    assert T.one("SELECT count(*) FROM hy WHERE n = 12") == 59
    A[9813] = [["peak_year", str(only_top(T.rows("SELECT yr, total FROM hy ORDER BY total DESC")))]]
    assert T.rows("SELECT count(*), min(n), max(n) FROM dd") == [(150, 24, 24)]
    A[9814] = [["lowest_demand_day", only_top([(d, -m) for d, m in T.rows(
        "SELECT strftime(day, '%Y-%m-%d'), m FROM dd ORDER BY m ASC")])]]
    A[9815] = [["income_food_correlation", dec(T.one("SELECT corr(income, foodexp) FROM en"), 4)]]
    A[9816] = [["heaviest_cu_group", str(only_top(T.rows(
        "SELECT Cu, avg(Weight) m FROM dx WHERE Time = 12 GROUP BY Cu ORDER BY m DESC")))]]
    assert T.one("SELECT max(n) = 4 AND min(n) = 4 AND max(ntrt) = 1 FROM ps")
    A[9817] = [["extra_seizures", dec(T.one(
        "SELECT avg(total) FILTER (WHERE trt = 'placebo') - avg(total) FILTER (WHERE trt = 'progabide') FROM ps"), 2)]]
    A[9818] = [["degree_share_pct", dec(T.one(
        "SELECT 100.0 * count(*) FILTER (WHERE educ = 'bachelor''s degree or higher') / count(*) FROM fr "
        "WHERE english = 'Strongly Oppose'"), 2)]]
    A[9819] = [["cpi_inflation_pct", dec(T.one(
        "SELECT 100 * (a.CPIAUCSL / b.CPIAUCSL - 1) FROM mc a, mc b "
        "WHERE a.d = DATE '2016-05-01' AND b.d = DATE '2015-05-01'"), 2)]]
    A[9820] = [["diesel_makes", str(T.one("SELECT count(DISTINCT make) FROM au WHERE fuel = 'diesel'"))],
               ["diesel_share_pct", dec(T.one(
                   "SELECT 100.0 * count(*) FILTER (WHERE fuel = 'diesel') / count(*) FROM au"), 2)]]
    race_rows = T.rows("SELECT race, 100.0 * sum(low) / count(*) r FROM lb GROUP BY race ORDER BY r DESC")
    A[9821] = [["riskiest_race", only_top(race_rows)], ["low_weight_pct", dec(race_rows[0][1], 2)]]
    A[9822] = [["peak_calendar_month", MONTH_NAMES[only_top(T.rows(
        "SELECT month(d), avg(starts) m FROM hs WHERE year(d) BETWEEN 1959 AND 2017 GROUP BY month(d) "
        "ORDER BY m DESC")) - 1]]]
    A[9823] = [["peak_hour_of_day", str(only_top(T.rows(
        "SELECT hour(t), avg(y) m FROM ev GROUP BY hour(t) ORDER BY m DESC")))]]
    A[9824] = [["mean_weight_gain", dec(T.one(
        "SELECT avg(last_w - first_w) FROM (SELECT Pig, arg_min(Weight, Time) AS first_w, "
        "arg_max(Weight, Time) AS last_w FROM dx GROUP BY Pig)"), 2)]]
    A[9825] = [["worse_at_end", str(T.one(
        "SELECT count(*) FROM ep a JOIN ep b ON a.subject = b.subject AND a.period = 4 AND b.period = 1 "
        "WHERE a.y > b.y"))]]
    A[9826] = [["calmest_condition", str(only_top([(c, -m) for c, m in T.rows(
        "SELECT cond, avg(emo) m FROM fr GROUP BY cond ORDER BY m ASC")]))]]
    # ------------------------------------------------------------ hard
    beta, _ = least_squares(T.array(
        "SELECT price, hp, weight FROM au WHERE price IS NOT NULL AND hp IS NOT NULL"))
    A[9827] = [["hp_coefficient", dec(beta[1], 3)]]
    counts = T.array(
        "SELECT count(*) FILTER (WHERE low = 0), count(*) FILTER (WHERE low = 1) FROM lb GROUP BY race")
    expected = np.outer(counts.sum(axis=1), counts.sum(axis=0)) / counts.sum()
    A[9828] = [["chi_square", dec(float(((counts - expected) ** 2 / expected).sum()), 4)]]
    A[9829] = [["steepest_drop_year", str(only_top([(yr, -g) for yr, g in T.rows(
        "SELECT yr, g FROM (SELECT yr, 100 * (total / lag(total) OVER (ORDER BY yr) - 1) AS g FROM hy) "
        "WHERE g IS NOT NULL ORDER BY g ASC")]))]]
    q1, q3 = T.rows("SELECT quantile_cont(m, 0.25), quantile_cont(m, 0.75) FROM dd")[0]
    lo, hi = q1 - 1.5 * (q3 - q1), q3 + 1.5 * (q3 - q1)
    A[9830] = [["outlier_days", str(T.one(f"SELECT count(*) FROM dd WHERE m < {lo!r} OR m > {hi!r}"))]]
    beta, _ = least_squares(T.array("SELECT ln(foodexp), ln(income) FROM en"))
    A[9831] = [["income_elasticity", dec(beta[1], 4)]]
    A[9832] = [["fastest_pig", str(only_top(T.rows(
        "SELECT Pig, regr_slope(Weight, Time) s FROM dx GROUP BY Pig ORDER BY s DESC")))]]
    t, p = welch(T.array("SELECT mean FROM ps WHERE trt = 'placebo'")[:, 0],
                 T.array("SELECT mean FROM ps WHERE trt = 'progabide'")[:, 0])
    A[9833] = [["t_statistic", dec(t, 4)], ["p_value", dec(p, 4)]]
    A[9834] = [["spearman_rho", dec(T.one(
        "SELECT corr(ri, rp) FROM (SELECT "
        "rank() OVER (ORDER BY income) + (count(*) OVER (PARTITION BY income) - 1) / 2.0 AS ri, "
        "rank() OVER (ORDER BY p_harm) + (count(*) OVER (PARTITION BY p_harm) - 1) / 2.0 AS rp FROM fr)"), 4)]]
    A[9835] = [["worst_quarter", only_top([(q, -g) for q, g in T.rows(
        "SELECT year(d) || 'Q' || (month(d) // 3), g FROM (SELECT d, "
        "100 * (GDPC1 / lag(GDPC1) OVER (ORDER BY d) - 1) AS g FROM mc WHERE GDPC1 IS NOT NULL) "
        "WHERE g IS NOT NULL ORDER BY g ASC")])]]
    assert T.one("SELECT count(*) FROM mc WHERE GDPC1 IS NOT NULL AND month(d) % 3 <> 0") == 0
    A[9836] = [["change_correlation", dec(T.one(
        "SELECT corr(du, dp) FROM (SELECT UNRATE - lag(UNRATE) OVER w AS du, "
        "100 * (PAYEMS / lag(PAYEMS) OVER w - 1) AS dp FROM mc WINDOW w AS (ORDER BY d)) "
        "WHERE du IS NOT NULL AND dp IS NOT NULL"), 4)]]
    A[9837] = [["price_outliers", str(T.one(
        "SELECT count(*) FROM au, (SELECT avg(price) mu, stddev_samp(price) sd FROM au) "
        "WHERE price IS NOT NULL AND abs(price - mu) / sd > 3"))]]
    _, r2 = least_squares(T.array("SELECT bwt, lwt, age, smoke FROM lb"))
    A[9838] = [["r_squared", dec(r2, 4)]]
    ma = T.rows(
        "SELECT strftime(d, '%Y-%m'), m FROM (SELECT d, avg(starts) OVER w AS m, count(*) OVER w AS n FROM hs "
        "WINDOW w AS (ORDER BY d ROWS BETWEEN 11 PRECEDING AND CURRENT ROW)) WHERE n = 12 ORDER BY m DESC")
    A[9839] = [["peak_month", only_top(ma)], ["peak_average", dec(ma[0][1], 2)]]
    A[9840] = [["weekday_excess_pct", dec(T.one(
        "SELECT 100 * (avg(y) FILTER (WHERE isodow(day) <= 5) / avg(y) FILTER (WHERE isodow(day) >= 6) - 1) "
        "FROM ev"), 2)]]
    return A


if __name__ == "__main__":
    heldout_common.run_solver(sys.argv[1:], HERE, solve, Tables)
