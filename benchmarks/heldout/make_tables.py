"""Build the held-out benchmark tables from data shipped inside installed packages.

Nothing is downloaded: every table comes from ``plotly.data`` or ``sklearn.datasets``.
Output: ``benchmarks/heldout/tables/<name>.csv`` (header row, no index). The build is
deterministic; the only changes to the shipped data are the ones documented below.

    .venv/bin/python benchmarks/heldout/make_tables.py

Tables
------
gapminder.csv        plotly.data.gapminder(), unchanged (1704 rows).
restaurant_tips.csv  plotly.data.tips() with injected messiness:
                       * ``tip`` is set to empty (missing) on every row whose 0-based
                         position satisfies ``i % 11 == 10`` (rows 10, 21, 32, ...);
                       * copies of original rows 20 and 150 are appended at the end
                         (two extra exact duplicates; the shipped data already holds
                         one duplicated pair, rows 198/202).
wine.csv             sklearn.datasets.load_wine(as_frame=True).frame; the column
                     ``od280/od315_of_diluted_wines`` is renamed ``od280_od315`` and
                     ``target`` (0, 1, 2) becomes ``cultivar`` (1, 2, 3).
diabetes.csv         sklearn.datasets.load_diabetes(as_frame=True, scaled=False).frame;
                     ``target`` renamed ``progression``; ``age`` and ``sex`` written as
                     integers; ``bmi`` set to empty on every row with ``i % 7 == 6``.
stocks.csv           plotly.data.stocks(), unchanged (weekly prices normalised to 1
                     on 2018-01-01).
experiment.csv       plotly.data.experiment(), unchanged.
election.csv         plotly.data.election(), unchanged (58 districts of the 2013 Montreal
                     mayoral election; columns district, Coderre, Bergeron, Joly, total,
                     winner, result, district_id). Written as UTF-8.
breast_cancer.csv    sklearn.datasets.load_breast_cancer(as_frame=True).frame; spaces in
                     column names become underscores (``mean radius`` -> ``mean_radius``);
                     ``target`` becomes the string column ``diagnosis`` (0 -> "malignant",
                     1 -> "benign"); ``mean_texture`` is set to empty on every row whose
                     0-based position satisfies ``i % 13 == 12`` (rows 12, 25, 38, ...).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import plotly.data as pdata
from sklearn import datasets

OUT = Path(__file__).resolve().parent / "tables"


def gapminder() -> pd.DataFrame:
    return pdata.gapminder()


def restaurant_tips() -> pd.DataFrame:
    df = pdata.tips().reset_index(drop=True)
    extra = df.loc[[20, 150]].copy()  # duplicates taken before any blanking
    mask = np.arange(len(df)) % 11 == 10
    df["tip"] = df["tip"].astype("float64")
    df.loc[mask, "tip"] = np.nan
    return pd.concat([df, extra], ignore_index=True)


def wine() -> pd.DataFrame:
    df = datasets.load_wine(as_frame=True).frame
    df = df.rename(columns={"od280/od315_of_diluted_wines": "od280_od315"})
    df["cultivar"] = df.pop("target").astype(int) + 1
    return df


def diabetes() -> pd.DataFrame:
    df = datasets.load_diabetes(as_frame=True, scaled=False).frame
    df = df.rename(columns={"target": "progression"})
    df["age"] = df["age"].astype(int)
    df["sex"] = df["sex"].astype(int)
    df["progression"] = df["progression"].astype(int)
    mask = np.arange(len(df)) % 7 == 6
    df.loc[mask, "bmi"] = np.nan
    return df


def stocks() -> pd.DataFrame:
    return pdata.stocks()


def experiment() -> pd.DataFrame:
    return pdata.experiment()


def election() -> pd.DataFrame:
    return pdata.election()


def breast_cancer() -> pd.DataFrame:
    df = datasets.load_breast_cancer(as_frame=True).frame.reset_index(drop=True)
    df.columns = [c.replace(" ", "_") for c in df.columns]
    df["diagnosis"] = df.pop("target").map({0: "malignant", 1: "benign"})
    mask = np.arange(len(df)) % 13 == 12
    df.loc[mask, "mean_texture"] = np.nan
    return df


TABLES = {
    "gapminder.csv": gapminder,
    "restaurant_tips.csv": restaurant_tips,
    "wine.csv": wine,
    "diabetes.csv": diabetes,
    "stocks.csv": stocks,
    "experiment.csv": experiment,
    "election.csv": election,
    "breast_cancer.csv": breast_cancer,
}


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, build in TABLES.items():
        df = build()
        df.to_csv(OUT / name, index=False)
        print(f"{name}: {df.shape[0]} rows x {df.shape[1]} columns")


if __name__ == "__main__":
    main()
