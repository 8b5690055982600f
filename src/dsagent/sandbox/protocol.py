"""Length-prefixed JSON messages over a pair of pipes between the parent and the worker.

Private pipes, not stdin/stdout: generated code may write to fd 1 at C level, which must never
corrupt a reply. The code runs inside the worker, so it can also write to the reply pipe: the
parent reads replies without ever blocking (a message arrives whole or the wall limit ends the
wait), caps their size, and treats what they say as untrusted data (manager.py validates it).
"""

from __future__ import annotations

import json
import os
import select
import struct
import time
from typing import Any

_HEADER = struct.Struct(">I")
MAX_MESSAGE = 32 * 1024 * 1024
"""A reply larger than this is a protocol violation (stdout and the result text are capped far below)."""


class ProtocolError(Exception):
    """The worker (or code in it) sent something that is not a well-formed message."""


def send(fd: int, message: dict[str, Any]) -> None:
    data = json.dumps(message, default=str).encode()
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def ready(fd: int, timeout: float, write: bool = False) -> bool:
    """Can ``fd`` be read (or written) within ``timeout`` seconds? ``poll``, not ``select``:
    select() cannot watch a descriptor numbered 1024 or above (ValueError), and a long-lived
    process (a server, a test suite) gets such numbers. An error or a hang-up on the descriptor
    counts as ready: the read or write that follows says what it is."""
    watcher = select.poll()
    watcher.register(fd, select.POLLOUT if write else select.POLLIN)
    return bool(watcher.poll(max(timeout, 0) * 1000))


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
    """The next message, or None when the other side has gone (EOF). Blocking: the worker's side."""
    header = _read_exactly(fd, _HEADER.size)
    if header is None:
        return None
    body = _read_exactly(fd, _HEADER.unpack(header)[0])
    return None if body is None else json.loads(body)


class Reader:
    """The parent's side of the reply pipe: non-blocking, buffered, size-capped."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buffer = bytearray()
        self.eof = False
        os.set_blocking(fd, False)

    def _message(self) -> dict[str, Any] | None:
        if len(self.buffer) < _HEADER.size:
            return None
        size = _HEADER.unpack_from(self.buffer)[0]
        if size > MAX_MESSAGE:
            raise ProtocolError(f"a reply of {size:,} bytes announced (at most {MAX_MESSAGE:,})")
        end = _HEADER.size + size
        if len(self.buffer) < end:
            return None
        body = bytes(self.buffer[_HEADER.size:end])
        del self.buffer[:end]
        try:
            message = json.loads(body)
        except ValueError as exc:
            raise ProtocolError(f"a reply that is not JSON: {exc}") from exc
        if not isinstance(message, dict):
            raise ProtocolError("a reply that is not a JSON object")
        return message

    def pending(self) -> bool:
        """Bytes already waiting (buffered or in the pipe) although nothing was asked."""
        if self.buffer:
            return True
        try:
            return ready(self.fd, 0)
        except (OSError, ValueError):
            return False

    def poll(self, timeout: float) -> tuple[bool, dict[str, Any] | None]:
        """(True, message) for a whole message, (True, None) at EOF, (False, None) when
        ``timeout`` passed first; a part of a message waits in the buffer for the next call."""
        deadline = time.monotonic() + max(timeout, 0)
        while True:
            message = self._message()
            if message is not None:
                return True, message
            if self.eof:
                return True, None
            remaining = deadline - time.monotonic()
            try:
                readable = ready(self.fd, remaining)
            except (OSError, ValueError):
                self.eof = True
                continue
            if not readable:
                return False, None
            try:
                chunk = os.read(self.fd, 1 << 20)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if not chunk:
                self.eof = True  # a message cut short is dropped: EOF after what was whole
                continue
            self.buffer += chunk
            if len(self.buffer) > MAX_MESSAGE + _HEADER.size:
                raise ProtocolError("a reply larger than the protocol allows")
