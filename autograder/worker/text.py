"""Text from outside the grader (a worker's reply, a folder's name, a notebook), made safe to
store and show: always encodable as UTF-8, free of control characters, and cut to a known length.

Python keeps bytes it cannot decode as lone surrogates ("\\udcff"), and a worker may send them
on purpose ("\\ud800" in an exception message); UTF-8 refuses to encode them, so one such string
would stop every output file from being written. Control characters (but newline and tab), C0
and C1 alike, would drive a terminal showing the report, and each costs six bytes in JSON; the
bidirectional controls (right-to-left overrides and isolates) would make a message or a name
read as something else on a feedback page. Each becomes U+FFFD, which shows.
"""

from __future__ import annotations

import re

REPLACEMENT = "\ufffd"
# The bidirectional controls: marks, embeddings, overrides and isolates (Unicode's Bidi_Control).
BIDI_CONTROLS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_UNSAFE = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{BIDI_CONTROLS}\ud800-\udfff]")


def clean_text(text: str, max_chars: int | None = None) -> str:
    """``text`` with every lone surrogate and control character replaced, cut to ``max_chars``
    (with an ellipsis)."""
    if max_chars is not None and len(text) > max_chars:
        text = text[: max(max_chars - 1, 0)] + "…"
    return _UNSAFE.sub(REPLACEMENT, text)
