"""Find a table's problems by code, before any model sees it.

Each finding is a plain dict ``{id, kind, column, count, detail, params}``: what is wrong, where,
how many cells, and the parameters the vetted snippet that fixes it needs (see ``snippets.py``).
The rules are about the shape of values (types, placeholders, frequencies, groups, ranges), never
about a particular table.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import numpy as np
import pandas as pd

from dsagent.workflows.clean import evidence
from dsagent.workflows.clean import kinds as ck
from dsagent.workflows.clean import textvalues as tv

PARSE_SHARE = 0.8
"""A text column is numbers (or dates) when at least this share of its non-missing cells parse."""
RARE_NEGATIVE_SHARE = 0.05
TYPO_RATIO = 5
"""A spelling is folded into a neighbour at most one edit away (two in values of ten characters or
more) seen at least this many times as often; in a code column only when the difference is character
noise that breaks the code's pattern (``kinds.noise_only``), never one code into another."""
LONG_VALUE = 10
_WORD = re.compile(r"[^\W_]+")
FLAG_SAMPLE = 50
"""Flagged cells listed in the finding (all are counted)."""
GROUP_PURITY = 0.9
"""A column depends on an id-like key when this share of the key's groups hold one value."""
CATEGORY_SHARE = 0.2
"""Spellings are folded only in category-like columns: at most 50 distinct values or this share of the cells
(a column of names or free text, where a near spelling may be another person, is left alone)."""


def _text_values(series: pd.Series) -> pd.Series:
    return series[series.map(lambda v: isinstance(v, str))]


def _is_text(series: pd.Series) -> bool:
    return series.dtype == object or pd.api.types.is_string_dtype(series)


def detect(frame: pd.DataFrame, keep: tuple[str, ...] = ()) -> list[dict[str, Any]]:
    """The findings of one table; ``keep`` names columns never changed (ids the user named)."""
    findings: list[dict[str, Any]] = []
    columns: dict[str, str] = {}  # column -> kind after parsing: number, date, text, code, id
    dominant: dict[str, str] = {}  # code column -> its dominant shape
    flags: list[dict[str, Any]] = []  # cells left as they were for want of evidence
    work = frame.copy()
    rows = len(frame)

    def add(kind: str, column: str | None, count: int, detail: str, **params: Any) -> None:
        findings.append({"id": len(findings) + 1, "kind": kind, "column": column, "count": int(count), "detail": detail, "params": params})

    for col in frame.columns:
        s = frame[col]
        if _is_text(s):
            texts = _text_values(s)
            padded = int((texts != texts.str.strip()).sum())
            if padded:
                add("whitespace", col, padded, f"{padded} values with spaces around them")
            stripped = s.map(lambda v: v.strip() if isinstance(v, str) else v)
            work[col] = stripped
            kind = _sniff(stripped)
            texts_left = [v for v in stripped if isinstance(v, str) and v and not tv.is_placeholder(v)]
            if kind != "date" and ck.is_code(texts_left):
                kind = "code"  # a fixed-pattern code: never a number, never imputed (kinds.py)
                dominant[col] = ck.dominant_shape(texts_left)[0]
            columns[col] = kind
            text_col = kind == "text"
            marks = stripped.map(lambda v, t=text_col: tv.is_placeholder(v, t))
            if marks.any():
                shown = sorted({str(v) for v in stripped[marks]})
                add("placeholder", col, int(marks.sum()), f"{int(marks.sum())} placeholders for a missing value: {', '.join(map(repr, shown[:6]))}", values=shown)
                work.loc[marks, col] = np.nan
            if kind == "number":
                parsed = work[col].map(tv.parse_number)
                bad = work[col].notna() & parsed.isna()
                text_numbers = int((work[col].notna() & parsed.notna() & ~work[col].map(_plain_number)).sum())
                add("number_text", col, text_numbers or int(work[col].notna().sum()),
                    (f"numbers stored as text ({text_numbers} written with currency, units or separators)" if text_numbers else "numbers stored as text because of the placeholders") + (f"; {int(bad.sum())} cells are not numbers" if bad.any() else ""),
                    unparsed=int(bad.sum()))
                for row in np.flatnonzero(bad.to_numpy()):
                    flags.append({"row": int(row), "column": col, "value": str(work[col].iloc[row]), "why": "not a number in a column of numbers; kept as it was"})
                work[col] = pd.to_numeric(parsed, errors="coerce")
            elif kind == "date":
                dayfirst = _dayfirst(work[col])
                parsed = work[col].map(lambda v: tv.parse_date(v, dayfirst))
                iso = work[col].map(lambda v: isinstance(v, str) and len(v) == 10 and v[4] == "-" and v[7] == "-")
                other = int((work[col].notna() & ~iso).sum())
                add("date_text", col, other, f"dates as text; {other} not written YYYY-MM-DD", dayfirst=dayfirst)
                work[col] = pd.to_datetime(parsed, errors="coerce")
        else:
            columns[col] = "number" if pd.api.types.is_numeric_dtype(s) and not pd.api.types.is_bool_dtype(s) else "other"
    ids = {c for c in frame.columns if _id_like(work[c], rows)} | set(keep)
    codes = [c for c, k in columns.items() if k == "code"]
    if codes:
        add("code_columns", None, len(codes), "codes with a fixed pattern (kept as text, never imputed): "
            + ", ".join(f"{c!r} ({dominant[c]})" for c in codes), columns=codes, shapes={c: dominant[c] for c in codes})
    for col, kind in columns.items():
        if col in ids:
            continue
        if kind == "number":
            _impossible(work[col], col, add)
        elif kind in ("text", "code"):
            if kind == "text":
                fixes = ck.format_repairs([v for v in work[col] if isinstance(v, str)])
                if fixes:
                    n = int(work[col].isin(list(fixes)).sum())
                    shown = ", ".join(f"{k!r}→{w!r}" for k, w in list(fixes.items())[:3])
                    add("format", col, n, f"{n} values written with extra words around the column's format: {shown}", mapping=fixes,
                        evidence={"kind": "format"})
                    work[col] = work[col].map(lambda v, m=fixes: m.get(v, v) if isinstance(v, str) else v)
            _spellings(work[col], col, add, dominant.get(col))
    repaired = _groups(work, columns, ids, add, findings, dominant, flags)
    repaired |= evidence.rule_findings(work, columns, ids, add)
    formats = {c: ck.dominant_shapes([v for v in work[c] if isinstance(v, str)]) for c, k in columns.items()
               if k == "text" and c not in ids and not evidence.identifier(work[c])}  # an entity's name may be written many ways
    for col in codes + [c for c, shapes in formats.items() if shapes]:  # cells outside the column's pattern that no repair covers: flagged
        folded = next((f["params"]["mapping"] for f in findings if f["column"] == col and f["kind"] == "spelling"), {})
        fits = evidence.fitting(col, dominant, formats)
        pattern = repr(dominant[col]) if col in dominant else " / ".join(map(repr, sorted(formats[col])))
        for row, v in enumerate(work[col]):
            if isinstance(v, str) and not fits(v) and v not in folded and (row, col) not in repaired:
                flags.append({"row": row, "column": col, "value": v, "why": f"breaks the column's pattern {pattern}; no evidence for its value"})
    flagged = {(f["row"], f["column"]) for f in flags}
    if flagged:
        add("flagged", None, len(flagged), f"{len(flagged)} cells flagged and left as they were (the evidence to change them is not enough)",
            cells=flags[:FLAG_SAMPLE])
    dups = int(frame.duplicated().sum())
    if dups:
        add("duplicate_rows", None, dups, f"{dups} rows repeat an earlier row exactly")
    for col in frame.columns:
        missing = int(work[col].isna().sum())
        if missing:
            add("missing", col, missing, f"{missing} missing ({missing / max(1, rows):.0%}) after placeholders", share=round(missing / max(1, rows), 4))
    return findings


def column_kinds(findings: list[dict[str, Any]], frame: pd.DataFrame) -> dict[str, str]:
    kinds = {c: ("number" if pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c]) else "text") for c in frame.columns}
    for f in findings:
        if f["kind"] == "number_text":
            kinds[f["column"]] = "number"
        elif f["kind"] == "date_text":
            kinds[f["column"]] = "date"
    return kinds


def _plain_number(v: object) -> bool:
    return isinstance(v, str) and bool(tv._PLAIN.match(v.strip()))  # type: ignore[attr-defined]


def _sniff(stripped: pd.Series) -> str:
    values = [v for v in stripped if isinstance(v, str) and v and not tv.is_placeholder(v)]
    if not values:
        return "text"
    sample = values if len(values) <= 5000 else values[:: len(values) // 5000 + 1]
    numbers = sum(tv.parse_number(v) is not None for v in sample)
    zeros = sum(len(v) > 1 and v[0] == "0" and v[1].isdigit() for v in sample)
    if numbers >= PARSE_SHARE * len(sample) and not zeros:  # leading zeros: a code (zip, phone, id), kept as text
        return "number"
    if _at_least(sample, lambda v: tv.parse_date(v) is not None, PARSE_SHARE) and any(not v.isdigit() for v in sample):
        return "date"
    return "text"


def _at_least(values: list[str], test: Any, share: float) -> bool:
    """Whether ``test`` holds for at least ``share`` of the values; stops as soon as the misses decide it
    (parsing dates is slow, and a column of names fails fast)."""
    allowed = len(values) - share * len(values)
    misses = 0
    for v in values:
        if not test(v):
            misses += 1
            if misses > allowed:
                return False
    return True


def _dayfirst(series: pd.Series) -> bool:
    """Slashed dates are day-first when some first part exceeds 12 and no second part does."""
    first = second = 0
    for v in series.dropna().astype(str):
        parts = v.replace(".", "/").replace("-", "/").split("/")
        if len(parts) == 3 and parts[0].isdigit() and parts[1].isdigit() and len(parts[0]) <= 2:
            first += int(parts[0]) > 12
            second += int(parts[1]) > 12
    return first > 0 and second == 0


def _id_like(series: pd.Series, rows: int) -> bool:
    """Every value unique (a row id), or a text code unique per row."""
    values = series.dropna()
    return rows > 1 and len(values) == rows and values.nunique() == rows


def _impossible(s: pd.Series, col: str, add: Any) -> None:
    values = s.dropna()
    if len(values) < 10:
        return
    negative = values[values < 0]
    rest = values[values >= 0]
    if 0 < len(negative) <= RARE_NEGATIVE_SHARE * len(values) and len(rest):
        q1, q3 = rest.quantile([0.25, 0.75])
        far = (negative < q1 - 3 * (q3 - q1)).all()
        if negative.nunique() == 1 or far:
            add("impossible", col, len(negative), f"{len(negative)} negative values ({', '.join(map(_num, sorted(set(negative))[:4]))}) in a column otherwise ≥ 0",
                rule="negative")
    q1, q3 = values.quantile([0.25, 0.75])
    iqr = q3 - q1
    codes = values[values.map(_nines) & ((values > q3 + 3 * iqr) | (values < q1 - 3 * iqr))]
    if len(codes) and len(codes) <= RARE_NEGATIVE_SHARE * len(values):
        add("impossible", col, len(codes), f"{len(codes)} missing-value codes ({', '.join(map(_num, sorted(set(codes))[:4]))}) far outside the other values",
            rule="codes", values=sorted({float(v) for v in codes}))
    if any(w in col.lower() for w in ("percent", "pct", "%")) and values.max() > 100 and (values <= 100).mean() > 0.95:
        over = values[values > 100]
        add("impossible", col, len(over), f"{len(over)} percentages above 100", rule="over_100")


def _nines(v: float) -> bool:
    a = abs(v)
    return a >= 99 and float(a).is_integer() and set(str(int(a))) == {"9"}


def _num(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def _spellings(s: pd.Series, col: str, add: Any, code_shape: str | None = None) -> None:
    counts = Counter(v for v in s if isinstance(v, str))
    if len(counts) < 2 or len(counts) > max(50, CATEGORY_SHARE * sum(counts.values())):
        return
    mapping: dict[str, str] = {}
    by_key: dict[str, list[str]] = {}
    for v in counts:
        by_key.setdefault(" ".join(v.split()).casefold(), []).append(v)
    for spellings in by_key.values():
        if len(spellings) > 1:
            canonical = max(spellings, key=lambda v: (counts[v], v == v.strip()))
            for v in spellings:
                if v != canonical:
                    mapping[v] = canonical
    case_count = sum(counts[v] for v in mapping)
    folded = Counter()
    for v, n in counts.items():
        folded[mapping.get(v, v)] += n
    typos: dict[str, str] = {}
    frequent = [v for v, n in folded.items() if n >= 3]
    words = Counter()  # how often each word is used across the column's values
    for v, n in folded.items():
        for w in set(_WORD.findall(v)):
            words[w] += n
    for v, n in folded.items():
        if len(v) < 4:
            continue
        near = [w for w in frequent if w != v and folded[w] >= TYPO_RATIO * n and _one_typo(v, w)
                and (ck.noise_only(v, w) if code_shape else ck.same_digits(v, w) and ck.inside_words(v, w))
                and not any(words[t] > n for t in set(_WORD.findall(v)) - set(_WORD.findall(w)))]  # a slip makes a word the column never uses
        if len(near) == 1:
            typos[v] = near[0]
    for v, w in list(mapping.items()):
        mapping[v] = typos.get(w, w)
    for v, w in typos.items():
        mapping[v] = w
        for orig, canon in list(mapping.items()):
            if canon == v:
                mapping[orig] = w
    if mapping:
        typo_count = sum(folded[v] for v in typos)
        shown = ", ".join(f"{k!r}→{w!r}" for k, w in list(mapping.items())[:5])
        add("spelling", col, case_count + typo_count, f"{len(mapping)} variant spellings of a category ({case_count} cells differ in case or spaces, {typo_count} look like typos): {shown}",
            mapping=mapping)


def _one_typo(v: str, w: str) -> bool:
    if min(len(v), len(w)) >= LONG_VALUE:
        return 1 <= tv.edit_distance(v, w, 2) <= 2  # long names: two slips still leave them unambiguous
    if tv.edit_distance(v, w, 1) != 1:
        return False
    return len(v) == len(w) or max(len(v), len(w)) >= 5  # an added/dropped letter only in longer names (Mr/Mrs stay)


def _groups(work: pd.DataFrame, columns: dict[str, str], ids: set[str], add: Any, findings: list[dict[str, Any]],
            dominant: dict[str, str], flags: list[dict[str, Any]]) -> set[tuple[int, str]]:
    """Values the other rows of the same key decide (functional dependencies, see evidence.py), on the
    values as the earlier steps leave them (spellings folded)."""
    fixed = {f["column"]: f["params"]["mapping"] for f in findings if f["kind"] == "spelling"}
    view = work.copy()
    for col, mapping in fixed.items():
        view[col] = view[col].map(lambda v, m=mapping: m.get(v, v) if isinstance(v, str) else v)
    targets = [c for c, k in columns.items() if k in ("text", "code", "number") and c not in ids]
    keys = [c for c in evidence.candidate_keys(view, ids) if _code_like(view[c])]
    codes = {c for c, k in columns.items() if k == "code"}
    formats = {c: ck.dominant_shapes([v for v in view[c] if isinstance(v, str)]) for c, k in columns.items() if k == "text"}
    repaired = evidence.dependency_findings(view, targets, keys, codes, dominant, add, flags, formats)
    named = [c for c, k in columns.items() if c not in ids and (k in ("text", "code") or (k == "number" and _code_like(view[c])))]
    evidence.overloaded_flags(view, named, flags, repaired)
    return repaired


def _code_like(series: pd.Series) -> bool:
    """Text, or whole numbers: what an entity's name, code or id looks like (not a measurement)."""
    values = series.dropna()
    if _is_text(series):
        return True
    if pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values):
        return bool((values % 1 == 0).all())
    return False
