"""The access token at the HTTP layer too, not only on the page.

The page asks for the token before it shows or loads anything (``app.access_gate``), but
Streamlit serves routes of its own beside the page: ``/_stcore/metrics`` answers anyone, and an
upload (``PUT /_stcore/upload_file/<session>/<file>``) is taken into memory for any session that
merely opened the websocket. With a token set, :class:`TokenGate` (an ASGI middleware that
:func:`install` adds to Streamlit's own) refuses the metrics, and an upload or its deletion for a
session that has not given the token; the app admits a session (:func:`admit`) once it has.
"""

from __future__ import annotations

import threading
from typing import Any

UPLOAD = "/_stcore/upload_file/"
METRICS = "/_stcore/metrics"

_admitted: set[str] = set()
_lock = threading.Lock()


def admit(session_id: str) -> None:
    """This browser session gave the token: its uploads are taken from now on."""
    with _lock:
        _admitted.add(session_id)


def admitted(session_id: str) -> bool:
    with _lock:
        return session_id in _admitted


def refusal(path: str, method: str) -> str | None:
    """Why a request to ``path`` is refused while a token is set, or None to let it through."""
    if path.rstrip("/").endswith(METRICS):
        return "the metrics need the access token"
    if UPLOAD in path and method.upper() != "OPTIONS":
        session_id = path.split(UPLOAD, 1)[1].split("/", 1)[0]
        if not admitted(session_id):
            return "give the access token on the page before uploading"
    return None


class TokenGate:
    """ASGI middleware: a request :func:`refusal` names gets 403 and never reaches Streamlit."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        why = refusal(scope.get("path") or "", scope.get("method") or "") if scope.get("type") == "http" else None
        if why is None:
            await self.app(scope, receive, send)
            return
        body = why.encode("utf-8")
        await send({"type": "http.response.start", "status": 403,
                    "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})


def install() -> None:
    """Add :class:`TokenGate` to Streamlit's middleware when an access token is set (``web_token``)."""
    from dsagent.config import load_settings

    if not load_settings().web_token:
        return
    from starlette.middleware import Middleware
    from streamlit.web.server.starlette import starlette_app

    own = starlette_app.create_streamlit_middleware

    def with_gate() -> list[Any]:
        return [Middleware(TokenGate), *own()]

    starlette_app.create_streamlit_middleware = with_gate
