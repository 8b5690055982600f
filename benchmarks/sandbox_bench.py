"""Sandbox latency: cold start, warm trivial cell, a pandas cell on 100k rows. No assertions.

Run: ``.venv/bin/python benchmarks/sandbox_bench.py``
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from dsagent.sandbox import Limits, Sandbox


def main() -> None:
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({
        "region": rng.choice(["north", "south", "east", "west"], 100_000),
        "amount": rng.gamma(2.0, 50.0, 100_000),
        "units": rng.integers(1, 20, 100_000),
    })
    limits = Limits(wall_s=60, memory_mb=1024)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        cache = root / "cache"
        Sandbox(root / "prime", {"sales": frame}, limits, cache_dir=cache).close()  # font cache, once
        with Sandbox(root / "prime", {"sales": frame}, limits, cache_dir=cache) as sb:
            sb.run("result = 1")
        cold = []
        for i in range(5):
            started = time.perf_counter()
            sb = Sandbox(root / f"cold{i}", {"sales": frame}, limits, cache_dir=cache)
            sb.run("result = 1")
            cold.append(time.perf_counter() - started)
            sb.close()
        with Sandbox(root / "warm", {"sales": frame}, limits, cache_dir=cache) as sb:
            print(sb.isolation.describe())
            print("notes:", "; ".join(sb.isolation.notes))
            time.sleep(15)  # let the background imports finish
            warm = []
            for _ in range(50):
                started = time.perf_counter()
                sb.run("result = 1")
                warm.append(time.perf_counter() - started)
            cell = "result = df.groupby('region').agg(total=('amount', 'sum'), units=('units', 'mean')).round(2)"
            pandas_runs = []
            for _ in range(10):
                started = time.perf_counter()
                res = sb.run(cell)
                pandas_runs.append(time.perf_counter() - started)
            assert res.success, res.error
            plot = sb.run("fig = px.histogram(df, x='amount', color='region')")
    print(f"cold start (start → first trivial cell), median of 5: {statistics.median(cold):.3f} s  {[round(c, 2) for c in cold]}")
    print(f"warm trivial cell, median of 50: {statistics.median(warm) * 1000:.1f} ms")
    print(f"pandas groupby on 100k rows, median of 10: {statistics.median(pandas_runs) * 1000:.1f} ms")
    print(f"plotly histogram on 100k rows: {plot.duration_s * 1000:.0f} ms in the worker, success={plot.success}")


if __name__ == "__main__":
    main()
