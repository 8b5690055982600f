"""Which files a door may read: only under the allowed roots (setting ``allowed_roots``).

The MCP and LangGraph servers take paths from a client that is not the user at a shell, so every
path is resolved (symlinks followed) and must lie under one of the roots.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

from dsagent.errors import UserError


def resolved_roots(roots: Iterable[Path | str]) -> list[Path]:
    return [Path(r).expanduser().resolve() for r in roots]


def allowed_paths(paths: Sequence[str] | str, roots: Iterable[Path | str]) -> list[str]:
    """The paths, resolved, when every one is an existing file under a root; else a UserError
    that names the path and the fix."""
    if isinstance(paths, str):
        paths = [paths]
    if not paths:
        raise UserError("no data files given: pass `paths`, a list of CSV, Excel, Parquet or JSON files")
    bases = resolved_roots(roots)
    shown = ", ".join(str(b) for b in bases)
    out = []
    for raw in paths:
        if not isinstance(raw, str) or not raw.strip():
            raise UserError(f"{raw!r} is not a file path: pass each data file as a string")
        path = Path(raw).expanduser().resolve()
        if not any(path == b or path.is_relative_to(b) for b in bases):
            raise UserError(
                f"{raw} is outside the allowed folders ({shown}); move the file there, or allow its folder "
                "with the setting allowed_roots (DSAGENT_ALLOWED_ROOTS='[\"/path/to/data\"]', or `dsagent mcp --root DIR`)"
            )
        if not path.is_file():
            raise UserError(f"{raw}: no such file under the allowed folders ({shown}); check the path")
        out.append(str(path))
    return out
