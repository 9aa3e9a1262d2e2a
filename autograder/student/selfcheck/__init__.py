"""Public self-checks: one quick, friendly check per stage, called from the notebooks.

    from attention_kit_student import self_checks
    check = self_checks("en")       # what every notebook's setup cell does
    hint = check.hint
    check("softmax_naive")          # looks the definition up in the notebook's globals
    hint("softmax_naive")           # the fix for what the check found, only when asked for

Each check runs one small seeded case built on the book's printed numbers (``book``), small
tensors written out, and invariants (rows sum to 1, no overflow, exact shapes, zeros above the
diagonal, dropout identity in eval mode). A failed check says what it found; the fix, its hint,
waits until the student asks for it. Passing is a good sign, not the grade: the hidden tests
compare against the reference on many more shapes, dtypes and devices. Nothing here reads the
solutions, holds a reference implementation or computes an answer.

The checks of each notebook live in ``assignment_<nn>`` (``nn``: the number its id starts with)
and register themselves with ``registry.check_of`` when imported, for every notebook of the
curriculum; ``runner`` runs one and words the result in the notebook's language (``catalog``).
"""

import importlib

from ..curriculum import ASSIGNMENTS
from .catalog import MESSAGES
from .registry import CHECKS
from .runner import CheckResult, SelfChecks, check, hint, run_check, self_checks

for _assignment in ASSIGNMENTS:
    importlib.import_module(f"{__name__}.assignment_{_assignment[:2]}")

__all__ = ["CHECKS", "MESSAGES", "CheckResult", "SelfChecks", "check", "hint", "run_check", "self_checks"]
