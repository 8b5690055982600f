"""The project folder and its four-stage files.

```
<project>/data/raw/            the user's files: read, never written or deleted
<project>/data/summaries/      stage 1: <file>.md (the profile) + <file>.json (its source's fingerprint)
<project>/data/tasks.json      stage 2: the suggested tasks and the fingerprints they were made from
<project>/data/intermediate/   stage 3 plans (<task>_plan.json), stage 4 code and results
<project>/data/outputs/<task>/ stage 4 reports (report.md, report.html) and figures
```

A summary or the task list is reused while its source files' fingerprints (size + SHA-256) are
unchanged, and made again when one changes.
"""

from __future__ import annotations

import fnmatch
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA_SUFFIXES = {".csv", ".tsv", ".tab", ".txt", ".xlsx", ".xlsm", ".xls", ".parquet", ".pq", ".json", ".jsonl", ".ndjson"}


@dataclass(frozen=True)
class Project:
    root: Path

    @classmethod
    def at(cls, path: str | Path | None) -> "Project":
        """The project at ``path`` (default: the current folder); a served door's client may name only a
        folder under the operator's ``allowed_roots`` (:mod:`dsagent.access`)."""
        from dsagent.access import client_policy

        policy = client_policy()
        if policy is not None:
            return cls(policy.folder(path))
        return cls(Path(path or ".").expanduser().resolve())

    @property
    def data(self) -> Path:
        return self.root / "data"

    @property
    def raw(self) -> Path:
        return self.data / "raw"

    @property
    def summaries(self) -> Path:
        return self.data / "summaries"

    @property
    def tasks_file(self) -> Path:
        return self.data / "tasks.json"

    @property
    def intermediate(self) -> Path:
        return self.data / "intermediate"

    @property
    def outputs(self) -> Path:
        return self.data / "outputs"

    def writable(self, path: Path) -> Path:
        """``path`` after checking it is inside data/ and not inside data/raw (nothing there is written)."""
        resolved = path.resolve()
        if self.raw.resolve() in resolved.parents or resolved == self.raw.resolve():
            raise PermissionError(f"refusing to write inside data/raw: {path}")
        if self.data.resolve() not in resolved.parents:
            raise PermissionError(f"refusing to write outside the project's data folder: {path}")
        resolved.parent.mkdir(parents=True, exist_ok=True)
        return resolved

    def read_text(self, path: Path) -> str:
        """A file the pipeline wrote (a summary, the tasks, a plan, a result), read only where it may
        write: inside data/ with links resolved, so a link planted there cannot show another file."""
        resolved = path.resolve()
        if self.data.resolve() not in resolved.parents or self.raw.resolve() in resolved.parents:
            raise FileNotFoundError(f"{path} leads outside the project's data folder: not read")
        return resolved.read_text(encoding="utf-8")

    def write_text(self, path: Path, text: str) -> Path:
        target = self.writable(path)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(target)
        return target

    def write_json(self, path: Path, value: Any) -> Path:
        return self.write_text(path, json.dumps(value, indent=2, ensure_ascii=False, default=str))

    def rel(self, path: Path) -> str:
        try:
            return str(path.resolve().relative_to(self.root))
        except ValueError:
            return str(path)

    # -- stage 0: the raw files -------------------------------------------------------------
    def raw_files(self, pattern: str = "*") -> list[Path]:
        if not self.raw.is_dir():
            return []
        pattern = pattern or "*"
        return sorted(p for p in self.raw.iterdir()
                      if p.is_file() and p.suffix.lower() in DATA_SUFFIXES and not p.name.startswith(".")
                      and fnmatch.fnmatch(p.name.lower(), pattern.lower()) and _within_roots(p))

    def resolve_files(self, names: list[str] | None) -> tuple[list[Path], list[str]]:
        """(the raw files named, the names not found); no names = every raw file."""
        files = self.raw_files()
        if not names:
            return files, []
        by_name = {p.name.lower(): p for p in files}
        by_stem = {p.stem.lower(): p for p in files}
        found, missing = [], []
        for name in names:
            key = Path(str(name)).name.lower()
            hit = by_name.get(key) or by_stem.get(Path(key).stem)
            (found.append(hit) if hit else missing.append(str(name)))
        return list(dict.fromkeys(found)), missing

    # -- stage 1: summaries -------------------------------------------------------------------
    def summary_path(self, source: Path) -> Path:
        return self.summaries / f"{source.name}.md"

    def summary_is_current(self, source: Path) -> bool:
        meta = self.summaries / f"{source.name}.json"
        try:
            stored = json.loads(self.read_text(meta))
        except (OSError, ValueError):
            return False
        return stored.get("fingerprint") == fingerprint(source) and self.summary_path(source).is_file()

    def current_summaries(self) -> list[Path]:
        return [self.summary_path(p) for p in self.raw_files() if self.summary_is_current(p)]

    # -- stage 2: tasks ---------------------------------------------------------------------
    def tasks(self) -> list[dict[str, Any]]:
        """The stored tasks if they were made from the raw files as they are now, else []."""
        try:
            stored = json.loads(self.read_text(self.tasks_file))
        except (OSError, ValueError):
            return []
        sources = stored.get("sources") or {}
        for name, print_ in sources.items():
            path = self.raw / name
            if not path.is_file() or fingerprint(path) != print_:
                return []
        return list(stored.get("tasks") or [])

    def task_sources(self) -> set[str]:
        """The files the stored tasks were made from."""
        try:
            return set((json.loads(self.read_text(self.tasks_file)).get("sources") or {}))
        except (OSError, ValueError):
            return set()

    def task(self, task_id: str | None) -> dict[str, Any] | None:
        wanted = normalize_task_id(task_id)
        return next((t for t in self.tasks() if t.get("id") == wanted), None)

    # -- stages 3 and 4 -----------------------------------------------------------------------
    def plan_path(self, task_id: str) -> Path:
        return self.intermediate / f"{task_id}_plan.json"

    def plan(self, task: dict[str, Any]) -> dict[str, Any] | None:
        """The stored plan of ``task`` if it was made for this very task, else None."""
        try:
            plan = json.loads(self.read_text(self.plan_path(task["id"])))
        except (OSError, ValueError):
            return None
        return plan if plan.get("task") == task else None

    def output_dir(self, task_id: str) -> Path:
        return self.outputs / task_id

    def result_path(self, task_id: str) -> Path:
        return self.intermediate / f"{task_id}_result.json"

    def result(self, task: dict[str, Any]) -> dict[str, Any] | None:
        try:
            result = json.loads(self.read_text(self.result_path(task["id"])))
        except (OSError, ValueError):
            return None
        return result if result.get("task") == task else None


def fingerprint(path: Path) -> str:
    """Size and SHA-256 of a file: a summary or task list is stale when this changes."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(1 << 20):
            digest.update(chunk)
    return f"{path.stat().st_size}:{digest.hexdigest()}"


def normalize_task_id(task_id: Any) -> str:
    """``"t2"``, ``"2"``, ``"T2"`` → ``"T2"``."""
    text = str(task_id or "").strip().upper()
    return f"T{text}" if text.isdigit() else text


def _within_roots(path: Path) -> bool:
    """For a served door's client, a raw file (a symlink resolved) must lie under the allowed roots too."""
    from dsagent.access import client_policy, under_roots

    policy = client_policy()
    return policy is None or under_roots(path, policy.settings.allowed_roots)
