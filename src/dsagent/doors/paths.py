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


def allowed_paths(paths: Sequence[str] | str, roots: Iterable[Path | str], sources: Iterable[str] = ()) -> list[str]:
    """The paths, resolved, when every one is an existing file under a root or a database URL
    (``env:NAME``) listed in ``sources`` (the setting ``allowed_sources``); else a UserError that
    names the path and the fix. A URL's password is never repeated in the message."""
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
        if _is_url(raw):
            if raw not in set(sources):
                raise UserError(f"{_shown(raw)}: this database is not among the server's allowed sources; allow it with the setting "
                                "allowed_sources (DSAGENT_ALLOWED_SOURCES='[\"postgresql://reader@host/db\"]' or '[\"env:NAME\"]')")
            out.append(raw)
            continue
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


def _is_url(raw: str) -> bool:
    from dsagent.sources.url import is_source

    return is_source(raw) and (raw.startswith("env:") or "://" in raw)


def _shown(raw: str) -> str:
    """The URL with its password masked."""
    if raw.startswith("env:"):
        return raw
    from sqlalchemy.engine import make_url

    try:
        return make_url(raw).render_as_string(hide_password=True)
    except Exception:  # noqa: BLE001 - an unreadable URL is shown by its scheme only
        return raw.split("://", 1)[0] + "://…"
