"""Per-column statistics for the profile, fast enough for a million rows.

Cheap figures (missing, min/max/mean/std, unique counts of numbers and low-cardinality text) are
exact on the whole column. Top values of high-cardinality text, samples and format checks use a
fixed random sample (seeded, so the same data gives the same prompt text and the KV cache hits).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from dsagent.data.formats import describe_format_issue

SAMPLE_ROWS = 50_000
LOW_CARDINALITY = 10
_FORMAT_VALUES = 20_000
_SHAPE_VALUES = 5_000


@dataclass
class ColumnStats:
    name: str
    dtype: str
    kind: str
    """num, bool, datetime, text or other: decides which figures make sense."""
    rows: int
    missing: int
    unique: int | None
    unique_approx: bool = False
    mean: float | None = None
    std: float | None = None
    low: object = None
    high: object = None
    top: list[tuple[object, int]] = field(default_factory=list)
    top_is_share: bool = False
    """True when ``top`` holds percentages of a sample rather than exact counts."""
    samples: list[object] = field(default_factory=list)
    issue: str | None = None
    detailed: bool = False


def sample_positions(rows: int) -> np.ndarray | None:
    if rows <= SAMPLE_ROWS:
        return None
    return np.sort(np.random.default_rng(0).choice(rows, SAMPLE_ROWS, replace=False))


def _kind(series: pd.Series) -> str:
    dtype = series.dtype
    if pd.api.types.is_bool_dtype(dtype):
        return "bool"
    if pd.api.types.is_numeric_dtype(dtype):
        return "num"
    if pd.api.types.is_datetime64_any_dtype(dtype):
        return "datetime"
    if dtype == object and _booleans(series):
        return "bool"
    if pd.api.types.is_string_dtype(dtype) or dtype == object:
        return "text"
    return "other"


def _booleans(series: pd.Series) -> bool:
    """Is every value present True or False (a CSV's True/False column with empty cells: pandas
    reads it as bools among NaN, an object column)?"""
    head = series.head(1000).dropna()
    boolean = lambda s: pd.api.types.infer_dtype(s, skipna=True) == "boolean"  # noqa: E731
    return bool(len(head)) and boolean(head) and boolean(series)


def basic_stats(name: str, series: pd.Series, sample: pd.Series) -> ColumnStats:
    """Missing share, unique count and numeric summary: what Summary A shows for every column."""
    kind = _kind(series)
    missing = int(series.isna().sum())
    stats = ColumnStats(name, str(series.dtype), kind, len(series), missing, None)
    if kind == "text" and series.dtype == object:
        series, sample = _hashable(series), _hashable(sample)
    if kind == "num":
        values = series.to_numpy(dtype="float64", na_value=np.nan)
        values = values[~np.isnan(values)]
        if len(values):
            stats.low, stats.high = values.min(), values.max()
            stats.mean, stats.std = float(values.mean()), float(values.std(ddof=1)) if len(values) > 1 else 0.0
    elif kind == "datetime" and missing < len(series):
        stats.low, stats.high = series.min(), series.max()
    stats.unique, stats.unique_approx = _unique_count(series, sample, kind)
    return stats


def _hashable(series: pd.Series) -> pd.Series:
    # JSON lists/dicts and mixed objects: compare them by their text (missing stays missing).
    head = series.dropna().head(1000)
    if len(head) and head.map(type).nunique() == 1 and isinstance(head.iloc[0], str):
        return series
    return series.astype("str")


def _unique_count(series: pd.Series, sample: pd.Series, kind: str) -> tuple[int, bool]:
    if len(series) == len(sample) or kind != "text":
        return int(series.nunique()), False
    # Hashing a million distinct strings costs ~200 ms, so only low-cardinality text is exact.
    in_sample = sample.dropna()
    seen = in_sample.value_counts()
    if len(seen) < 0.5 * max(len(in_sample), 1):
        return int(series.nunique()), False
    singles = int((seen == 1).sum())
    scale = np.sqrt((len(series) - int(series.isna().sum())) / max(len(in_sample), 1))
    return int(singles * scale + (len(seen) - singles)), True  # GEE estimator


def add_details(stats: ColumnStats, series: pd.Series, sample: pd.Series) -> ColumnStats:
    """Top values, head/middle/tail/rare samples and format warnings: what Summary B adds."""
    stats.detailed = True
    if stats.kind == "text" and series.dtype == object:
        series, sample = _hashable(series), _hashable(sample)
    exact = len(series) == len(sample) or (stats.unique or 0) <= LOW_CARDINALITY * 100
    counts = (series if exact else sample).value_counts(dropna=True)
    if stats.kind in ("bool", "text", "other") or (stats.unique or 0) <= LOW_CARDINALITY:
        if (stats.unique or 0) <= LOW_CARDINALITY or counts.iloc[:3].sum() >= 0.3 * counts.sum():
            top = counts.iloc[: 6 if stats.unique <= LOW_CARDINALITY else 3]
            if exact:
                stats.top = [(value, int(n)) for value, n in top.items()]
            else:
                stats.top = [(value, round(100 * n / counts.sum())) for value, n in top.items()]
                stats.top_is_share = True
    if stats.kind in ("text", "other") and (stats.unique or 0) > LOW_CARDINALITY:
        stats.samples = _smart_samples(series, counts)
    if stats.kind == "text" and len(counts):
        head = counts.iloc[:_FORMAT_VALUES]
        values = pa.array(head.index.astype("str").to_numpy(dtype=object), pa.string())
        stats.issue = describe_format_issue(values, head.to_numpy())
    return stats


def _smart_samples(series: pd.Series, counts: pd.Series, limit: int = 4) -> list[object]:
    """Values from the head, middle and tail of the file plus the rarest, so format drift shows;
    each common value shape ("2021-03-04" vs "04/03/2021") is shown before a repeated one."""
    rows = len(series)
    picks: list[object] = []
    for start in (0, rows // 2, max(rows - 50, 0)):
        window = series.iloc[start : start + 50].dropna()
        if len(window):
            picks.append(window.iloc[-1] if start and start == max(rows - 50, 0) else window.iloc[0])
    if len(counts):
        picks.append(counts.index[-1])
    distinct: list[object] = []
    for value in picks:
        if value not in distinct:
            distinct.append(value)
    by_shape = _shape_examples(counts)
    if len(by_shape) < 2:
        return distinct[:limit]
    # Head/middle/tail can all miss a minority format; a small model must see it to parse right.
    shapes = value_shapes([str(v) for v in distinct])
    first = [v for i, v in enumerate(distinct) if shapes[i] not in shapes[:i]]
    others = [example for shape, example in by_shape.items() if shape not in shapes]
    repeats = [v for v in distinct if v not in first]
    return (first + others + repeats)[:limit]


def value_shapes(values: list[str] | np.ndarray) -> list[str]:
    """Each value's character shape: digit runs become 9, letter runs a (``"04/03/2021"`` -> ``9/9/9``)."""
    text = pa.array(values, pa.string())
    return pc.replace_substring_regex(pc.replace_substring_regex(text, r"[0-9]+", "9"), r"\pL+", "a").to_pylist()


def _shape_examples(counts: pd.Series, min_share: float = 0.01, limit: int = 4) -> dict[str, object]:
    """The commonest value of each shape that covers at least ``min_share`` of the values, most
    common shape first; {} when one shape covers (nearly) all of them."""
    head = counts
    if len(head) > _SHAPE_VALUES:  # a seeded subset keeps the shares, in frequency order, at 1/4 the cost
        head = counts.iloc[np.sort(np.random.default_rng(0).choice(len(counts), _SHAPE_VALUES, replace=False))]
    if len(head) < 2:
        return {}
    frame = pd.DataFrame({"shape": value_shapes(head.index.astype("str").to_numpy(dtype=object)), "n": head.to_numpy()})
    totals = frame.groupby("shape", sort=False)["n"].sum()
    common = totals[totals >= min_share * totals.sum()].sort_values(ascending=False, kind="stable")
    if len(common) < 2:
        return {}
    # counts is sorted by frequency, so the first value of each shape is its commonest
    first_row = frame.reset_index().groupby("shape", sort=False)["index"].first()
    return {shape: head.index[first_row[shape]] for shape in common.index[:limit]}
