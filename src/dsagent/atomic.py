"""Whole files only: every file dsagent writes appears complete or not at all.

A write goes to a hidden temporary file beside the target (same folder, so the same file system),
is flushed to disk, and is renamed over the target (``os.replace``: atomic on POSIX). A process
killed half way (kill -9, a power cut) leaves the old file or none, never half a report, cell or
figure. A leftover temporary file is hidden (``.<name>.tmp<pid><suffix>``) and never read.

Standard library only: the sandbox worker imports it too.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path


def _temp_for(path: Path) -> Path:
    # The suffix stays last: savefig() and friends pick the format from it.
    return path.with_name(f".{path.stem}.tmp{os.getpid()}{path.suffix}")


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def atomic_path(path: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary path to write ``path`` through (for writers that want a file name: savefig,
    to_csv); renamed over ``path`` when the block ends without an error, removed otherwise."""
    target = Path(path)
    temp = _temp_for(target)
    try:
        yield temp
        _fsync(temp)
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


_CREATE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | getattr(os, "O_NOFOLLOW", 0)


def write_in_dir(dir_fd: int, name: str, data: bytes | Iterable[bytes], mode: int = 0o644) -> None:
    """Write ``name`` in the open folder ``dir_fd`` whole: a fresh hidden name (``O_EXCL|O_NOFOLLOW``,
    so never through a link another process planted), flushed, then renamed over ``name`` (which
    replaces a planted link or hard link instead of writing through it)."""
    tmp = f".{name}.{secrets.token_hex(6)}.tmp"
    fd = os.open(tmp, _CREATE_FLAGS, mode, dir_fd=dir_fd)
    try:
        for part in ([data] if isinstance(data, (bytes, bytearray, memoryview)) else data):  # bytes, or chunks streamed
            view = memoryview(part)
            while view:
                view = view[os.write(fd, view):]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        os.unlink(tmp, dir_fd=dir_fd)
        raise
    os.close(fd)
    try:
        os.rename(tmp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except OSError:
        os.unlink(tmp, dir_fd=dir_fd)
        raise


def write_atomic(path: str | os.PathLike[str], data: str | bytes, encoding: str = "utf-8") -> Path:
    """Write ``data`` to ``path`` whole (see the module docstring); its folder is trusted (dsagent's
    own), its name is never followed if a link was planted there. Returns the path."""
    target = Path(path)
    raw = data.encode(encoding) if isinstance(data, str) else data
    dir_fd = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        write_in_dir(dir_fd, target.name, raw)
    finally:
        os.close(dir_fd)
    return target


def append_line(path: str | os.PathLike[str], line: str, encoding: str = "utf-8") -> None:
    """Append one line in a single write to a file opened for appending, so a killed writer leaves
    whole lines (a reader should still skip a last line without its newline)."""
    raw = (line.rstrip("\n") + "\n").encode(encoding)
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        written = os.write(fd, raw)
        while written < len(raw):  # a regular file takes it at once; be exact anyway
            written += os.write(fd, raw[written:])
        os.fsync(fd)
    finally:
        os.close(fd)
