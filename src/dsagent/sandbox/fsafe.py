"""Files dsagent (unconfined, often root) writes or reads where sandboxed code may have been.

The sandboxed code may plant links, FIFOs or huge files in its own directory. dsagent therefore
never follows a link below a trusted root: directories are opened component by component with
``O_NOFOLLOW|O_DIRECTORY``, files it reads must be regular files (``fstat``) of a capped size,
and files it writes are created on a fresh name (``O_CREAT|O_EXCL|O_NOFOLLOW``) and renamed
over the target, which replaces a planted link or hard link instead of writing through it.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from dsagent.atomic import write_in_dir

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)
_READ_FLAGS = os.O_RDONLY | os.O_CLOEXEC | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)  # NONBLOCK: a FIFO must not hang us


class UnsafePath(OSError):
    """A path that leaves its root, passes through a link, or is not a regular file of a sane size."""


def relative_inside(root: Path, path: str | os.PathLike[str]) -> str | None:
    """``path`` relative to ``root``, judged on the text alone (no link is resolved), or None
    when it is not below ``root``."""
    candidate = Path(path)
    if not candidate.is_absolute():
        candidate = Path(root) / candidate
    norm = os.path.normpath(candidate)
    root_norm = os.path.normpath(Path(root))
    if not norm.startswith(root_norm.rstrip(os.sep) + os.sep):
        return None
    return os.path.relpath(norm, root_norm)


def _parts(rel: str) -> list[str]:
    parts = [p for p in Path(rel).parts if p not in ("", ".")]
    if not parts or Path(rel).is_absolute() or ".." in parts:
        raise UnsafePath(f"not a plain relative path: {rel!r}")
    return parts


@contextmanager
def open_dir(root: Path, parts: list[str], create: bool = False) -> Iterator[int]:
    """A descriptor of ``root/<parts…>`` reached without following any link below ``root``."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        for part in parts:
            try:
                nxt = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                os.mkdir(part, 0o755, dir_fd=fd)
                nxt = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                raise UnsafePath(f"{part!r} below {root} is not a plain directory ({exc.strerror})") from exc
            os.close(fd)
            fd = nxt
        yield fd
    finally:
        os.close(fd)


@contextmanager
def _open_regular(root: Path, rel: str, max_bytes: int) -> Iterator[int]:
    """A descriptor of the regular file ``root/rel`` (no links on the way, one name, at most ``max_bytes``)."""
    *dirs, name = _parts(rel)
    with open_dir(root, dirs) as dir_fd:
        try:
            fd = os.open(name, _READ_FLAGS, dir_fd=dir_fd)
        except OSError as exc:
            raise UnsafePath(f"{rel}: cannot be opened without following a link ({exc.strerror})") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnsafePath(f"{rel}: not a regular file")
        if info.st_nlink > 1:  # a hard link may name a file from elsewhere
            raise UnsafePath(f"{rel}: has other names (hard links)")
        if info.st_size > max_bytes:
            raise UnsafePath(f"{rel}: {info.st_size:,} bytes, more than the {max_bytes:,} allowed")
        yield fd
    finally:
        os.close(fd)


def _chunks(fd: int, rel: str, max_bytes: int) -> Iterator[bytes]:
    size = 0
    while chunk := os.read(fd, 1 << 20):
        size += len(chunk)
        if size > max_bytes:
            raise UnsafePath(f"{rel}: grew past the {max_bytes:,} bytes allowed")
        yield chunk


def read_bytes(root: Path, rel: str, max_bytes: int) -> bytes:
    """The bytes of the regular file ``root/rel`` (no links on the way), at most ``max_bytes``."""
    with _open_regular(root, rel, max_bytes) as fd:
        return b"".join(_chunks(fd, rel, max_bytes))


def copy_file(root: Path, rel: str, dest_root: Path, dest_rel: str, max_bytes: int) -> Path:
    """Copy the regular file ``root/rel`` (checked as :func:`read_bytes` does) to ``dest_root/dest_rel``
    a megabyte at a time, on a fresh name renamed over the target: a file of gigabytes never sits
    in memory."""
    with _open_regular(root, rel, max_bytes) as fd:
        *dirs, name = _parts(dest_rel)
        with open_dir(dest_root, dirs, create=True) as dir_fd:
            write_in_dir(dir_fd, name, _chunks(fd, rel, max_bytes))
    return Path(dest_root, *dirs, name)


def read_inside(root: Path, path: str | os.PathLike[str], max_bytes: int) -> bytes:
    """Like :func:`read_bytes` for an absolute or root-relative ``path`` that must lie below ``root``."""
    rel = relative_inside(root, path)
    if rel is None:
        raise UnsafePath(f"{path}: outside {root}")
    return read_bytes(root, rel, max_bytes)


def write_bytes(root: Path, rel: str, data: bytes, mode: int = 0o644) -> Path:
    """Write ``root/rel`` on a fresh name, then rename it over the target (never through a link)."""
    *dirs, name = _parts(rel)
    with open_dir(root, dirs, create=True) as dir_fd:
        write_in_dir(dir_fd, name, data, mode)
    return Path(root, *dirs, name)


def tree_bytes(root: Path, limit: int) -> int:
    """Disk used below ``root`` (links not followed); stops counting once past ``limit``."""
    total = 0
    stack = [str(root)]
    while stack and total <= limit:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            try:
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            total += max(info.st_blocks * 512, 0) if hasattr(info, "st_blocks") else info.st_size
            if stat.S_ISDIR(info.st_mode):
                stack.append(entry.path)
    return total
