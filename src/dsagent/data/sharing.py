"""What of the data the model is shown (setting ``data_sharing``) and the column notes.

- ``full``: the profile (statistics, top and example values) and code output as printed.
- ``sample``: the same profile; each printed result reaches the model cut to a few lines.
- ``schema``: names, types, missing and unique counts only, and every prompt is passed through
  :class:`Redactor`, which masks any cell value of the data (the question's own words are kept).

Column notes (``NAME.notes.yaml`` beside a file, or the setting ``notes_file``) add table and
column descriptions and units to the profile, within :data:`NOTES_TOKEN_BUDGET`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from dsagent.data.catalog import Dataset
from dsagent.errors import UserError

NOTES_TOKEN_BUDGET = 400
NOTES_MAX_BYTES = 1_000_000
"""A notes file beside the data larger than this is not read (it is a data dictionary, not data)."""
SAMPLE_LINES = 5
MASK = "‹value›"
_MAX_MASKED = 50_000


# --- profile --------------------------------------------------------------------------------


def schema_profile(ds: Dataset) -> str:
    """One line per column: name, dtype, missing share, unique count. No value of any cell."""
    from dsagent.data.rendering import column_name as _name, pct as _pct  # the profile's own formatting

    frame = ds.frame
    where = ", a DuckDB SQL table for sql(), not loaded into pandas; missing and unique counts of its first rows" if ds.big else ""
    lines = [f"datasets[{ds.id!r}] = {ds.name}: {ds.rows} rows x {frame.shape[1]} cols (schema only: values are not shown{where})"]
    for col in frame.columns:
        series = frame[col]
        missing = int(series.isna().sum())
        try:
            unique = int(series.nunique())
        except TypeError:  # unhashable cells (lists, dicts)
            unique = int(series.astype(str).nunique())
        part = f"- {_name(str(col))} {series.dtype}"
        if missing:
            part += f" miss={_pct(missing, len(series))}"
        lines.append(f"{part} u={unique}")
    return "\n".join(lines)


def summarize_for_prompt(datasets: Mapping[str, Dataset], question: str | None, settings: Any,
                         roots: Iterable[Path | str] | None = None) -> str:
    """Every dataset's profile as ``data_sharing`` allows, each with its column notes (the notes
    beside a file held to ``roots`` when given: a server door passes its ``allowed_roots``)."""
    from dsagent.data.profile import budget_share, profile_dataset

    extra = load_notes_file(settings.notes_file) if getattr(settings, "notes_file", None) else None
    texts, tables = [], []
    share = budget_share(len(datasets))  # the tables share one budget: several wide ones fit as one does
    for ds in datasets.values():
        if ds.table is not None:  # a database table: profiled by SQL in the database (sources/tables.py, data/table_profile.py)
            from dsagent.data.table_profile import profile_text

            tables.append(profile_text(ds.table, ds.frame, settings.data_sharing, ds.id))
            continue
        text = schema_profile(ds) if settings.data_sharing == "schema" else profile_dataset(ds, question, token_budget=share).text
        notes = notes_for(ds, extra, roots)
        if notes:
            text += "\n" + notes_text(notes, [str(c) for c in ds.frame.columns])
        texts.append(text)
    if len(texts) == 1:
        texts[0] = "df = " + texts[0]  # the sandbox binds df when there is exactly one dataset
    if tables:
        from dsagent.data.table_profile import SQL_GUIDE, joins_text

        dialects = sorted({ds.table.dialect for ds in datasets.values() if ds.table is not None})
        guide = SQL_GUIDE.format(max_rows=settings.sql_max_rows, dialects=", ".join(dialects))
        joins = joins_text([ds.table for ds in datasets.values() if ds.table is not None])
        tables.insert(0, guide + ("\n" + joins if joins else ""))
    return "\n\n".join(texts + tables)


# --- column notes ---------------------------------------------------------------------------


def notes_path(source: Path) -> Path | None:
    """``sales.notes.yaml`` (or ``sales.csv.notes.yaml``) beside ``sales.csv``, if there is one. A
    link there counts as one: :func:`read_beside` decides whether it may be read."""
    for candidate in (source.with_name(f"{source.stem}.notes.yaml"), source.with_name(f"{source.name}.notes.yaml")):
        if candidate.is_symlink() or candidate.is_file():
            return candidate
    return None


def read_beside(path: Path, roots: Iterable[Path | str] | None = None) -> tuple[str | None, str | None]:
    """The text of a notes file found beside a data file, or ``(None, why it was not read)``.

    The notes beside the data are read on behalf of whoever named the data (at a server, a
    client), so they are held to the rules the data is: never through a symbolic link (a link
    planted beside the data would make dsagent print a file its owner never chose to share),
    only a regular file of at most :data:`NOTES_MAX_BYTES`, opened with ``O_NOFOLLOW``; and with
    ``roots`` (a server's ``allowed_roots``), only when its real path lies under one of them.
    """
    import os
    import stat

    if path.is_symlink():
        return None, f"{path.name} is a symbolic link, not read: put the notes themselves beside the data"
    if roots is not None:
        from dsagent.access import under_roots

        if not under_roots(path, roots):
            return None, f"{path.name} is outside the allowed folders, not read"
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:  # ELOOP: a link put there since the check
        return None, f"{path.name} cannot be opened ({exc.strerror}), not read"
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            return None, f"{path.name} is not a regular file, not read"
        if info.st_size > NOTES_MAX_BYTES:
            return None, f"{path.name} is larger than {NOTES_MAX_BYTES // 1000} kB, not read"
        return handle.read(NOTES_MAX_BYTES + 1).decode("utf-8", errors="replace"), None


def load_notes_file(path: Path | str, text: str | None = None) -> dict[str, Any]:
    """A notes file: ``table: text`` and ``columns: {name: text | {description, unit}}``. ``text``:
    its content already read (:func:`read_beside`); else the file is read (the operator's
    ``notes_file`` setting)."""
    import yaml

    path = Path(path).expanduser()
    try:
        data = yaml.safe_load(text if text is not None else path.read_text(encoding="utf-8")) or {}
    except FileNotFoundError as exc:
        raise UserError(f"notes file not found: {path}") from exc
    except (OSError, yaml.YAMLError) as exc:
        raise UserError(f"notes file {path} is not valid YAML: {str(exc).splitlines()[0]}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("columns", {}), dict):
        raise UserError(f"notes file {path}: write `table: <description>` and `columns:` mapping each column "
                        "name to a description or to {description: ..., unit: ...}")
    return data


def notes_for(ds: Dataset, extra: Mapping[str, Any] | None = None, roots: Iterable[Path | str] | None = None) -> dict[str, Any]:
    """The dataset's notes: the file beside it (read by :func:`read_beside`, held to ``roots`` when
    given), then ``extra`` (the notes_file setting) on top. A file beside it that may not be read
    leaves a ``warning`` instead, shown with the notes."""
    notes: dict[str, Any] = {}
    beside = notes_path(ds.source_path) if ds.source_path else None
    data = None
    if beside is not None:
        text, why = read_beside(beside, roots)
        if why:
            notes["warning"] = why
        else:
            data = load_notes_file(beside, text)
    for found in (data, extra):
        if found:
            if found.get("table"):
                notes["table"] = str(found["table"])
            notes.setdefault("columns", {}).update(found.get("columns") or {})
    return notes


def _column_note(value: Any) -> str:
    if isinstance(value, Mapping):
        text = str(value.get("description") or "").strip()
        unit = value.get("unit") or value.get("units")
        return f"{text} [unit: {unit}]".strip() if unit else text
    return str(value).strip()


def notes_text(notes: Mapping[str, Any], columns: Iterable[str], budget: int = NOTES_TOKEN_BUDGET) -> str:
    """The notes as prompt lines (columns of this table only), cut to ``budget`` tokens."""
    from dsagent.data.rendering import column_name as _name
    from dsagent.data.tokens import count_tokens, within_budget

    present = set(columns)
    lines = ["Notes:"] + ([f"table: {notes['table'].strip()}"] if notes.get("table") else [])
    lines += [f"(warning: {notes['warning']})"] if notes.get("warning") else []
    cols = [(name, _column_note(v)) for name, v in (notes.get("columns") or {}).items() if str(name) in present]
    kept, dropped, _ = within_budget([f"- {_name(str(name))}: {text}" for name, text in cols], budget, count_tokens("\n".join(lines)))
    lines += kept
    if dropped:
        lines.append(f"({dropped} more column notes not shown: over the notes' token budget)")
    return "\n".join(lines) if len(lines) > 1 else ""


# --- redaction (schema) and clipping (sample) -------------------------------------------------


_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?(?![\w.])")


class Redactor:
    """Masks every cell value of the datasets in a text, except inside the protected strings
    (the question, the column names). Text values of 2+ characters and numbers of 3+ characters
    are masked (shorter ones would mask counts and indices everywhere)."""

    def __init__(self, datasets: Mapping[str, Dataset], protect: Iterable[str] = ()) -> None:
        texts: set[str] = set()
        numbers: set[float] = set()
        for ds in datasets.values():
            for col in ds.frame.columns:
                series = ds.frame[col].dropna()
                if pd.api.types.is_bool_dtype(series.dtype):
                    continue
                if pd.api.types.is_numeric_dtype(series.dtype):
                    numbers.update(float(v) for v in pd.unique(series)[:_MAX_MASKED])
                    continue
                if pd.api.types.is_datetime64_any_dtype(series.dtype):
                    for stamp in pd.unique(series)[:_MAX_MASKED]:
                        stamp = pd.Timestamp(stamp)
                        texts.update({str(stamp), stamp.strftime("%Y-%m-%d")})
                    continue
                for value in pd.unique(series.astype(str))[:_MAX_MASKED]:
                    value = value.strip()
                    if len(value) >= 2:
                        texts.add(value)
                        try:
                            numbers.add(float(value))
                        except ValueError:
                            pass
        self.numbers = numbers
        words = sorted((t for t in texts if not _NUMBER.fullmatch(t)), key=len, reverse=True)
        self._text = re.compile("|".join(rf"(?<!\w){re.escape(w)}(?!\w)" for w in words)) if words else None
        self.protect = sorted({p for p in protect if p and p.strip()}, key=len, reverse=True)

    def _mask_number(self, match: re.Match[str]) -> str:
        token = match.group(0)
        if len(token.lstrip("-")) < 3:
            return token
        try:
            return MASK if float(token) in self.numbers else token
        except ValueError:
            return token

    def _mask(self, text: str) -> str:
        if self._text is not None:
            text = self._text.sub(MASK, text)
        return _NUMBER.sub(self._mask_number, text)

    def __call__(self, text: str) -> str:
        if not self.protect:
            return self._mask(text)
        pattern = "(" + "|".join(re.escape(p) for p in self.protect) + ")"
        pieces = re.split(pattern, text)
        return "".join(piece if i % 2 else self._mask(piece) for i, piece in enumerate(pieces))

    def messages(self, messages: list[Any]) -> list[Any]:
        """Copies of the messages with their text masked."""
        out = []
        for m in messages:
            if isinstance(m.content, str):
                m = m.model_copy(update={"content": self(m.content)})
            out.append(m)
        return out


def clip_lines(text: str | None, lines: int = SAMPLE_LINES) -> str | None:
    """The first ``lines`` lines of a printed result, with a note of how many the model was not shown."""
    if not text:
        return text
    parts = text.splitlines()
    if len(parts) <= lines:
        return text
    return "\n".join(parts[:lines]) + f"\n… ({len(parts) - lines} more lines not shown to the model: data_sharing = sample)"
