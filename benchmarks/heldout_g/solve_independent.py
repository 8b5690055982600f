"""Second, independent solution of held-out batch G, written from the text of each question alone.

It does not share code with ``labels_g.py`` and is written in a different style: DuckDB SQL over
the CSV files for the data work (dates parsed with strptime, periods split in SQL, the long
mode-choice table pivoted with conditional aggregates, moving averages, year-on-year changes and
average ranks as window functions), and numpy arithmetic written out by hand for the tests and fits
(scipy is used only for the cumulative t distribution of a p-value).

    .venv/bin/python benchmarks/heldout_g/solve_independent.py [TABLES_DIR]

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
IDX = "STS.M.I7.W.TOVT.NS0016.4.000"


def _types(**columns: str) -> str:
    return heldout_common.column_types(columns.items())


DBL, INT, TXT = "DOUBLE", "INTEGER", "VARCHAR"
STAR_COLUMNS = ["MATHTOT", "PR50M", "LOWINC", "PERASIAN", "PERBLACK", "PERHISP", "PERMINTE", "AVYRSEXP", "AVSALK",
                "PERSPENK", "PTRATIO", "PCTAF", "PCTCHRT", "PCTYRRND", "PERMINTE_AVYRSEXP", "PERMINTE_AVSAL",
                "AVYRSEXP_AVSAL", "PERSPEN_PTRATIO", "PERSPEN_PCTAF", "PTRATIO_PCTAF", "PERMINTE_AVYRSEXP_AVSAL",
                "PERSPEN_PTRATIO_PCTAF"]
CSV_TYPES = {  # explicit column types: nothing is left to type sniffing
    "star98.csv": _types(**{c: DBL for c in STAR_COLUMNS}),
    "scotvote.csv": _types(COUNCILDIST=TXT, YES=DBL, COUTAX=DBL, UNEMPF=DBL, MOR=DBL, ACT=DBL, GDP=DBL, AGE=DBL,
                           COUTAX_FEMALEUNEMP=DBL),
    "cpunish.csv": _types(STATE=TXT, EXECUTIONS=INT, INCOME=DBL, PERPOVERTY=DBL, PERBLACK=DBL, VC100k96=DBL,
                          SOUTH=INT, DEGREE=DBL),
    "committee.csv": _types(COMMITTEE=TXT, BILLS104=INT, SIZE=INT, SUBS=INT, STAFF=INT, PRESTIGE=INT, BILLS103=INT),
    "danish_data.csv": _types(period=TXT, lrm=DBL, lry=DBL, lpy=DBL, ibo=DBL, ide=DBL),
    "elec_equip.csv": _types(DATE=TXT, idx=DBL),
    "modechoice.csv": _types(individual=INT, mode=INT, choice=INT, ttme=DBL, invc=DBL, invt=DBL, gc=DBL, hinc=DBL,
                             psize=DBL),
    "randhie.csv": _types(mdvis=INT, lncoins=DBL, idp=DBL, lpi=DBL, fmde=DBL, physlm=DBL, disea=DBL, hlthg=DBL,
                          hlthf=DBL, hlthp=DBL),
    "longley.csv": _types(Obs=INT, TOTEMP=DBL, GNPDEFL=DBL, GNP=DBL, UNEMP=DBL, ARMED=DBL, POP=DBL, YEAR=INT),
}
VIEWS = {"star98.csv": "star", "scotvote.csv": "scot", "cpunish.csv": "pun", "committee.csv": "com",
         "danish_data.csv": "dk_raw", "elec_equip.csv": "elec_raw", "modechoice.csv": "mc", "randhie.csv": "hie",
         "longley.csv": "longley"}


class Tables(heldout_common.SqlTables):
    """One DuckDB connection with a view per table (star, scot, pun, com, dk_raw, elec_raw, mc, hie,
    longley; the header row is skipped and the columns named and typed here, so the byte order mark
    of the Danish file and the long Eurostat column name play no part) and derived views: dk (the
    Danish quarters with y, q and a running index t), elec (month start date m and index idx,
    time-ordered)."""

    def __init__(self, folder: Path):
        super().__init__()
        for file, view in VIEWS.items():
            path = heldout_common.sql_path(folder, file)
            self.con.execute(
                f"CREATE VIEW {view} AS SELECT * FROM read_csv('{path}', header=false, skip=1, delim=',', "
                f"quote='\"', columns={CSV_TYPES[file]})"
            )
        self.con.execute(
            "CREATE VIEW dk AS SELECT period, CAST(substr(period, 1, 4) AS INTEGER) AS y, "
            "CAST(substr(period, 6, 1) AS INTEGER) AS q, "
            "CAST(substr(period, 1, 4) AS INTEGER) * 4 + CAST(substr(period, 6, 1) AS INTEGER) AS t, "
            "lrm, lry, lpy, ibo, ide FROM dk_raw"
        )
        self.con.execute("CREATE VIEW elec AS SELECT CAST(strptime(DATE, '%b-%d-%Y') AS DATE) AS m, idx FROM elec_raw")


def least_squares(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Coefficients (intercept first) from the normal equations, an intercept column added here."""
    A = np.column_stack([np.ones(len(y)), X])
    return np.linalg.solve(A.T @ A, A.T @ y)


def pearson(x: np.ndarray, y: np.ndarray) -> float:
    xd, yd = x - x.mean(), y - y.mean()
    return float((xd * yd).sum() / np.sqrt((xd**2).sum() * (yd**2).sum()))


def t_two_sided_p(t: float, df: float) -> float:
    from scipy.stats import t as t_dist  # only the distribution function

    return float(2 * t_dist.sf(abs(t), df))


def ym(d) -> str:
    return d.strftime("%Y-%m")


def solve(T: Tables) -> dict[int, list[list[str]]]:
    A: dict[int, list[list[str]]] = {}
    # --- easy
    A[9601] = [["south_executions", str(T.one("SELECT sum(EXECUTIONS) FROM pun WHERE SOUTH = 1"))]]
    A[9602] = [["busiest_committee", only_top(T.rows("SELECT COMMITTEE, BILLS104 FROM com ORDER BY BILLS104 DESC"))]]
    A[9603] = [["districts_over_60", str(T.one("SELECT count(*) FROM scot WHERE YES > 60"))]]
    A[9604] = [["mean_visits", dec(T.one("SELECT avg(mdvis) FROM hie"), 2)]]
    A[9605] = [["lowest_unemployment_year", str(only_top(T.rows(
        "SELECT YEAR, -UNEMP FROM longley ORDER BY UNEMP ASC")))]]
    A[9606] = [["crowded_districts", str(T.one("SELECT count(*) FROM star WHERE PTRATIO > 25"))]]
    A[9607] = [["peak_month", ym(only_top(T.rows("SELECT m, idx FROM elec ORDER BY idx DESC")))]]
    A[9608] = [["train_travellers", str(T.one("SELECT count(*) FROM mc WHERE mode = 2 AND choice = 1"))]]
    A[9609] = [["peak_bond_quarter", only_top(T.rows("SELECT period, ibo FROM dk ORDER BY ibo DESC"))]]
    A[9610] = [["pct_poor_health", dec(T.one(
        "SELECT 100.0 * count(*) FILTER (WHERE hlthp = 1) / count(*) FROM hie"), 2)]]
    # --- medium
    A[9611] = [["income_gap", dec(T.one(
        "SELECT avg(INCOME) FILTER (WHERE SOUTH = 0) - avg(INCOME) FILTER (WHERE SOUTH = 1) FROM pun"), 2)]]
    A[9612] = [["pct_change", dec(T.one(
        "SELECT 100.0 * (sum(BILLS104)::DOUBLE / sum(BILLS103) - 1) FROM com"), 2)]]
    A[9613] = [["committees_up", str(T.one("SELECT count(*) FROM com WHERE BILLS104 > BILLS103"))]]
    A[9614] = [["r_yes_coutax", dec(T.one("SELECT corr(YES, COUTAX) FROM scot"), 4)]]
    top = T.rows("SELECT COUNCILDIST, UNEMPF FROM scot ORDER BY UNEMPF DESC LIMIT 4")
    assert len({v for _, v in top}) == 4
    A[9615] = [["top3_districts", ", ".join(name for name, _ in top[:3])]]
    A[9616] = [["pct_above_median", dec(T.one("SELECT 100.0 * sum(PR50M) / sum(MATHTOT) FROM star"), 2)]]
    A[9617] = [["median_spending", dec(T.one("SELECT quantile_cont(PERSPENK, 0.5) FROM star WHERE PCTCHRT > 0"), 3)]]
    A[9618] = [["visit_ratio", dec(T.one(
        "SELECT avg(mdvis) FILTER (WHERE hlthp = 1) / "
        "avg(mdvis) FILTER (WHERE hlthg = 0 AND hlthf = 0 AND hlthp = 0) FROM hie"), 3)]]
    A[9619] = [["coinsurance_levels", str(T.one("SELECT count(DISTINCT lncoins) FROM hie"))]]
    A[9620] = [["mean_income_air", dec(T.one("SELECT avg(hinc) FROM mc WHERE mode = 1 AND choice = 1"), 2)]]
    A[9621] = [["committees_for_80pct", str(T.one(
        "SELECT min(k) FROM (SELECT row_number() OVER (ORDER BY BILLS104 DESC) AS k, "
        "sum(BILLS104) OVER (ORDER BY BILLS104 DESC ROWS UNBOUNDED PRECEDING) AS run, "
        "sum(BILLS104) OVER () AS total FROM com) WHERE run >= 0.8 * total"))]]
    A[9622] = [["gnp_growth_pct", dec(T.one(
        "SELECT 100.0 * (max(GNP) FILTER (WHERE YEAR = 1962) / max(GNP) FILTER (WHERE YEAR = 1947) - 1) "
        "FROM longley"), 2)]]
    A[9623] = [["best_year", str(only_top(T.rows(
        "SELECT YEAR, TOTEMP - lag(TOTEMP) OVER (ORDER BY YEAR) AS ch FROM longley "
        "QUALIFY ch IS NOT NULL ORDER BY ch DESC")))]]
    A[9624] = [["strongest_year", str(only_top(T.rows(
        "SELECT year(m) AS y, avg(idx) AS a FROM elec GROUP BY y HAVING count(*) = 12 ORDER BY a DESC")))]]
    A[9625] = [["falling_quarters", str(T.one(
        "SELECT count(*) FROM (SELECT lrm - lag(lrm) OVER (ORDER BY t) AS ch FROM dk) WHERE ch < 0"))]]
    A[9626] = [["texas_rank", str(T.one(
        "SELECT r FROM (SELECT STATE, rank() OVER (ORDER BY VC100k96 DESC) AS r FROM pun) WHERE STATE = 'Texas'"))]]

    # --- hard
    xy = np.array(T.rows("SELECT LOWINC, 100.0 * PR50M / MATHTOT FROM star"))
    assert len(xy) == 303
    b0, b1 = least_squares(xy[:, 0], xy[:, 1])
    resid = xy[:, 1] - (b0 + b1 * xy[:, 0])
    r2 = 1 - (resid**2).sum() / ((xy[:, 1] - xy[:, 1].mean()) ** 2).sum()
    A[9627] = [["slope", dec(b1, 4)], ["r_squared", dec(r2, 4)]]

    g1 = T.col("SELECT 100.0 * PR50M / MATHTOT FROM star WHERE PCTYRRND > 0")
    g2 = T.col("SELECT 100.0 * PR50M / MATHTOT FROM star WHERE PCTYRRND = 0")
    assert len(g1) + len(g2) == 303
    v1, v2 = g1.var(ddof=1) / len(g1), g2.var(ddof=1) / len(g2)
    t = (g1.mean() - g2.mean()) / np.sqrt(v1 + v2)
    df = (v1 + v2) ** 2 / (v1**2 / (len(g1) - 1) + v2**2 / (len(g2) - 1))
    A[9628] = [["t_statistic", dec(t, 3)], ["significant", "yes" if t_two_sided_p(t, df) < 0.05 else "no"]]

    cells = T.rows(
        "SELECT physlm, mdvis > 0 AS seen, count(*) FROM hie WHERE physlm = 0 OR physlm = 1 GROUP BY ALL ORDER BY ALL")
    assert len(cells) == 4
    obs = np.array([c[2] for c in cells], dtype=float).reshape(2, 2)
    expected = np.outer(obs.sum(axis=1), obs.sum(axis=0)) / obs.sum()
    A[9629] = [["chi2", dec(((obs - expected) ** 2 / expected).sum(), 2)]]

    A[9630] = [["visit_outliers", str(T.one(
        "WITH q AS (SELECT quantile_cont(mdvis, 0.25) AS q1, quantile_cont(mdvis, 0.75) AS q3 FROM hie) "
        "SELECT count(*) FROM hie, q WHERE mdvis < q1 - 1.5 * (q3 - q1) OR mdvis > q3 + 1.5 * (q3 - q1)"))]]

    A[9631] = [["pct_cheapest", dec(T.one(
        "SELECT 100.0 * avg(CASE WHEN chosen_gc = min_gc THEN 1 ELSE 0 END) FROM ("
        "SELECT individual, max(gc) FILTER (WHERE choice = 1) AS chosen_gc, min(gc) AS min_gc, "
        "count(*) FILTER (WHERE choice = 1) AS n_chosen FROM mc GROUP BY individual) WHERE n_chosen = 1"), 2)]]
    assert T.one("SELECT count(DISTINCT individual) FROM mc") == 210
    assert T.one("SELECT count(*) FROM mc WHERE choice = 1") == 210

    A[9632] = [["minutes_saved", dec(T.one(
        "SELECT avg(car - air) FROM (SELECT individual, "
        "max(invt) FILTER (WHERE mode = 4) AS car, max(invt) FILTER (WHERE mode = 1) AS air, "
        "max(choice) FILTER (WHERE mode = 1) AS flew FROM mc GROUP BY individual) WHERE flew = 1"), 2)]]

    yoy = T.rows(
        "SELECT a.m, 100.0 * (a.idx / b.idx - 1) AS g FROM elec a JOIN elec b ON b.m = a.m - INTERVAL 12 MONTH "
        "ORDER BY g DESC")
    A[9633] = [["month", ym(only_top(yoy))], ["yoy_growth_pct", dec(yoy[0][1], 2)]]

    A[9634] = [["peak_average_month", ym(only_top(T.rows(
        "SELECT m, avg(idx) OVER w AS a FROM elec WINDOW w AS (ORDER BY m ROWS BETWEEN 11 PRECEDING AND CURRENT ROW) "
        "QUALIFY count(*) OVER w = 12 ORDER BY a DESC")))]]

    X = np.array(T.rows("SELECT lry, ibo, lrm FROM dk"))
    assert len(X) == 55
    coef = least_squares(X[:, :2], X[:, 2])
    A[9635] = [["coef_lry", dec(coef[1], 4)], ["coef_ibo", dec(coef[2], 4)]]

    A[9636] = [["year", str(only_top(T.rows(
        "SELECT y, -(a - lag(a) OVER (ORDER BY y)) AS fall FROM "
        "(SELECT y, avg(ibo) AS a FROM dk GROUP BY y HAVING count(*) = 4) "
        "QUALIFY fall IS NOT NULL ORDER BY fall DESC")))]]

    A[9637] = [["unusual_districts", ", ".join(r[0] for r in T.rows(
        "SELECT COUNCILDIST FROM scot, (SELECT avg(MOR) AS mu, stddev_samp(MOR) AS sd FROM scot) "
        "WHERE abs(MOR - mu) / sd > 2 ORDER BY COUNCILDIST"))]]

    xy = np.array(T.rows("SELECT BILLS103, BILLS104 FROM com"), dtype=float)
    c0, c1 = least_squares(xy[:, 0], xy[:, 1])
    A[9638] = [["predicted_bills", dec(c0 + 100 * c1, 2)]]

    ranks = np.array(T.rows(
        "SELECT rank() OVER (ORDER BY VC100k96) + (count(*) OVER (PARTITION BY VC100k96) - 1) / 2.0, "
        "rank() OVER (ORDER BY EXECUTIONS) + (count(*) OVER (PARTITION BY EXECUTIONS) - 1) / 2.0 FROM pun"),
        dtype=float)
    assert len(ranks) == 17
    A[9639] = [["spearman_rho", dec(pearson(ranks[:, 0], ranks[:, 1]), 4)]]

    names = ["TOTEMP", "GNPDEFL", "GNP", "UNEMP", "ARMED", "POP"]
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            pairs.append((f"{a}-{b}", abs(T.one(f"SELECT corr({a}, {b}) FROM longley"))))
    A[9640] = [["pair", only_top(sorted(pairs, key=lambda p: -p[1]))]]
    return A


if __name__ == "__main__":
    heldout_common.run_solver(sys.argv[1:], HERE, solve, Tables)
