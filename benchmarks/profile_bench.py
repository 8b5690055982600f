"""How long loading and profiling take on big tables, and how many prompt tokens the profiles cost.

Run: .venv/bin/python benchmarks/profile_bench.py [--rows 1000000]
Target (not asserted): profile a loaded 1,000,000 x 50 CSV in <= 3 s on 2 cores; a 100-column
profile in <= 2,000 tokens.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from dsagent.data import load_datasets, profile_dataset


def mixed_frame(rows: int, cols: int, seed: int = 0) -> pd.DataFrame:
    """Floats, ints, low- and high-cardinality text, text dates (two formats), money strings, gaps."""
    rng = np.random.default_rng(seed)
    days = pd.date_range("2020-01-01", periods=1500, freq="D")
    iso, dmy = days.strftime("%Y-%m-%d").to_numpy(), days.strftime("%d/%m/%Y").to_numpy()
    columns: dict[str, np.ndarray] = {"order_id": np.arange(rows)}
    makers = [
        lambda: rng.normal(100, 15, rows).round(3),
        lambda: rng.integers(0, 1000, rows),
        lambda: rng.choice(np.array(["North", "South", "East", "West"]), rows),
        lambda: np.char.add("cust_", rng.integers(0, 200_000, rows).astype(str)),
        lambda: np.where(rng.random(rows) < 0.9, iso[rng.integers(0, 1500, rows)], dmy[rng.integers(0, 1500, rows)]),
        lambda: np.where(rng.random(rows) < 0.05, np.nan, rng.exponential(50, rows).round(2)),
        lambda: rng.choice(np.array(["$1,200", "$950", "$12,000", "$75"]), rows),
        lambda: rng.integers(0, 2, rows).astype(bool),
    ]
    for i in range(1, cols):
        columns[f"col_{i:03d}_{['amount', 'count', 'region', 'customer', 'date', 'score', 'price', 'flag'][i % 8]}"] = makers[i % 8]()
    return pd.DataFrame(columns)


def timed(fn, repeat: int = 1) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        big = Path(tmp) / "big.csv"
        start = time.perf_counter()
        mixed_frame(args.rows, 50).to_csv(big, index=False)
        print(f"generated {big.name}: {args.rows} x 50, {big.stat().st_size / 1e6:.0f} MB in {time.perf_counter() - start:.1f} s")

        load_s, datasets = timed(lambda: load_datasets([big]))
        ds = datasets["big"]
        print(f"load 1M x 50 CSV:            {load_s:.2f} s")
        profile_s, prof = timed(lambda: profile_dataset(ds, "average amount by region"), repeat=3)
        print(f"profile 1M x 50 (median of 3): {profile_s:.2f} s   tier={prof.tier} tokens={prof.tokens} "
              f"detailed={len(prof.detailed_columns)}")

        wide = Path(tmp) / "wide.csv"
        mixed_frame(5000, 100, seed=1).to_csv(wide, index=False)
        wide_ds = load_datasets([wide])["wide"]
        wide_s, wide_prof = timed(lambda: profile_dataset(wide_ds, "average col_045_score by col_042_region"), repeat=3)
        print(f"profile 5k x 100 (median of 3): {wide_s:.2f} s   tier={wide_prof.tier} tokens={wide_prof.tokens} "
              f"(A={len(wide_prof.summary_a or '')} chars, detailed={len(wide_prof.detailed_columns)})")
        narrow_prof = profile_dataset(load_datasets([mixed_frame(5000, 20, seed=2)])["df"])
        print(f"profile 5k x 20: tier={narrow_prof.tier} tokens={narrow_prof.tokens} "
              f"({narrow_prof.tokens / 20:.0f} per column)")


if __name__ == "__main__":
    main()
