"""A Content-Security-Policy on every response: no script at all, inline or not (the pages need
none: the queue page refreshes itself with a meta tag). Styles come from the service's own
stylesheets (``web/static.py``); the only inline style allowed is each of the kit's self-contained
pages' one ``<style>`` block (the class report, similar submissions), by its SHA-256, so no style
injected into a page applies. Images only from here or embedded (the report's charts, the
stylesheet's form icons)."""

from __future__ import annotations

import base64
import hashlib
import re

from autograder.feedback.page import templates as kit_templates


def inline_style_hashes() -> tuple[str, ...]:
    """The CSP sources of the kit's pages' inline style blocks: their text is fixed in the templates."""
    found = set()
    for name in kit_templates.list_templates():
        source = kit_templates.loader.get_source(kit_templates, name)[0]
        for block in re.findall(r"<style>(.*?)</style>", source, flags=re.DOTALL):
            found.add("'sha256-" + base64.b64encode(hashlib.sha256(block.encode()).digest()).decode() + "'")
    return tuple(sorted(found))


POLICY = (f"default-src 'none'; script-src 'none'; style-src 'self' {' '.join(inline_style_hashes())};"
          " img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")


class ContentSecurityPolicy:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.setdefault("Content-Security-Policy", POLICY)
        response.setdefault("Cache-Control", "no-store")
        return response
