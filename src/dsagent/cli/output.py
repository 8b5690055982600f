"""What the CLI prints on stderr while it works: messages and each node's progress (the answer goes to stdout)."""

from __future__ import annotations

import sys


def err(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def progress(event) -> None:  # type: ignore[no-untyped-def]
    if event.kind == "node_start":
        err(f"▸ {event.node} …")
    elif event.kind == "node_end":
        mark = "✓" if event.outcome == "ok" else "✗" if event.outcome in {"failed", "error", "exception"} else "•"
        detail = f" — {event.message}" if event.message else ""
        err(f"  {mark} {event.node} {event.seconds:.1f}s{detail}")
    elif event.kind == "info" and event.message:
        err(f"  … {event.message}")
