"""Whether an error message names the values it is about, as the notebooks ask ("say which p was
given", "name both sizes"): read the same by the grader (``hidden.modules.expect_message_names``)
and the public checks.

A value counts as named when some number written in the message equals it, however Python wrote
it: ``str``, ``repr`` or a format (1.5, 1.50, 1.5e+00, -0.1, 10, 10.0). Digits inside a word
(float32) are not numbers of the message.
"""

from __future__ import annotations

import math
import re

_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?(?!\w)(?!\.\d)")


def numbers_in(message: str) -> list[float]:
    """The numbers ``message`` writes, in order."""
    return [float(number) for number in _NUMBER.findall(message)]


def values_not_named(message: str, values: dict[str, float]) -> list[str]:
    """The names of ``values`` whose value no number of ``message`` equals (to 1e-9)."""
    written = numbers_in(message)
    return [name for name, value in values.items()
            if not any(math.isclose(number, value, rel_tol=1e-9, abs_tol=1e-12) for number in written)]
