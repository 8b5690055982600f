"""A column name as code wrote it and the column it meant: the same letters and digits but for
spaces, case and punctuation. The worker's error hint and the before-run mend of column names
(``workflows.common.mends.columns``) both read names this way."""

from __future__ import annotations

from typing import Any


def near_column(key: str, columns: Any) -> str | None:
    """The column ``key`` meant: the same letters and digits but for spaces, case and punctuation
    (``'WINDSPEED'`` for ``' WINDSPEED'``), else one letter more or less (``'num. call abandoned'``
    for ``'num. calls abandoned '``). A letter changed is another column as often as a typo
    (``max``/``min``, ``2018``/``2019``, ``male``/``female``): no guess then."""
    written = loose(key)
    names = [c for c in columns if isinstance(c, str)]
    same = [c for c in names if loose(c) == written]
    if same:
        return same[0]
    near = [c for c in names if one_letter_apart(loose(c), written)]
    return near[0] if len(near) == 1 else None


def one_letter_apart(a: str, b: str) -> bool:
    """``a`` and ``b`` differ by one letter inserted or deleted (not a digit)."""
    if abs(len(a) - len(b)) != 1 or min(len(a), len(b)) < 4:
        return False
    short, long_ = sorted((a, b), key=len)
    i = next((i for i, (x, y) in enumerate(zip(short, long_)) if x != y), len(short))
    return long_[i].isalpha() and short[i:] == long_[i + 1:]


def loose(name: str) -> str:
    """``name`` in lower case with only its letters and digits."""
    return "".join(ch for ch in name.lower() if ch.isalnum())
