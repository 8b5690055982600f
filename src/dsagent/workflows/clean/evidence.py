"""Repairs by evidence from other columns: functional dependencies found on the table's own rows.

When the rows that share a key value (a provider's number, a zip code, a flight) almost always
share the value of another column (its phone, its city, its departure time), the key *determines*
that column. A cell that disagrees with the clear majority of its key's rows is then an error, and
that majority is its repair — evidence from the same entity's other records, never a statistic.

Strongest evidence first, abstain otherwise (thresholds below):

- the dependency must hold on the clean majority of the table: over the groups with at least two
  values, :data:`AGREE` of the cells equal their group's most frequent value;
- a group repairs a cell only when its most frequent value has :data:`MIN_SUPPORT` rows and at
  least :data:`GROUP_SHARE` of the group's values;
- the cell must itself look wrong: missing (filled from its own key's rows), breaking the
  column's dominant shape, or rare in the whole column (at most :data:`RARE_COUNT` times, and at most
  a fifth as often as the majority value). A disagreeing value common in the column (another real
  category, ``M`` where the group says ``F``) is flagged, not changed, unless the key is a code and the
  dependency is near-exact (:data:`STRICT_AGREE`);
- cells that disagree with a group too split to decide are flagged and left as they were.

Each repair's evidence (key column, the group's support, the dependency's agreement) is in the
finding's params, and so in the review and the report.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

import numpy as np
import pandas as pd

from dsagent.workflows.clean import kinds as ck
from dsagent.workflows.clean import textvalues as tv

AGREE = 0.75
STRICT_AGREE = 0.85
OUTVOTED = 3
"""A value common in the column is replaced within an entity (an identifier key whose dependency holds
for :data:`STRICT_AGREE` of cells) only when the entity's rows hold their value this many times as often."""
ENTITY_SHARE = 0.1
"""An identifier names many entities: no one of its values holds more than this share of the rows
(an amount such as ``0`` that most rows share is a category, whatever its type)."""
MIN_SUPPORT = 3
GROUP_SHARE = 0.6
RARE_COUNT = 2
MIN_GROUPS = 5
UNANIMOUS_SUPPORT = 2
"""A group whose voting values all agree decides with this many of them (two sources, no dissent)."""


def _key_text(v: object) -> str | None:
    return None if v is None or (isinstance(v, float) and v != v) else str(v)


def _missing(v: object) -> bool:
    return v is None or (isinstance(v, float) and v != v)


def candidate_keys(work: pd.DataFrame, skip: set[str]) -> list[str]:
    """Columns whose values repeat (on average at least two rows per value, at least ten values) and
    name entities: text or whole numbers, not dates or measurements, and written in every row (an
    entity's identifier is always there; a column with gaps is a value recorded, such as a time,
    whose agreement with another column is a coincidence of the data, not a dependency)."""
    rows = len(work)
    keys = []
    for c in work.columns:
        if c in skip or pd.api.types.is_datetime64_any_dtype(work[c]):
            continue
        values = work[c].dropna()
        if len(values) < rows:
            continue
        n = values.nunique()
        if n < 10 or n > rows / 2:
            continue
        if pd.api.types.is_numeric_dtype(values) and not bool((values % 1 == 0).all()):
            continue
        keys.append(c)
    return keys


def _groups(work: pd.DataFrame, key: str, col: str, fits: Callable[[object], bool] = lambda v: True) -> tuple[pd.DataFrame, float, int]:
    """Per key value: the mode, its support, the group's count of values that vote; and the dependency's
    agreement. Only values that fit the column's format vote (``fits``): a variant written another way
    (``7:10aDec 1`` in a column of ``7:10 a.m.``) neither splits a group nor counts against the dependency."""
    frame = pd.DataFrame({"k": work[key].map(_key_text), "v": work[col].where(work[col].map(fits))})
    frame = frame[frame["k"].notna()]
    present = frame.dropna(subset=["v"])
    if present.empty:
        return pd.DataFrame(), 0.0, 0
    counts = present.groupby(["k", "v"]).size().rename("n").reset_index().sort_values(["k", "n"], ascending=[True, False])
    top = counts.drop_duplicates("k").set_index("k")
    size = present.groupby("k").size()
    stats = pd.DataFrame({"mode": top["v"], "support": top["n"], "size": size})
    multi = stats[stats["size"] >= 2]
    agreement = float(multi["support"].sum() / multi["size"].sum()) if len(multi) else 0.0
    return stats, agreement, len(multi)


def fitting(col: str, dominant: dict[str, str], formats: dict[str, set[str]]) -> Callable[[object], bool]:
    """Whether a cell is written in the column's format: a code's dominant shape, or one of a text
    column's few frequent shapes; a column with neither accepts every value (so do missing cells)."""
    if col in dominant:
        return lambda v: not isinstance(v, str) or not ck.breaks_shape(v, dominant[col])
    if formats.get(col):
        return lambda v: not isinstance(v, str) or ck.shape(v) in formats[col]
    return lambda v: True


def dependency_findings(work: pd.DataFrame, targets: list[str], keys: list[str], codes: set[str],
                        dominant: dict[str, str], add: Callable[..., Any], flags: list[dict[str, Any]],
                        formats: dict[str, set[str]] | None = None) -> set[tuple[int, str]]:
    """One ``group_conflict`` finding per column a key determines, with the repairs its evidence
    clears; cells it cannot decide go to ``flags`` (row, column, value, why). Returns the cells repaired.
    ``formats``: a text column's format (its few frequent shapes); a cell outside it is suspect as a
    code cell that breaks its pattern is, and does not vote."""
    repaired: set[tuple[int, str]] = set()
    formats = formats or {}
    for col in targets:
        best = None
        fits = fitting(col, dominant, formats)
        for key in keys:
            if key == col:
                continue
            stats, agreement, groups = _groups(work, key, col, fits)
            if groups < MIN_GROUPS or agreement < AGREE:
                continue
            ident = identifier(work[key])
            if best is None or (ident, agreement, groups) > (best[4], best[1], best[2]):
                best = (key, agreement, groups, stats, ident)
        if best is None:
            continue
        key, agreement, groups, stats, ident = best
        freq = work[col].value_counts(dropna=True)
        strict = ident and agreement >= STRICT_AGREE
        many = names_many(work[key])
        keys_text = work[key].map(_key_text)
        fill = not pd.api.types.is_numeric_dtype(work[col])
        pairs = Counter(zip(keys_text, work[col]))
        groups_of = {k: (m, int(n), int(z)) for k, m, n, z in zip(stats.index, stats["mode"], stats["support"], stats["size"])}
        fixes: dict[str, list] = {}
        filled = replaced = 0
        for row, (k, v) in enumerate(zip(keys_text, work[col])):
            if k is None or k not in groups_of:
                continue
            mode, support, size = groups_of[k]
            if not _missing(v) and v == mode:
                continue
            clear = (support >= MIN_SUPPORT and support >= GROUP_SHARE * size) or (support >= UNANIMOUS_SUPPORT and support == size)
            if _missing(v):  # an entity's attribute (text, a code) is filled from its rows; a measurement is never invented
                if ident and fill and clear and support > 2 * (size - support):
                    fixes.setdefault(k, [_plain(mode), []])
                    if None not in fixes[k][1]:
                        fixes[k][1].append(None)
                    filled += 1
                    repaired.add((row, col))
                continue
            rare = int(freq.get(v, 0)) <= RARE_COUNT and int(freq.get(v, 0)) * 5 <= int(freq.get(mode, 0))
            suspect = not fits(v) or (rare and _near(v, mode))
            outvoted = strict and fill and pairs[(k, v)] * OUTVOTED <= support  # an attribute the entity's own rows deny, several times over
            if clear and (suspect or outvoted):
                fixes.setdefault(k, [_plain(mode), []])
                if _plain(v) not in fixes[k][1]:
                    fixes[k][1].append(_plain(v))
                replaced += 1
                repaired.add((row, col))
            elif clear and many and fill:  # an entity's attribute that disagrees with its rows; a key most rows share (an amount such as 0) is no evidence, a measurement varies
                flags.append({"row": row, "column": col, "value": _plain(v),
                              "why": f"disagrees with {support} of {size} rows of the same {key!r} ({mode!r}); the evidence is not enough to change it"})
        if fixes:
            add("group_conflict", col, filled + replaced,
                f"{replaced} values of {col!r} disagree with the other rows of the same {key!r}"
                + (f", {filled} missing values are given by them" if filled else "")
                + f" (dependency {key!r} → {col!r} holds for {agreement:.0%} of {groups} groups' cells)",
                key=key, fixes=fixes, evidence={"kind": "dependency", "key": key, "agreement": round(agreement, 3),
                                                "groups": groups, "replaced": replaced, "filled": filled})
    return repaired


def names_many(series: pd.Series) -> bool:
    """The key names many entities: none of its values holds more than :data:`ENTITY_SHARE` of the rows."""
    values = series.dropna()
    return bool(len(values)) and int(values.value_counts().iloc[0]) <= ENTITY_SHARE * len(values)


def identifier(series: pd.Series) -> bool:
    """An entity's identifier: whole numbers, or single words with a digit in nine values of ten
    (``AA-3859-IAH-ORD``, ``10019``, ``tt0054215``); a category's name (a city, a language) is not one."""
    values = series.dropna()
    if not names_many(values):
        return False
    if pd.api.types.is_numeric_dtype(values):
        return True
    texts = values.astype(str)
    return bool(len(texts)) and float((texts.str.contains(r"\d") & ~texts.str.contains(r"\s")).mean()) >= 0.9


def _near(value: object, mode: object) -> bool:
    """The value is a slip of the group's value: the same up to case and spaces, or text at most two
    edits from it (one in short values), or character noise in a number written as text."""
    if not isinstance(value, str) or not isinstance(mode, str):
        return False
    if " ".join(value.split()).casefold() == " ".join(mode.split()).casefold():
        return True
    if ck.noise_only(value, mode):
        return True
    if not ck.same_digits(value, mode):
        return False
    return tv.edit_distance(value, mode, 2) <= (2 if min(len(value), len(mode)) >= 10 else 1) and min(len(value), len(mode)) >= 4


def _plain(v: object) -> object:
    """A JSON- and repr-friendly literal of a cell value."""
    if isinstance(v, (np.integer,)):
        return int(v)
    if isinstance(v, (np.floating,)):
        return float(v)
    if _missing(v):
        return None
    return v


OVERLOAD_SIZE = 5
"""A key value is overloaded when at least this many rows carry it…"""
OVERLOAD_SHARE = 0.5
"""…and no value of the column it otherwise determines (:data:`STRICT_AGREE`) holds this share of them;
an exception, not the rule: at most :data:`OVERLOAD_VALUES` of the key's repeated values (at least one)
and :data:`OVERLOAD_ROWS` of the rows."""
OVERLOAD_VALUES = 0.01
OVERLOAD_ROWS = 0.05


def overloaded_flags(work: pd.DataFrame, columns: list[str], flags: list[dict[str, Any]], repaired: set[tuple[int, str]]) -> int:
    """Flag the cells of a value that stands where others belong: a column that determines another
    almost everywhere (a zip its city) except for one or a few values whose rows name many different
    ones (a filler or default written into records it does not belong to). Which value each of those
    rows should carry the table does not say, so they are flagged, never changed. Returns the cells flagged."""
    seen: set[tuple[int, str]] = set()
    codes = {c: pd.Series(pd.factorize(work[c].map(_key_text))[0], index=work.index) for c in columns}
    for key in columns:
        if codes[key].max() < 10:
            continue
        for col in columns:
            if col == key:
                continue
            frame = pd.DataFrame({"k": codes[key], "v": codes[col]})
            frame = frame[(frame["k"] >= 0) & (frame["v"] >= 0)]
            size = frame.groupby("k").size()
            support = frame.groupby(["k", "v"]).size().groupby(level=0).max()
            multi = size[size >= 2]
            loaded = multi[(multi >= OVERLOAD_SIZE) & (support[multi.index] < OVERLOAD_SHARE * multi)].index
            rest = multi.index.difference(loaded)
            if (not len(loaded) or len(rest) < MIN_GROUPS or len(loaded) > max(1, OVERLOAD_VALUES * len(multi))
                    or size[loaded].sum() > OVERLOAD_ROWS * len(frame) or support[rest].sum() < STRICT_AGREE * size[rest].sum()):
                continue
            for k in loaded:
                rows = np.flatnonzero((codes[key] == k).to_numpy())
                value = _key_text(work[key].iloc[rows[0]])
                kinds = int(frame.loc[frame["k"] == k, "v"].nunique())
                for row in rows:
                    if (int(row), key) in repaired or (int(row), key) in seen:
                        continue
                    seen.add((int(row), key))
                    flags.append({"row": int(row), "column": key, "value": _plain(work[key].iloc[row]),
                                  "why": f"{value!r} stands in {len(rows)} rows with {kinds} different {col!r} values, while {key!r} → {col!r} "
                                         f"holds for its other values; which {key!r} each of these rows should have is not known"})
    return len(seen)


RULE_CONFIDENCE = 0.95
"""A two-valued column follows a number's sign (``child_exemp > 0`` ⇒ ``has_child = 'Y'``) when at least
this share of the rows with a positive number hold the one value ..."""
RULE_BASE = 0.6
"""... while at most this share of the rows whose number is 0 or less hold it (else the value is just common)."""
RULE_SUPPORT = 50
"""Rows on each side of the rule (a positive number, and 0 or less) before it is read from the table."""
RULE_VIOLATIONS = 0.05
"""At most this share of the positive rows break the rule: more is no rule, but two kinds of record."""


def rule_findings(work: pd.DataFrame, columns: dict[str, str], ids: set[str], add: Callable[..., Any]) -> set[tuple[int, str]]:
    """Cross-column rules found by code: a column with two values (a flag, ``Y``/``N``) that one value
    takes wherever a number column is positive. A row that breaks such a rule holds a flag that its own
    amount contradicts (``has_child = 'N'`` with a child exemption): the amount is the evidence, the
    flag is set to the value the rule gives. One ``rule_conflict`` finding per flag column, from the
    number column whose rule holds best. Returns the cells repaired."""
    repaired: set[tuple[int, str]] = set()
    numbers = [c for c, k in columns.items() if k == "number" and c not in ids]
    for col, kind in columns.items():
        values = work[col].dropna()
        if col in ids or kind not in ("text", "code") or values.nunique() != 2:
            continue
        best = None
        for other in numbers:
            amount = pd.to_numeric(work[other], errors="coerce")
            known = amount.notna() & work[col].notna()
            positive, rest = known & (amount > 0), known & (amount <= 0)
            if positive.sum() < RULE_SUPPORT or rest.sum() < RULE_SUPPORT:
                continue
            shares = work.loc[positive, col].value_counts(normalize=True)
            value, confidence = shares.index[0], float(shares.iloc[0])
            base = float((work.loc[rest, col] == value).mean())
            broken = positive & (work[col] != value)
            if confidence >= RULE_CONFIDENCE and base <= RULE_BASE and 0 < broken.sum() <= RULE_VIOLATIONS * positive.sum():
                if best is None or confidence > best[1]:
                    best = (other, confidence, base, value, broken)
        if best is None:
            continue
        other, confidence, base, value, broken = best
        wrong = sorted({_plain(v) for v in work.loc[broken, col]}, key=str)
        repaired |= {(int(row), col) for row in np.flatnonzero(broken.to_numpy())}
        add("rule_conflict", col, int(broken.sum()),
            f"{int(broken.sum())} rows have {other!r} > 0 but {col!r} = {', '.join(map(repr, wrong))}: wherever {other!r} > 0, "
            f"{col!r} is {_plain(value)!r} in {confidence:.1%} of rows (and in {base:.0%} of the rows where it is 0)",
            other=other, value=_plain(value), wrong=wrong,
            evidence={"kind": "rule", "rule": f"{other} > 0 => {col} = {_plain(value)}", "confidence": round(confidence, 4),
                      "base": round(base, 4), "replaced": int(broken.sum())})
    return repaired
