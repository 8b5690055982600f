"""A fake OpenAI-compatible chat server on 127.0.0.1 for fault tests (threads, bounded waits).

Each request takes the next behaviour from a queue (the last one repeats):

- ``"ok:<text>"``: a valid chat completion whose content is ``<text>``;
- ``"500"``, ``"400"``, ``"401"``, ``"404"``: that HTTP status with an OpenAI-style error body;
- ``"429:<seconds>"``: rate limited, with ``Retry-After: <seconds>``;
- ``"hang"``: no answer until the server stops (bounded by ``hang_s``);
- ``"invalid_json"``: status 200 with a body that is not JSON;
- ``"wrong_shape"``: status 200, valid JSON that is not a chat completion (``choices`` is null);
- ``"truncated"``: status 200, a body cut short of its Content-Length, then the connection closes;
- ``"empty_body"``: status 200 with an empty body;
- ``"empty"``: a valid chat completion with empty content;
- ``"no_schema:<text>"``: like llama-cpp-python's server: a request asking for
  ``response_format: json_schema`` gets HTTP 500 with its pydantic message ("Input should be 'text'
  or 'json_object'"); any other request ``ok:<text>``;
- ``"no_format:<text>"``: any ``response_format`` gets HTTP 400 naming it; else ``ok:<text>``;
- ``"no_tools:<text>"``: a request with ``tools`` gets HTTP 400 naming them; else ``ok:<text>``;
- ``"tools_as_text:<tool>"``: like llama-cpp-python's server with ``tools``: the call written as
  text content, no ``tool_calls``;
- ``"tool_call:<tool>"``: a native tool call of ``<tool>`` with no arguments;
- ``"strict:<text>"``: like OpenAI's own API: a request with a field the OpenAI protocol does not
  have (llama.cpp's ``repeat_penalty``, ``top_k``, ``min_p``) gets HTTP 400 naming it; else ``ok:<text>``;
- ``"strict_mute:<text>"``: the same refusal, but its message names no field.

``requests`` keeps the time each request arrived, so a test can check the back-off.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


OPENAI_FIELDS = {
    "model", "messages", "stream", "stream_options", "temperature", "top_p", "seed", "frequency_penalty",
    "presence_penalty", "max_tokens", "max_completion_tokens", "stop", "n", "response_format", "tools",
    "tool_choice", "parallel_tool_calls", "logprobs", "top_logprobs", "logit_bias", "user",
}
"""The request fields of OpenAI's chat completions API (a strict server refuses any other)."""


def completion(text: str, finish_reason: str = "stop") -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake", "object": "chat.completion", "created": int(time.time()), "model": "fake",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish_reason}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
    }


class FakeOpenAI:
    def __init__(self, behaviours: list[str], hang_s: float = 30.0) -> None:
        self.behaviours = list(behaviours)
        self.hang_s = hang_s
        self.requests: list[float] = []
        self.bodies: list[dict[str, Any]] = []
        self.auth: list[str | None] = []
        """The Authorization header of each request (which key the client sent)."""
        self._stop = threading.Event()
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                with fake._lock:
                    fake.requests.append(time.monotonic())
                    fake.auth.append(self.headers.get("Authorization"))
                    try:
                        fake.bodies.append(json.loads(raw or b"{}"))
                    except ValueError:
                        fake.bodies.append({})
                    mode = fake.behaviours.pop(0) if len(fake.behaviours) > 1 else fake.behaviours[0]
                fake._respond(self, mode)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}/v1"
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def _respond(self, h: BaseHTTPRequestHandler, mode: str) -> None:
        kind, _, arg = mode.partition(":")
        body = self.bodies[-1] if self.bodies else {}
        asked = (body.get("response_format") or {}).get("type")
        if kind == "no_schema":
            kind = "ok"
            if asked == "json_schema":
                message = ("1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), "
                           "'msg': \"Input should be 'text' or 'json_object'\", 'input': 'json_schema'}")
                self._send(h, 500, json.dumps({"error": {"message": message, "type": "internal_server_error"}}).encode())
                return
        elif kind == "no_format":
            kind = "ok"
            if asked:
                self._send(h, 400, json.dumps({"error": {"message": f"response_format {asked} is not supported", "type": "invalid_request_error"}}).encode())
                return
        elif kind in ("strict", "strict_mute"):
            unknown = sorted(set(body) - OPENAI_FIELDS)
            kind = "ok"
            if unknown:
                message = f"Unrecognized request argument supplied: {unknown[0]}" if mode.startswith("strict:") else "Invalid request"
                self._send(h, 400, json.dumps({"error": {"message": message, "type": "invalid_request_error", "param": None}}).encode())
                return
        elif kind == "no_tools":
            kind = "ok"
            if body.get("tools"):
                self._send(h, 400, json.dumps({"error": {"message": "tools are not supported by this server", "type": "invalid_request_error"}}).encode())
                return
        if kind == "tools_as_text":
            kind, arg = "ok", json.dumps({"name": arg, "arguments": {}})
        elif kind == "tool_call":
            reply = completion("", "tool_calls")
            call = {"id": "call_fake1", "type": "function", "function": {"name": arg, "arguments": "{}"}}
            reply["choices"][0]["message"] = {"role": "assistant", "content": None, "tool_calls": [call]}
            self._reply(h, body, reply)
            return
        if kind == "hang":
            self._stop.wait(self.hang_s)
            return
        if kind == "ok":
            self._reply(h, body, completion(arg))
        elif kind == "empty":
            self._send(h, 200, json.dumps(completion("")).encode())
        elif kind == "length":
            self._send(h, 200, json.dumps(completion(arg, "length")).encode())
        elif kind in ("500", "400", "401", "404"):
            body = {"error": {"message": f"fake error {kind}", "type": "server_error", "code": kind}}
            self._send(h, int(kind), json.dumps(body).encode())
        elif kind == "429":
            body = {"error": {"message": "rate limited", "type": "rate_limit", "code": "429"}}
            self._send(h, 429, json.dumps(body).encode(), {"Retry-After": arg or "1"})
        elif kind == "invalid_json":
            self._send(h, 200, b"<html>this is not json")
        elif kind == "wrong_shape":
            self._send(h, 200, json.dumps({"id": "x", "object": "chat.completion", "choices": None}).encode())
        elif kind == "truncated":
            body = json.dumps(completion("cut short")).encode()
            h.send_response(200)
            h.send_header("Content-Type", "application/json")
            h.send_header("Content-Length", str(len(body)))
            h.end_headers()
            h.wfile.write(body[: len(body) // 2])
            h.wfile.flush()
            h.close_connection = True
            try:
                h.connection.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        elif kind == "empty_body":
            self._send(h, 200, b"")
        else:
            raise ValueError(f"unknown behaviour {mode!r}")

    def _reply(self, h: BaseHTTPRequestHandler, body: dict[str, Any], reply: dict[str, Any]) -> None:
        """A completion, as server-sent events when the request asked to stream (a graph streaming its messages does)."""
        if not body.get("stream"):
            self._send(h, 200, json.dumps(reply).encode())
            return
        choice = reply["choices"][0]
        delta = {k: v for k, v in choice["message"].items() if v is not None}
        for call in delta.get("tool_calls", []):
            call["index"] = 0
        chunks = [{**reply, "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": delta, "finish_reason": None}]},
                  {**reply, "object": "chat.completion.chunk", "choices": [{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}]}]
        for chunk in chunks:
            chunk.pop("usage", None)
        data = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
        self._send(h, 200, data.encode(), {"Content-Type": "text/event-stream"})

    @staticmethod
    def _send(h: BaseHTTPRequestHandler, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        h.send_response(status)
        headers = {"Content-Type": "application/json", **(headers or {})}
        h.send_header("Content-Length", str(len(body)))
        for key, value in headers.items():
            h.send_header(key, value)
        h.end_headers()
        h.wfile.write(body)

    def __enter__(self) -> "FakeOpenAI":
        self._thread.start()
        return self

    def __exit__(self, *_exc: Any) -> None:
        self._stop.set()
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(timeout=5)


def refused_url() -> str:
    """A localhost URL nothing listens on (the port was free a moment ago)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/v1"
