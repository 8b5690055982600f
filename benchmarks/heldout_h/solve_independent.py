"""Second, independent solution of held-out batch H, written from the text of each question alone.

It does not share code with ``labels_h.py`` and is written in a different style: DuckDB SQL over
the CSV files for the data work (explicit column names and types, dates parsed with strptime,
periods built with string functions, the wide price table unpivoted in SQL, rankings, running
totals, lags, moving averages and average ranks as window functions, the day order of a table taken
from its row ids), and numpy arithmetic written out by hand for the tests and fits (the normal
equations, the Welch statistic, the chi-square statistic, with its one-degree-of-freedom p-value
from ``math.erfc``; scipy is used only for the cumulative t distribution of a p-value).

    .venv/bin/python benchmarks/heldout_h/solve_independent.py [TABLES_DIR]

writes ``independent_answers.jsonl`` (layout of a labels file) beside this file, unless a tables
folder is given, in which case it only prints the answers. Do not read this file before a
measurement of the batch.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import numpy as np

# heldout_common (in benchmarks/) has what the batches share; taken from it here: the command line,
# the DuckDB query helpers, the value formatting and the tie check, none of which computes an answer.
sys.path.append(str(Path(__file__).resolve().parents[1]))
import heldout_common  # noqa: E402
from heldout_common import dec, only_top  # noqa: E402

HERE = Path(__file__).resolve().parent
DBL, INT, BIG, TXT, DAY = "DOUBLE", "INTEGER", "BIGINT", "VARCHAR", "DATE"
TICKERS = ["IBM", "AAPL", "MSFT", "XRX", "AMZN", "DELL", "GOOGL", "ADBE"]

# file -> (table name, rows to skip before the data, [(column, type), ...]); every table is read
# without its header, with the names and types given here.
FILES = {
    "monthly_stocks.csv": ("px", 2, [("d", DAY)] + [(t, DBL) for t in TICKERS] + [("GSPC", DBL), ("IXIC", DBL)]),
    "msft.csv": ("ms_raw", 1, [("Date", TXT), ("Open", DBL), ("High", DBL), ("Low", DBL), ("Close", DBL),
                               ("Volume", BIG), ("AdjClose", DBL)]),
    "interest_inflation.csv": ("ii", 1, [("year", INT), ("quarter", INT), ("Dp", DBL), ("R", DBL)]),
    "copper.csv": ("cu", 1, [("YEAR", INT), ("WORLDCONSUMPTION", DBL), ("COPPERPRICE", DBL), ("INCOMEINDEX", DBL),
                             ("ALUMPRICE", DBL), ("INVENTORYINDEX", DBL), ("TIME", INT)]),
    "ccard.csv": ("cc", 1, [("AVGEXP", DBL), ("AGE", DBL), ("INCOME", DBL), ("INCOMESQ", DBL), ("OWNRENT", INT)]),
    "spector.csv": ("sp", 1, [("OBS", INT), ("GPA", DBL), ("TUCE", INT), ("PSI", INT), ("GRADE", INT)]),
    "stackloss.csv": ("sl", 1, [("STACKLOSS", INT), ("AIRFLOW", INT), ("WATERTEMP", INT), ("ACIDCONC", INT)]),
    "strikes.csv": ("st_raw", 1, [("duration", INT), ("iprod", TXT)]),
    "carshare.csv": ("cs", 1, [("lat", DBL), ("lon", DBL), ("car_hours", DBL), ("peak_hour", INT)]),
    "medals.csv": ("md", 1, [("nation", TXT), ("gold", INT), ("silver", INT), ("bronze", INT)]),
}


class Tables(heldout_common.SqlTables):
    """One DuckDB connection with a table per file (px, ms_raw, ii, cu, cc, sp, sl, st_raw, cs, md;
    loaded in file order, so ``rowid`` is the data row number from 0) and derived views: ms (the
    Microsoft trading days with a parsed date ``day``), qq (the quarters with a label ``per`` like
    1985Q2 and a running index ``t``), st (the strikes with iprod as a number), pm (the price rows
    dated on the first of a month)."""

    def __init__(self, folder: Path):
        super().__init__()
        self.con.execute("SET threads = 1")
        self.con.execute("SET preserve_insertion_order = true")
        for file, (table, skip, columns) in FILES.items():
            path = heldout_common.sql_path(folder, file)
            spec = heldout_common.column_types(columns)
            self.con.execute(
                f"CREATE TABLE {table} AS SELECT * FROM read_csv('{path}', header=false, skip={skip}, delim=',', "
                f"quote='\"', columns={spec}, dateformat='%Y-%m-%d')"
            )
        self.con.execute("CREATE VIEW ms AS SELECT CAST(strptime(Date, '%d-%b-%y') AS DATE) AS day, * FROM ms_raw")
        self.con.execute(
            "CREATE VIEW qq AS SELECT year || 'Q' || quarter AS per, year * 4 + quarter AS t, year, quarter, Dp, R "
            "FROM ii")
        self.con.execute("CREATE VIEW st AS SELECT duration, CAST(trim(iprod) AS DOUBLE) AS iprod FROM st_raw")
        self.con.execute("CREATE VIEW pm AS SELECT * FROM px WHERE day(d) = 1")

    matrix = heldout_common.SqlTables.array  # this batch's name for it


def ols(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Coefficients (intercept first) from the normal equations, and the residuals."""
    A = np.column_stack([np.ones(len(y)), X])
    beta = np.linalg.solve(A.T @ A, A.T @ y)
    return beta, y - A @ beta


def pearson(x: np.ndarray, y: np.ndarray) -> float:
    xd, yd = x - x.mean(), y - y.mean()
    return float((xd * yd).sum() / np.sqrt((xd**2).sum() * (yd**2).sum()))


def avg_ranks(T: Tables, table: str, a: str, b: str) -> np.ndarray:
    """Average ranks (ties share the mean of the ranks they span) of columns a and b, row by row."""
    return T.matrix(
        f"SELECT rank() OVER (ORDER BY {a}) + (count(*) OVER (PARTITION BY {a}) - 1) / 2.0, "
        f"rank() OVER (ORDER BY {b}) + (count(*) OVER (PARTITION BY {b}) - 1) / 2.0 FROM {table}")


def solve(T: Tables) -> dict[int, list[list[str]]]:
    A: dict[int, list[list[str]]] = {}
    assert T.one("SELECT count(*) FROM ms") == 65 and T.one("SELECT count(*) FROM sl") == 21
    # --- easy
    A[9701] = [["young_renters", str(T.one("SELECT count(*) FROM cc WHERE AGE < 25 AND OWNRENT = 0"))]]
    A[9702] = [["peak_price_year", str(only_top(T.rows("SELECT YEAR, COPPERPRICE FROM cu ORDER BY 2 DESC")))]]
    A[9703] = [["widest_day", only_top(T.rows(
        "SELECT strftime(day, '%Y-%m-%d'), High - Low FROM ms ORDER BY 2 DESC"))]]
    A[9704] = [["most_bronze", only_top(T.rows("SELECT nation, bronze FROM md ORDER BY bronze DESC"))]]
    A[9705] = [["mean_stack_loss", dec(T.one("SELECT avg(STACKLOSS) FROM sl"), 2)]]
    A[9706] = [["psi_improved", str(T.one("SELECT count(*) FROM sp WHERE PSI = 1 AND GRADE = 1"))]]
    A[9707] = [["distinct_iprod", str(T.one("SELECT count(DISTINCT iprod) FROM st"))]]
    A[9708] = [["most_common_peak_hour", str(only_top(T.rows(
        "SELECT peak_hour, count(*) FROM cs GROUP BY peak_hour ORDER BY 2 DESC")))]]
    A[9709] = [["peak_rate_quarter", only_top(T.rows("SELECT per, R FROM qq ORDER BY R DESC"))]]
    A[9710] = [["peak_month", only_top(T.rows(
        "SELECT strftime(d, '%Y-%m'), IXIC FROM px WHERE IXIC IS NOT NULL ORDER BY IXIC DESC"))]]

    # --- medium
    A[9711] = [["owner_minus_renter", dec(T.one(
        "SELECT avg(AVGEXP) FILTER (WHERE OWNRENT = 1) - avg(AVGEXP) FILTER (WHERE OWNRENT = 0) FROM cc"), 2)]]
    ranked = T.rows("SELECT AVGEXP FROM cc ORDER BY AVGEXP DESC")
    assert ranked[9][0] != ranked[10][0] and len(ranked) == 72
    A[9712] = [["top10_share", dec(T.one(
        "SELECT 100.0 * sum(AVGEXP) FILTER (WHERE k <= 10) / sum(AVGEXP) FROM "
        "(SELECT AVGEXP, row_number() OVER (ORDER BY AVGEXP DESC) AS k FROM cc)"), 2)]]
    A[9713] = [["consumption_growth_pct", dec(T.one(
        "SELECT 100.0 * (max(WORLDCONSUMPTION) FILTER (WHERE YEAR = 1975) / "
        "max(WORLDCONSUMPTION) FILTER (WHERE YEAR = 1951) - 1) FROM cu"), 2)]]
    A[9714] = [["years_down", str(T.one(
        "SELECT count(*) FROM (SELECT WORLDCONSUMPTION - lag(WORLDCONSUMPTION) OVER (ORDER BY YEAR) AS ch FROM cu) "
        "WHERE ch < 0"))]]
    A[9715] = [["highest_rate_year", str(only_top(T.rows(
        "SELECT year, avg(R) FROM qq GROUP BY year HAVING count(*) = 4 ORDER BY 2 DESC")))]]
    A[9716] = [["r_dp_r", dec(T.one("SELECT corr(Dp, R) FROM qq"), 4)]]
    quiet = T.rows("SELECT strftime(day, '%Y-%m'), -avg(Volume) FROM ms GROUP BY 1 ORDER BY 2 DESC")
    assert len(quiet) == 4
    A[9717] = [["quietest_month", only_top(quiet)]]
    A[9718] = [["pct_up_days", dec(T.one("SELECT 100.0 * count(*) FILTER (WHERE Close > Open) / count(*) FROM ms"), 2)]]
    A[9719] = [["pct_change", dec(T.one(
        "SELECT 100.0 * (arg_max(Close, day) / arg_min(Close, day) - 1) FROM ms"), 2)]]
    A[9720] = [["iprod_value", only_top(T.rows(
        "SELECT printf('%.5f', iprod), avg(duration) FROM st GROUP BY iprod ORDER BY 2 DESC"))]]
    A[9721] = [["mean_gpa_improved", dec(T.one("SELECT avg(GPA) FROM sp WHERE GRADE = 1"), 3)]]
    A[9722] = [["zones_for_half", str(T.one(
        "SELECT min(k) FROM (SELECT row_number() OVER (ORDER BY car_hours DESC) AS k, "
        "sum(car_hours) OVER (ORDER BY car_hours DESC ROWS UNBOUNDED PRECEDING) AS run, "
        "sum(car_hours) OVER () AS total FROM cs) WHERE run >= 0.5 * total"))]]
    A[9723] = [["pct_night_peak", dec(T.one(
        "SELECT 100.0 * count(*) FILTER (WHERE peak_hour BETWEEN 0 AND 5) / count(*) FROM cs"), 2)]]
    growth = T.rows(
        "WITH long AS (UNPIVOT (SELECT d, " + ", ".join(TICKERS) + " FROM px) ON " + ", ".join(TICKERS)
        + " INTO NAME ticker VALUE price) "
        "SELECT a.ticker, b.price / a.price - 1 AS g FROM long a JOIN long b ON a.ticker = b.ticker "
        "WHERE a.d = DATE '2012-01-01' AND b.d = DATE '2022-01-01' ORDER BY g DESC")
    assert len(growth) >= 4 and len({round(g, 9) for _, g in growth[:4]}) == 4
    A[9724] = [["top3_tickers", ", ".join(t for t, _ in growth[:3])]]
    A[9725] = [["rows_without_amzn", str(T.one("SELECT count(*) FROM px WHERE GSPC IS NOT NULL AND AMZN IS NULL"))]]
    A[9726] = [["rank_day20", str(T.one(
        "SELECT r FROM (SELECT rowid AS i, rank() OVER (ORDER BY STACKLOSS DESC) AS r FROM sl) WHERE i = 19"))]]

    # --- hard
    data = T.matrix("SELECT AIRFLOW, WATERTEMP, ACIDCONC, STACKLOSS FROM sl ORDER BY rowid")
    beta, resid = ols(data[:, :3], data[:, 3])
    y = data[:, 3]
    A[9727] = [["airflow_coef", dec(beta[1], 4)],
               ["r_squared", dec(1 - (resid**2).sum() / ((y - y.mean()) ** 2).sum(), 4)]]
    order = np.argsort(-resid)
    assert resid[order[0]] - resid[order[1]] > 1e-9
    A[9728] = [["day", str(int(order[0]) + 1)]]

    cells = T.rows("SELECT PSI, GRADE, count(*) FROM sp GROUP BY ALL ORDER BY ALL")
    assert [(p, g) for p, g, _ in cells] == [(0, 0), (0, 1), (1, 0), (1, 1)]
    obs = np.array([n for _, _, n in cells], dtype=float).reshape(2, 2)
    expected = np.outer(obs.sum(axis=1), obs.sum(axis=0)) / obs.sum()
    chi2 = float(((obs - expected) ** 2 / expected).sum())
    A[9729] = [["chi2", dec(chi2, 3)], ["p_value", dec(math.erfc(math.sqrt(chi2 / 2)), 4)]]

    own = T.matrix("SELECT AVGEXP FROM cc WHERE OWNRENT = 1")[:, 0]
    rent = T.matrix("SELECT AVGEXP FROM cc WHERE OWNRENT = 0")[:, 0]
    v1, v2 = own.var(ddof=1) / len(own), rent.var(ddof=1) / len(rent)
    t = (own.mean() - rent.mean()) / math.sqrt(v1 + v2)
    df = (v1 + v2) ** 2 / (v1**2 / (len(own) - 1) + v2**2 / (len(rent) - 1))
    from scipy.stats import t as t_dist  # only the distribution function

    A[9730] = [["t_statistic", dec(t, 3)], ["significant", "yes" if 2 * t_dist.sf(abs(t), df) < 0.05 else "no"]]

    r = avg_ranks(T, "cc", "INCOME", "AVGEXP")
    assert len(r) == 72
    A[9731] = [["spearman_rho", dec(pearson(r[:, 0], r[:, 1]), 4)]]
    A[9732] = [["outlier_zones", str(T.one(
        "WITH q AS (SELECT quantile_cont(car_hours, 0.25) AS q1, quantile_cont(car_hours, 0.75) AS q3 FROM cs) "
        "SELECT count(*) FROM cs, q WHERE car_hours < q1 - 1.5 * (q3 - q1) OR car_hours > q3 + 1.5 * (q3 - q1)"))]]
    cu = T.matrix("SELECT COPPERPRICE, INCOMEINDEX, ALUMPRICE, WORLDCONSUMPTION FROM cu")
    assert len(cu) == 25
    A[9733] = [["price_coef", dec(ols(cu[:, :3], cu[:, 3])[0][1], 2)]]

    season = T.rows(
        "SELECT quarter, avg(Dp) FROM qq WHERE year IN (SELECT year FROM qq GROUP BY year HAVING count(*) = 4) "
        "GROUP BY quarter ORDER BY 2 DESC")
    assert len(season) == 4
    A[9734] = [["quarter", str(only_top(season))], ["mean_dp", dec(season[0][1], 5)]]
    A[9735] = [["lowest_average_quarter", only_top(T.rows(
        "SELECT per, -avg(Dp) OVER w AS a FROM qq WINDOW w AS (ORDER BY t ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) "
        "QUALIFY count(*) OVER w = 4 ORDER BY a DESC"))]]
    above = T.rows(
        "SELECT count(*) FILTER (WHERE Close > ma), count(*), min(abs(Close - ma)) FROM ("
        "SELECT Close, avg(Close) OVER w AS ma, count(*) OVER w AS n FROM ms "
        "WINDOW w AS (ORDER BY day ROWS BETWEEN 9 PRECEDING AND CURRENT ROW)) WHERE n = 10")[0]
    assert above[1] == 56 and above[2] > 1e-6
    A[9736] = [["days_above_average", str(above[0])]]
    A[9737] = [["unusual_days", ", ".join(d for (d,) in T.rows(
        "SELECT strftime(day, '%Y-%m-%d') FROM ms, (SELECT avg(Volume) AS mu, stddev_samp(Volume) AS sd FROM ms) "
        "WHERE abs(Volume - mu) / sd > 2 ORDER BY day"))]]
    A[9738] = [["return_correlation", dec(T.one(
        "SELECT corr(ra, rm) FROM (SELECT AAPL / lag(AAPL) OVER (ORDER BY d) - 1 AS ra, "
        "MSFT / lag(MSFT) OVER (ORDER BY d) - 1 AS rm FROM pm) WHERE ra IS NOT NULL AND rm IS NOT NULL"), 4)]]
    A[9739] = [["best_year", str(only_top(T.rows(
        "SELECT year(a.d), b.GSPC / a.GSPC - 1 AS g FROM pm a JOIN pm b ON b.d = a.d + INTERVAL 1 YEAR "
        "WHERE month(a.d) = 1 AND year(a.d) BETWEEN 1990 AND 2021 ORDER BY g DESC")))]]
    r = avg_ranks(T, "st", "duration", "iprod")
    assert len(r) == 62
    A[9740] = [["spearman_rho", dec(pearson(r[:, 0], r[:, 1]), 4)]]
    return A


if __name__ == "__main__":
    heldout_common.run_solver(sys.argv[1:], HERE, solve, Tables)
