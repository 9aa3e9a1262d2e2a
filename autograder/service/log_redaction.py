"""No secret in any log line: sign-in links, API tokens, session keys, LTI id_tokens and access
tokens, passwords in URLs.

Django logs every refused request with its path ("Not Found: /signin/<the link's secret>"; with one
stray character, the whole valid link), gunicorn logs a failed request's URI, and a library's
error may quote a token. Rather than trust every logger and message, one filter rewrites each
record, message and traceback alike, before any handler writes it: ``settings.LOGGING`` puts it
on the web's handler, and ``webserver.py`` on gunicorn's. What it leaves is enough to see what
happened (the path's shape, the status, the reason), never what would let a reader in.
"""

from __future__ import annotations

import logging
import re

REDACTED = "[redacted]"
_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = (
    # A sign-in link's signed secret, as a path or within a URL.
    (re.compile(r"(/signin/)[^\s\"'<>?#]+"), rf"\g<1>{REDACTED}"),
    # JSON Web Tokens: LTI id_tokens, client assertions, access tokens that are JWTs.
    (re.compile(r"\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]*"), REDACTED),
    # The kit's API tokens (accounts.TOKEN_PREFIX), and any bearer credential.
    (re.compile(r"\bkit_[\w-]{16,}"), f"kit_{REDACTED}"),
    (re.compile(r"(?i)\b(bearer\s+)[^\s\"',;]+"), rf"\g<1>{REDACTED}"),
    # A password in a URL (a database URL in a connection error).
    (re.compile(r"(://[^\s:/@]+:)[^\s@/]+@"), rf"\g<1>{REDACTED}@"),
    # Cookies and form or JSON fields that carry secrets.
    (re.compile(r"(?i)\b(sessionid|csrftoken|csrfmiddlewaretoken|id_token|access_token|client_assertion|"
                r"secret_key|password)(\"?\s*[=:]\s*\"?)[^\s\"'&;,}]+"), rf"\g<1>\g<2>{REDACTED}"),
)


def redact(text: str) -> str:
    """``text`` with every secret the patterns know replaced."""
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


class RedactSecrets(logging.Filter):
    """A logging filter that redacts each record's message and traceback in place (it drops nothing)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(record.getMessage())
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True
