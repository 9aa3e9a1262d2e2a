"""Text from outside the grader (a worker's reply, a folder's name, a notebook), made safe to
store: always encodable as UTF-8, and cut to a known length.

Python keeps bytes it cannot decode as lone surrogates ("\\udcff"), and a worker may send them
on purpose ("\\ud800" in an exception message); UTF-8 refuses to encode them, so one such string
would stop every output file from being written. Each becomes U+FFFD instead.
"""

from __future__ import annotations

REPLACEMENT = "\ufffd"


def clean_text(text: str, max_chars: int | None = None) -> str:
    """``text`` with every lone surrogate replaced, cut to ``max_chars`` (with an ellipsis)."""
    if max_chars is not None and len(text) > max_chars:
        text = text[: max(max_chars - 1, 0)] + "…"
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        return "".join(REPLACEMENT if "\ud800" <= char <= "\udfff" else char for char in text)
