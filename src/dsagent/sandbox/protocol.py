"""Length-prefixed JSON messages over a pair of pipes between the parent and the worker.

Private pipes, not stdin/stdout: generated code may write to fd 1 at C level, which must never
corrupt a reply.
"""

from __future__ import annotations

import json
import os
import struct
from typing import Any

_HEADER = struct.Struct(">I")


def send(fd: int, message: dict[str, Any]) -> None:
    data = json.dumps(message, default=str).encode()
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _read_exactly(fd: int, size: int) -> bytes | None:
    chunks, remaining = [], size
    while remaining:
        chunk = os.read(fd, min(remaining, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def recv(fd: int) -> dict[str, Any] | None:
    """The next message, or None when the other side has gone (EOF)."""
    header = _read_exactly(fd, _HEADER.size)
    if header is None:
        return None
    body = _read_exactly(fd, _HEADER.unpack(header)[0])
    return None if body is None else json.loads(body)
