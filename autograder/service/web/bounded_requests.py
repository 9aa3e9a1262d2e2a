"""Request bodies bounded before anything reads them.

Django's CSRF check, its sign-in and its form parsing all read the body, and its upload handlers
spill a large file to disk before any view can refuse it: a 400 MB upload grew a web process by
400 MB (or wrote 400 MB to /tmp, for a visitor with a made-up CSRF cookie) before the 413, holding
a gunicorn worker all the while. This WSGI middleware wraps Django's application and answers first:

- a ``Content-Length`` above the limit is refused at once, its body never read;
- a chunked body (no length) is read up to the limit, in memory, and refused the moment it goes
  past; one within it reaches Django whole, with its length.

The refusal says what the upload page says ("larger than N MB", nothing stored), as JSON for the
API. Behind a TLS proxy, cap bodies there too (nginx ``client_max_body_size``): see
docs/service/deployment.md.
"""

from __future__ import annotations

import html
import io
import json
from collections.abc import Callable, Iterable
from typing import Any

from autograder.service.web.middleware import POLICY
from autograder.service.web.text import page_text

Environ = dict[str, Any]
StartResponse = Callable[..., Any]
Application = Callable[[Environ, StartResponse], Iterable[bytes]]
READ_SIZE = 64 * 2**10


def _read_at_most(stream: Any, limit: int) -> io.BytesIO | None:
    """The stream's bytes, or None as soon as there are more than ``limit`` (the rest is left unread)."""
    body = io.BytesIO()
    while chunk := stream.read(min(READ_SIZE, limit + 1 - body.tell())):
        body.write(chunk)
        if body.tell() > limit:
            return None
    body.seek(0)
    return body


class BoundedRequests:
    """``application`` behind a limit of ``max_body`` bytes per request body; ``limit_mb`` is the
    upload limit the refusal names."""

    def __init__(self, application: Application, max_body: int, limit_mb: float):
        self.application = application
        self.max_body = max_body
        self.limit_mb = limit_mb

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        declared = environ.get("CONTENT_LENGTH") or ""
        if declared:
            if not declared.isdigit():
                return self._refuse(environ, start_response, "400 Bad Request", "a Content-Length of digits")
            if int(declared) > self.max_body:
                return self._too_large(environ, start_response)
        elif "chunked" in environ.get("HTTP_TRANSFER_ENCODING", "").lower():
            body = _read_at_most(environ["wsgi.input"], self.max_body)
            if body is None:
                return self._too_large(environ, start_response)
            environ["wsgi.input"] = body
            environ["CONTENT_LENGTH"] = str(body.getbuffer().nbytes)
        return self.application(environ, start_response)

    def _too_large(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        words = page_text("en")
        reason = words["refusal.too_large"].format(limit_mb=f"{self.limit_mb:g}")
        return self._refuse(environ, start_response, "413 Request Entity Too Large", f"{words['refused']} {reason}",
                            key="too_large")

    @staticmethod
    def _refuse(environ: Environ, start_response: StartResponse, status: str, text: str,
                key: str = "bad_request") -> Iterable[bytes]:
        """A refusal that reads nothing more and closes the connection (the rest of the body is unread)."""
        path = str(environ.get("PATH_INFO", ""))
        if path.startswith("/api/"):
            body, kind = json.dumps({"error": text, "refusal": key}).encode(), "application/json"
        else:
            back = path.removesuffix("/upload") if path.startswith("/assignments/") else "/"
            body = (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{html.escape(status)}</title>'
                    f'</head><body><p class="refusal" id="refusal">{html.escape(text)}</p>'
                    f'<p><a href="{html.escape(back)}">Back</a></p></body></html>').encode()
            kind = "text/html; charset=utf-8"
        start_response(status, [("Content-Type", kind), ("Content-Length", str(len(body))), ("Connection", "close"),
                                ("Content-Security-Policy", POLICY), ("X-Frame-Options", "DENY"),
                                ("X-Content-Type-Options", "nosniff"), ("Cache-Control", "no-store")])
        return [body]
