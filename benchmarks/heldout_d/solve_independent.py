"""Second, independent solution of held-out batch D, written from the text of each question alone.

It does not share code with ``labels_d.py`` and is written in a different style: DuckDB SQL over
the CSV files for the data work, and numpy arithmetic written out by hand for the tests and fits
(scipy is used only for the cumulative t distribution of a p-value).

    .venv/bin/python benchmarks/heldout_d/solve_independent.py [TABLES_DIR]

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
from heldout_common import dec  # noqa: E402

# D's tie check compares the top two scores exactly
only_top = partial(heldout_common.only_top, tolerance=None)

HERE = Path(__file__).resolve().parent

CSV_TYPES = {  # explicit column types: nothing is left to type sniffing
    "cars.csv": "{'Name': 'VARCHAR', 'Miles_per_Gallon': 'DOUBLE', 'Cylinders': 'INTEGER', 'Displacement': 'DOUBLE', "
    "'Horsepower': 'DOUBLE', 'Weight_in_lbs': 'DOUBLE', 'Acceleration': 'DOUBLE', 'Year': 'VARCHAR', 'Origin': 'VARCHAR'}",
    "driving.csv": "{'side': 'VARCHAR', 'year': 'INTEGER', 'miles': 'DOUBLE', 'gas': 'DOUBLE'}",
    "seattle_temps.csv": "{'date': 'VARCHAR', 'temp': 'DOUBLE'}",
    "ohlc.csv": "{'date': 'VARCHAR', 'open': 'DOUBLE', 'high': 'DOUBLE', 'low': 'DOUBLE', 'close': 'DOUBLE', "
    "'signal': 'VARCHAR', 'ret': 'DOUBLE'}",
    "iris.csv": "{'sepalLength': 'DOUBLE', 'sepalWidth': 'DOUBLE', 'petalLength': 'DOUBLE', 'petalWidth': 'DOUBLE', "
    "'species': 'VARCHAR'}",
    "anscombe.csv": "{'Series': 'VARCHAR', 'X': 'DOUBLE', 'Y': 'DOUBLE'}",
    "burtin.csv": "{'Bacteria': 'VARCHAR', 'Penicillin': 'DOUBLE', 'Streptomycin': 'DOUBLE', 'Neomycin': 'DOUBLE', "
    "'Gram_Staining': 'VARCHAR', 'Genus': 'VARCHAR'}",
    "co2_weekly.csv": "{'date': 'VARCHAR', 'co2': 'DOUBLE'}",
}


class Tables(heldout_common.SqlTables):
    """One DuckDB connection with a view per table: cars, driving, temps, ohlc, iris, anscombe,
    burtin, co2, fert (fertility, columns as in the file: "Country Name", "1960", ...)."""

    def __init__(self, folder: Path):
        super().__init__()
        views = {"cars.csv": "cars", "driving.csv": "driving", "seattle_temps.csv": "temps", "ohlc.csv": "ohlc",
                 "iris.csv": "iris", "anscombe.csv": "anscombe", "burtin.csv": "burtin", "co2_weekly.csv": "co2"}
        for file, view in views.items():
            path = heldout_common.sql_path(folder, file)
            self.con.execute(
                f"CREATE VIEW {view} AS SELECT * FROM read_csv('{path}', header=true, delim=',', quote='\"', "
                f"columns={CSV_TYPES[file]})"
            )
        path = heldout_common.sql_path(folder, "fertility.csv")
        self.con.execute(f"CREATE VIEW fert AS SELECT * FROM read_csv('{path}', header=true, all_varchar=true)")
        self.con.execute("CREATE VIEW hourly AS SELECT strptime(date, '%Y/%m/%d %H:%M') AS ts, temp FROM temps")
        self.con.execute(
            "CREATE VIEW weekly AS SELECT strptime(date, '%Y%m%d')::DATE AS d, year(strptime(date, '%Y%m%d')) AS y, "
            "month(strptime(date, '%Y%m%d')) AS m, co2 FROM co2"
        )


def ols(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """(intercept, slope) of the least-squares line, from the normal equations."""
    xm, ym = x.mean(), y.mean()
    slope = ((x - xm) * (y - ym)).sum() / ((x - xm) ** 2).sum()
    return ym - slope * xm, slope


def t_two_sided_p(t: float, df: float) -> float:
    from scipy.stats import t as t_dist  # only the distribution function

    return float(2 * t_dist.sf(abs(t), df))


def solve(T: Tables) -> dict[int, list[list[str]]]:
    A: dict[int, list[list[str]]] = {}
    # --- easy
    A[9301] = [["eight_cylinder_cars", str(T.one("SELECT count(*) FROM cars WHERE Cylinders = 8"))]]
    A[9302] = [["mean_horsepower_japan", dec(T.one("SELECT avg(Horsepower) FROM cars WHERE Origin = 'Japan'"), 2)]]
    A[9303] = [["distinct_names", str(T.one("SELECT count(DISTINCT Name) FROM cars"))]]
    A[9304] = [["median_petal_length", dec(T.one("SELECT median(petalLength) FROM iris WHERE species = 'versicolor'"), 2)]]
    A[9305] = [["year", str(only_top(T.rows("SELECT year, gas FROM driving ORDER BY gas DESC")))]]
    A[9306] = [["gram_positive", str(T.one("SELECT count(*) FROM burtin WHERE Gram_Staining = 'positive'"))]]
    A[9307] = [["up_days", str(T.one("SELECT count(*) FROM ohlc WHERE close > open"))]]
    A[9308] = [["max_temp", dec(T.one("SELECT max(temp) FROM temps"), 1)]]
    A[9309] = [["mean_y_iv", dec(T.one("SELECT avg(Y) FROM anscombe WHERE Series = 'IV'"), 2)]]
    A[9310] = [["missing_weeks", str(T.one("SELECT count(*) - count(co2) FROM co2"))]]
    # --- medium
    A[9311] = [["origin", only_top(T.rows(
        "SELECT Origin, avg(Miles_per_Gallon) AS a FROM cars GROUP BY Origin ORDER BY a DESC"))]]
    A[9312] = [["japan_share_pct", dec(T.one(
        "SELECT 100.0 * count(*) FILTER (WHERE Origin = 'Japan') / count(*) FROM cars WHERE Cylinders = 4"), 2)]]
    A[9313] = [["weight_p90", dec(T.one("SELECT quantile_cont(Weight_in_lbs, 0.9) FROM cars"), 2)]]
    A[9314] = [["r", dec(T.one("SELECT corr(sepalLength, petalLength) FROM iris"), 4)]]
    A[9315] = [["species", only_top(T.rows(
        "SELECT species, avg(sepalWidth) AS a FROM iris GROUP BY species ORDER BY a DESC"))]]
    A[9316] = [["month", str(only_top(T.rows(
        "SELECT month(ts), avg(temp) AS a FROM hourly WHERE year(ts) = 2010 GROUP BY 1 ORDER BY a DESC")))]]
    A[9317] = [["mean_daily_high", dec(T.one(
        "SELECT avg(hi) FROM (SELECT ts::DATE AS d, max(temp) AS hi FROM hourly "
        "WHERE year(ts) = 2010 AND month(ts) = 7 GROUP BY 1 HAVING count(*) > 0)"), 2)]]
    assert T.one("SELECT count(DISTINCT ts::DATE) FROM hourly WHERE year(ts) = 2010 AND month(ts) = 7") == 31
    A[9318] = [["mean_co2_1990", dec(T.one("SELECT avg(co2) FROM weekly WHERE y = 1990"), 2)]]
    first, last = T.rows("SELECT (SELECT miles FROM driving ORDER BY year LIMIT 1), "
                         "(SELECT miles FROM driving ORDER BY year DESC LIMIT 1)")[0]
    A[9319] = [["growth_pct", dec(100 * (last - first) / first, 2)]]
    A[9320] = [["share_1990s_pct", dec(T.one(
        "SELECT 100 * sum(miles) FILTER (WHERE year BETWEEN 1990 AND 1999) / sum(miles) FROM driving"), 2)]]
    A[9321] = [["mean_ret_short", dec(T.one("SELECT avg(ret) FROM ohlc WHERE signal = 'short'"), 4)]]
    A[9322] = [["median_penicillin", dec(T.one(
        "SELECT median(Penicillin) FROM burtin WHERE Gram_Staining = 'negative'"), 3)]]
    A[9323] = [["country", only_top(T.rows(
        "SELECT \"Country Name\", CAST(\"2011\" AS DOUBLE) AS v FROM fert WHERE \"2011\" IS NOT NULL ORDER BY v DESC"))]]
    A[9324] = [["below_replacement", str(T.one("SELECT count(*) FROM fert WHERE CAST(\"2011\" AS DOUBLE) < 2.1"))]]
    A[9325] = [["slope", dec(T.one("SELECT regr_slope(Y, X) FROM anscombe WHERE Series = 'I'"), 4)]]
    A[9326] = [["outliers", str(T.one(
        "WITH q AS (SELECT quantile_cont(sepalWidth, 0.25) AS q1, quantile_cont(sepalWidth, 0.75) AS q3 FROM iris) "
        "SELECT count(*) FROM iris, q WHERE sepalWidth < q1 - 1.5 * (q3 - q1) OR sepalWidth > q3 + 1.5 * (q3 - q1)"))]]
    return A | solve_hard(T)


def solve_hard(T: Tables) -> dict[int, list[list[str]]]:
    A: dict[int, list[list[str]]] = {}
    makes = T.rows(
        "SELECT regexp_extract(Name, '^\\s*(\\S+)', 1) AS make, avg(Miles_per_Gallon) AS a FROM cars "
        "WHERE Miles_per_Gallon IS NOT NULL GROUP BY make HAVING count(*) >= 10 ORDER BY a DESC")
    assert len({round(a, 12) for _, a in makes[:4]}) == 4
    A[9327] = [["first_make", makes[0][0]], ["second_make", makes[1][0]], ["third_make", makes[2][0]]]

    eu = T.col("SELECT Miles_per_Gallon FROM cars WHERE Cylinders = 4 AND Origin = 'Europe' AND Miles_per_Gallon IS NOT NULL")
    jp = T.col("SELECT Miles_per_Gallon FROM cars WHERE Cylinders = 4 AND Origin = 'Japan' AND Miles_per_Gallon IS NOT NULL")
    ve, vj = eu.var(ddof=1) / len(eu), jp.var(ddof=1) / len(jp)
    t = (eu.mean() - jp.mean()) / np.sqrt(ve + vj)
    df = (ve + vj) ** 2 / (ve**2 / (len(eu) - 1) + vj**2 / (len(jp) - 1))
    A[9328] = [["t_statistic", dec(t, 4)], ["p_value", dec(t_two_sided_p(t, df), 4)]]

    counts = T.rows("SELECT Origin, Cylinders, count(*) FROM cars GROUP BY ALL")
    origins = sorted({o for o, _, _ in counts})
    cyls = sorted({c for _, c, _ in counts})
    obs = np.zeros((len(origins), len(cyls)))
    for o, c, n in counts:
        obs[origins.index(o), cyls.index(c)] = n
    expected = obs.sum(1, keepdims=True) * obs.sum(0, keepdims=True) / obs.sum()
    A[9329] = [["chi2", dec(((obs - expected) ** 2 / expected).sum(), 2)],
               ["dof", str((len(origins) - 1) * (len(cyls) - 1))]]

    falls = T.rows(
        "WITH m AS (SELECT year(CAST(Year AS DATE)) AS my, avg(Miles_per_Gallon) AS a FROM cars GROUP BY my) "
        "SELECT my, lag(a) OVER (ORDER BY my) - a AS fall FROM m QUALIFY fall IS NOT NULL ORDER BY fall DESC")
    A[9330] = [["model_year", str(only_top(falls))]]

    A[9331] = [["outliers", str(T.one(
        "SELECT count(*) FROM (SELECT (Horsepower - avg(Horsepower) OVER w) / stddev_samp(Horsepower) OVER w AS z "
        "FROM cars WHERE Horsepower IS NOT NULL WINDOW w AS (PARTITION BY Origin)) WHERE abs(z) > 2.5"))]]

    drops = T.rows(
        "WITH d AS (SELECT ts::DATE AS day, avg(temp) AS a FROM hourly GROUP BY 1) "
        "SELECT strftime(cur.day, '%Y-%m-%d'), prev.a - cur.a AS drop FROM d cur JOIN d prev "
        "ON prev.day = cur.day - INTERVAL 1 DAY ORDER BY drop DESC")
    A[9332] = [["day", only_top(drops)]]

    yearly = np.array(T.rows("SELECT y, avg(co2) FROM weekly WHERE y BETWEEN 1959 AND 2001 GROUP BY y ORDER BY y"))
    assert len(yearly) == 43
    A[9333] = [["trend_ppm_per_year", dec(ols(yearly[:, 0], yearly[:, 1])[1], 4)]]

    cycle = T.rows(
        "WITH w AS (SELECT * FROM weekly WHERE co2 IS NOT NULL AND y BETWEEN 1959 AND 2001), "
        "ann AS (SELECT y, avg(co2) AS a FROM w GROUP BY y), "
        "mon AS (SELECT y, m, avg(co2) AS a FROM w GROUP BY y, m) "
        "SELECT mon.m, avg(mon.a - ann.a) AS dev FROM mon JOIN ann USING (y) GROUP BY mon.m ORDER BY dev DESC")
    assert len(cycle) == 12
    A[9334] = [["peak_month", str(only_top(cycle))], ["amplitude", dec(cycle[0][1] - cycle[-1][1], 2)]]

    change = T.rows(
        "SELECT \"Country Name\", 100 * (CAST(\"2011\" AS DOUBLE) - CAST(\"1960\" AS DOUBLE)) / CAST(\"1960\" AS DOUBLE) AS pc "
        "FROM fert WHERE \"1960\" IS NOT NULL AND \"2011\" IS NOT NULL ORDER BY pc ASC")
    A[9335] = [["country", only_top(change)]]

    A[9336] = [["sd_1960", dec(T.one("SELECT stddev_samp(CAST(\"1960\" AS DOUBLE)) FROM fert"), 3)],
               ["sd_2011", dec(T.one("SELECT stddev_samp(CAST(\"2011\" AS DOUBLE)) FROM fert"), 3)]]

    ve_ = T.col("SELECT sepalLength FROM iris WHERE species = 'versicolor'")
    vi_ = T.col("SELECT sepalLength FROM iris WHERE species = 'virginica'")
    n1, n2 = len(ve_), len(vi_)
    pooled = ((n1 - 1) * ve_.var(ddof=1) + (n2 - 1) * vi_.var(ddof=1)) / (n1 + n2 - 2)
    t = (ve_.mean() - vi_.mean()) / np.sqrt(pooled * (1 / n1 + 1 / n2))
    A[9337] = [["t_statistic", dec(t, 4)], ["significant", "yes" if t_two_sided_p(t, n1 + n2 - 2) < 0.01 else "no"]]

    weeks = T.rows(
        "WITH o AS (SELECT strptime(date, '%Y-%m-%d')::DATE AS d, close FROM ohlc), "
        "w AS (SELECT d + CAST((5 - dayofweek(d) + 7) % 7 AS INTEGER) AS week_end, close, d FROM o) "
        "SELECT week_end, arg_max(close, d) FROM w GROUP BY week_end ORDER BY week_end")
    closes = [c for _, c in weeks]
    A[9338] = [["up_weeks", str(sum(b > a for a, b in zip(closes, closes[1:])))]]

    pts = np.array(T.rows("SELECT X, Y FROM anscombe WHERE Series = 'III'"))
    a, b = ols(pts[:, 0], pts[:, 1])
    resid = np.abs(pts[:, 1] - (a + b * pts[:, 0]))
    assert (resid == resid.max()).sum() == 1
    keep = resid < resid.max()
    A[9339] = [["slope_without_outlier", dec(ols(pts[keep, 0], pts[keep, 1])[1], 4)]]

    A[9340] = [["r_log", dec(T.one("SELECT corr(log10(Penicillin), log10(Neomycin)) FROM burtin"), 4)]]
    return A


if __name__ == "__main__":
    heldout_common.run_solver(sys.argv[1:], HERE, solve, Tables)
