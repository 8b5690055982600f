"""What the label scripts share: the registry (``@label(id)``), the table reader and the
rounding that refuses a value on a rounding half (half-up and half-even could then disagree)."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
TABLES = HERE / "tables"
LABELS: dict = {}


def label(qid):
    def register(fn):
        LABELS[qid] = fn
        return fn

    return register


def read(name: str) -> pd.DataFrame:
    return pd.read_csv(TABLES / name)


def yes_no(flag) -> str:
    return "yes" if bool(flag) else "no"


def render(value, decimals):
    if decimals is None:
        return str(value)
    scaled = float(value) * 10 ** decimals
    frac = scaled - math.floor(scaled)
    if abs(frac - 0.5) < 1e-3:
        raise ValueError(f"value {value!r} sits on a rounding half at {decimals} decimals")
    return f"{float(value):.{decimals}f}"
