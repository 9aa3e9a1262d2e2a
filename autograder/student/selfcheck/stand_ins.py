"""A stage that only configures another stage's class is checked on how it builds it, so that a
mistake in that class costs only the class's own check (ARCHITECTURE.md, "Fairness").

For one call, a recorder stands in for the class in the notebook's namespace: it records its
arguments and computes nothing. The arguments are bound to the student's own class's signature
and compared with what the exercise asks, which its text states. Nothing here computes an answer.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, MutableMapping

from torch import nn


def built_with(namespace: MutableMapping, class_name: str, function: Callable,
               *args: object) -> tuple[object, list[inspect.BoundArguments | None]] | None:
    """``function(*args)`` with a recorder standing in for ``class_name``: what it returned, and the
    arguments of each instance it built (None where they do not fit the class's signature).
    None when the notebook defines no such class to stand in for."""
    own = namespace.get(class_name)
    looked_up = getattr(function, "__globals__", namespace)
    if not isinstance(own, type) or looked_up.get(class_name) is not own:
        return None
    records: list[tuple[tuple, dict]] = []

    class Recorder(nn.Module):
        def __init__(self, *arguments, **keywords):
            super().__init__()
            records.append((arguments, keywords))

    Recorder.__name__ = Recorder.__qualname__ = class_name
    looked_up[class_name] = Recorder
    try:
        result = function(*args)
    finally:
        looked_up[class_name] = own
    return result, [_bound(own, arguments, keywords) for arguments, keywords in records]


def _bound(own: type, arguments: tuple, keywords: dict) -> inspect.BoundArguments | None:
    try:
        bound = inspect.signature(own).bind(*arguments, **keywords)
    except TypeError:
        return None
    bound.apply_defaults()
    return bound
