"""Text from outside the grader (a worker's reply, a folder's name, a notebook), made safe to
store and show: always encodable as UTF-8, free of control characters, and cut to a known length.

Python keeps bytes it cannot decode as lone surrogates ("\\udcff"), and a worker may send them
on purpose ("\\ud800" in an exception message); UTF-8 refuses to encode them, so one such string
would stop every output file from being written. Control characters (but newline and tab) would
drive a terminal showing the report, and each costs six bytes in JSON. Each becomes U+FFFD.
"""

from __future__ import annotations

import re

REPLACEMENT = "\ufffd"
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f\ud800-\udfff]")


def clean_text(text: str, max_chars: int | None = None) -> str:
    """``text`` with every lone surrogate and control character replaced, cut to ``max_chars``
    (with an ellipsis)."""
    if max_chars is not None and len(text) > max_chars:
        text = text[: max(max_chars - 1, 0)] + "…"
    return _UNSAFE.sub(REPLACEMENT, text)
