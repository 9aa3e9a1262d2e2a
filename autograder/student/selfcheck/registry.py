"""The public check of each stage, registered by ``@check_of("<stage>")`` where it is defined."""

from __future__ import annotations

from collections.abc import Callable, Mapping

Check = Callable[[Mapping], None]  # raises Mismatch (or whatever the student's code raises)

CHECKS: dict[str, Check] = {}


def check_of(stage: str) -> Callable[[Check], Check]:
    """Register the decorated function as the public check of ``stage``."""

    def register(function: Check) -> Check:
        if stage in CHECKS:
            raise ValueError(f"{stage} has two public checks")
        CHECKS[stage] = function
        return function

    return register
