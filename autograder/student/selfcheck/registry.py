"""The public check of each stage, registered by ``@check_of("<stage>", hint=...)`` where it is
defined, with the hint a student gets on asking before the check has found anything to fix."""

from __future__ import annotations

from collections.abc import Callable, Mapping

Check = Callable[[Mapping], None]  # raises Mismatch (or whatever the student's code raises)

CHECKS: dict[str, Check] = {}
FIRST_HINTS: dict[str, str] = {}  # stage -> the key of its hint for getting started


def check_of(stage: str, hint: str) -> Callable[[Check], Check]:
    """Register the decorated function as the public check of ``stage``; ``hint`` is the key of
    the stage's hint for a student who has not written it yet."""

    def register(function: Check) -> Check:
        if stage in CHECKS:
            raise ValueError(f"{stage} has two public checks")
        CHECKS[stage] = function
        FIRST_HINTS[stage] = hint
        return function

    return register
