"""The access token at the HTTP layer (issue 38, finding 12): with a token set, Streamlit's own
metrics route and its upload route refuse a browser session that has not given the token. The
real-server test failed on the code before the gate (metrics 200, upload 400/204 past the token)."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

from dsagent.web import gate
from tests.web.browser_harness import WebServer

TOKEN = "s3cret-token-for-the-gate"


def test_refusal_names_metrics_and_uploads_of_sessions_that_gave_no_token():
    assert gate.refusal("/_stcore/metrics", "GET")
    assert gate.refusal("/app/_stcore/metrics/", "GET")  # under a base URL too
    assert gate.refusal("/_stcore/upload_file/sess-1/file-1", "PUT")
    assert gate.refusal("/_stcore/upload_file/sess-1/file-1", "DELETE")
    assert gate.refusal("/_stcore/upload_file/sess-1/file-1", "OPTIONS") is None  # the CORS preflight
    assert gate.refusal("/_stcore/health", "GET") is None and gate.refusal("/", "GET") is None
    gate.admit("sess-1")
    assert gate.refusal("/_stcore/upload_file/sess-1/file-1", "PUT") is None
    assert gate.refusal("/_stcore/upload_file/sess-2/file-1", "PUT")


def _status(url: str, method: str = "GET", data: bytes | None = None) -> int:
    request = urllib.request.Request(url, method=method, data=data)
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_a_real_server_with_a_token_refuses_metrics_and_an_upload_without_it(tmp_path: Path, script_file):
    with WebServer(script_file([]), tmp_path / "web.log", env={"DSAGENT_WEB_TOKEN": TOKEN}) as web:
        assert _status(f"{web.url}/_stcore/health") == 200
        assert _status(f"{web.url}/_stcore/metrics") == 403
        assert _status(f"{web.url}/_stcore/upload_file/any-session/any-file", "PUT", b"x" * 1024) == 403
    with WebServer(script_file([]), tmp_path / "open.log") as web:  # loopback without a token: as before
        assert _status(f"{web.url}/_stcore/metrics") == 200
