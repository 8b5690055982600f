"""The parent's check of a worker's reply, and its copy of the files a cell made.

The code runs inside the worker, so it can write a reply of its own to the reply pipe: a reply is
untrusted data. Its shape is checked field by field, and a figure or table it names is taken only
when it is the cell's own file below the code's directory (``sandbox/figures/cell_<n>_<k>.png``,
``sandbox/tables/cell_<n>_result.csv``, …), reached without links, a regular file of a capped size
whose content looks like what its name says. That file is copied into the workspace's own
``figures/`` and ``tables/``, which the code cannot write: reports read only those copies.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from dsagent.sandbox import fsafe

FIGURE_MAX_BYTES = 32 * 1024 * 1024
TABLE_MAX_BYTES = 64 * 1024 * 1024
FILE_MAX_BYTES = 64 * 1024 * 1024
_TEXT_MAX = 1_000_000
_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_OPTIONAL_TEXT = (str, type(None))
_DONE_FIELDS: dict[str, tuple[type, ...]] = {
    "type": (str,), "error": _OPTIONAL_TEXT, "breached": _OPTIONAL_TEXT, "result": _OPTIONAL_TEXT,
    "result_type": _OPTIONAL_TEXT, "figures": (list,), "tables": (list,), "stdout": (str,),
}
_OPTIONAL_FIELDS: dict[str, tuple[type, ...]] = {"figure_data": _OPTIONAL_TEXT, "duration_s": (int, float)}


class ReplyError(Exception):
    """A reply that the worker as written would never send: malformed, or forged by the code."""


def check_status(reply: dict[str, Any] | None) -> dict[str, Any]:
    if reply is None or reply.get("type") != "status":
        raise ReplyError(f"expected a status reply, got {_kind(reply)}")
    library_mb, importing = reply.get("library_mb"), reply.get("importing")
    if not isinstance(library_mb, (int, float)) or not 0 <= library_mb < 1e6 or not isinstance(importing, bool):
        raise ReplyError("a status reply with malformed fields")
    return {"library_mb": float(library_mb), "warm": bool(reply.get("warm")), "importing": importing}


def check_done(reply: dict[str, Any], output_bytes: int) -> dict[str, Any]:
    """The reply of a run, checked field by field; raises :class:`ReplyError`."""
    if reply.get("type") != "done":
        raise ReplyError(f"expected the reply of a run, got {_kind(reply)}")
    for name, types in _DONE_FIELDS.items():
        if name not in reply or not isinstance(reply[name], types):
            raise ReplyError(f"field {name!r} is missing or of the wrong type")
    for name, types in _OPTIONAL_FIELDS.items():
        if reply.get(name) is not None and not isinstance(reply[name], types):
            raise ReplyError(f"field {name!r} is of the wrong type")
    if reply["breached"] not in (None, "memory", "output"):
        raise ReplyError(f"unknown limit {reply['breached']!r}")
    if len(reply["stdout"]) > output_bytes + 1024:
        raise ReplyError("more output than the output limit lets through")
    for name in ("error", "result", "result_type", "figure_data"):
        if isinstance(reply.get(name), str) and len(reply[name]) > _TEXT_MAX:
            raise ReplyError(f"field {name!r} is longer than any real reply")
    if not all(isinstance(p, str) for p in reply["figures"] + reply["tables"]):
        raise ReplyError("figure and table paths must be text")
    return reply


def _kind(reply: dict[str, Any] | None) -> str:
    return "nothing" if reply is None else repr(str(reply.get("type"))[:40])


def _own_file(sandbox_dir: Path, path: str, folder: str, pattern: re.Pattern[str], n: int) -> tuple[str, str]:
    rel = fsafe.relative_inside(sandbox_dir, path)
    name = Path(rel).name if rel else ""
    match = pattern.fullmatch(name)
    if rel is None or rel != f"{folder}/{name}" or match is None or int(match.group(1)) != n:
        raise ReplyError(f"a {folder[:-1]} path that is not this cell's own file: {path[:200]!r}")
    return rel, name


_FIGURE = re.compile(r"cell_(\d+)(?:_\d+)?\.(?:png|json)")
_TABLE = re.compile(r"cell_(\d+)_result\.csv")


def collect(sandbox_dir: Path, workspace: Path, n: int, figures: list[str], tables: list[str]) -> tuple[list[str], list[str]]:
    """Copy cell ``n``'s figures and tables into ``workspace/figures`` and ``workspace/tables``;
    returns the copies' paths. Raises :class:`ReplyError` for a path or file that is not right."""
    copied_figures, copied_tables = [], []
    for path in figures:
        rel, name = _own_file(sandbox_dir, path, "figures", _FIGURE, n)
        data = _read(sandbox_dir, rel, FIGURE_MAX_BYTES)
        if name.endswith(".png") and not data.startswith(_PNG_MAGIC):
            raise ReplyError(f"{rel} is not a PNG image")
        if name.endswith(".json"):
            try:
                if not isinstance(json.loads(data), dict):
                    raise ValueError("not an object")
            except ValueError as exc:
                raise ReplyError(f"{rel} is not a Plotly figure: {exc}") from exc
        copied_figures.append(str(fsafe.write_bytes(workspace, f"figures/{name}", data)))
    for path in tables:
        rel, name = _own_file(sandbox_dir, path, "tables", _TABLE, n)
        data = _read(sandbox_dir, rel, TABLE_MAX_BYTES)
        copied_tables.append(str(fsafe.write_bytes(workspace, f"tables/{name}", data)))
    return copied_figures, copied_tables


def _read(sandbox_dir: Path, rel: str, max_bytes: int) -> bytes:
    try:
        return fsafe.read_bytes(sandbox_dir, rel, max_bytes)
    except OSError as exc:
        raise ReplyError(str(exc)) from exc


def collect_file(sandbox_dir: Path, workspace: Path, name: str, folder: str = "outputs", max_bytes: int = FILE_MAX_BYTES) -> Path | None:
    """A file the code wrote under ``name`` (relative to its directory), copied to
    ``workspace/<folder>/<its file name>`` (a later copy of the same name replaces it); None when
    it is missing, not a regular file reached without links, or larger than ``max_bytes``."""
    rel = fsafe.relative_inside(sandbox_dir, name)
    if rel is None:
        return None
    try:  # streamed: a cleaned table of gigabytes is copied a megabyte at a time
        return fsafe.copy_file(sandbox_dir, rel, workspace, f"{folder}/{Path(rel).name}", max_bytes)
    except OSError:
        return None
