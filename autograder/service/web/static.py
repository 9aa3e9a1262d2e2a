"""The pages' stylesheets, served by the service itself (no CDN, and ``style-src 'self'`` in the
Content-Security-Policy): Pico CSS's classless build (vendored by ``make vendor-css``, see
``vendored.json``) and the kit's own rules on top of it (``kit.css``).

The files are read into memory when this module is imported, which the web process does before it
leaves root (``webserver.py``): the kit's folder may be closed to the web user. Browsers keep them
and ask again with the file's ETag (a 304 when unchanged), so an upgrade shows at once.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.http import Http404, HttpResponse
from django.views.decorators.http import condition, require_safe

STATIC_DIR = Path(__file__).parent / "static"
# In the order every page links them: the library, then the kit's rules that build on it.
STYLESHEETS = ("pico.classless.min.css", "kit.css")
STYLESHEET_URLS = tuple(f"/static/{name}" for name in STYLESHEETS)

_CONTENT = {name: (STATIC_DIR / name).read_bytes() for name in STYLESHEETS}
_ETAGS = {name: hashlib.sha256(content).hexdigest()[:32] for name, content in _CONTENT.items()}


def _etag(request, name: str) -> str | None:
    return _ETAGS.get(name)


@require_safe
@condition(etag_func=_etag)
def stylesheet(request, name: str):
    if name not in _CONTENT:
        raise Http404
    response = HttpResponse(_CONTENT[name], content_type="text/css; charset=utf-8")
    response["Cache-Control"] = "no-cache"  # kept, and checked against the ETag before each use
    return response
