"""What Python 3.11 added that the kit uses, for Python 3.10 (the Python of Gradescope's newest
image, Ubuntu 22.04). ``make test`` runs vermin, which fails on any other use of a newer feature.

It lives in worker/ because the sandboxed side uses it too, and worker/ imports nothing else.
"""

from __future__ import annotations

import sys
from enum import Enum

if sys.version_info >= (3, 11):
    from enum import StrEnum  # novm

    import tomllib  # novm
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

    class StrEnum(str, Enum):
        """An enum whose members are strings (``enum.StrEnum`` of Python 3.11)."""

        def __str__(self) -> str:
            return str(self.value)

__all__ = ["StrEnum", "tomllib"]
