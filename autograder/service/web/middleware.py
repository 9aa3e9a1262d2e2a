"""A Content-Security-Policy on every response: no script at all, inline or not (the pages need
none: the queue page refreshes itself with a meta tag). Inline styles stay allowed, for the
kit's self-contained feedback and report pages; images only from here or embedded (the report's
charts)."""

from __future__ import annotations

POLICY = ("default-src 'none'; script-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:;"
          " form-action 'self'; frame-ancestors 'none'; base-uri 'none'")


class ContentSecurityPolicy:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.setdefault("Content-Security-Policy", POLICY)
        response.setdefault("Cache-Control", "no-store")
        return response
