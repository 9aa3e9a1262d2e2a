"""The forms notebook 3 asks for in words, read as the grader reads them (``reading/forms.py``
holds the rule both read): a running mean computed without a softmax fails, as the grader charges
it; a masked softmax normalised a second time, a module that registers no buffer for its mask, and
notebook 1's Python loops over the tokens, are said beside a passing check, as the grader notes
them for no points."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import torch
from torch import nn
from torch.overrides import TorchFunctionMode

from ..reading.forms import LOOP_TOKENS, missing_form
from .expectations import fail
from .worth_fixing import note


class _Called(TorchFunctionMode):
    """The names of the torch functions a call makes (``torch.softmax`` shows as "softmax"), and
    how many calls it makes."""

    def __init__(self):
        super().__init__()
        self.names: set[str] = set()
        self.calls = 0

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.names.add(str(getattr(func, "__name__", "")))
        self.calls += 1
        return func(*args, **(kwargs or {}))


def _missing_form(call: Callable[[], object], form: str) -> str | None:
    """The key of the form ``form`` that ``call`` misses (``reading.forms.missing_form``), if any."""
    with _Called() as called:
        call()
    return missing_form(form, called.names)


def note_form(call: Callable[[], object], what: str, form: str) -> None:
    """Note, for ``what``, that ``call`` misses the form ``form`` (``reading.forms.FORMS``)."""
    missing = _missing_form(call, form)
    if missing:
        note(f"note.{missing}", what=what)


def expect_form(call: Callable[[], object], what: str, form: str, key: str, mistake: str) -> None:
    """Fail with ``key`` and ``mistake`` where ``call`` misses the form ``form``: the form a stage is
    for, which the grader charges (the running mean through a softmax)."""
    if _missing_form(call, form):
        fail(key, hint=mistake, what=what)


def note_python_loop(function: Callable[..., object], arguments_for: Callable[[int], tuple], what: str) -> None:
    """Note, for ``what``, that the torch calls of ``function(*arguments_for(tokens))`` grow with the
    number of tokens (a Python loop over them), where notebook 1 asks for one tensor operation: the
    grader notes it for no points, and the check says so before submission. Only the student's call
    is counted, as the grader counts it: its inputs are made before."""
    counts, own = [], inspect.unwrap(function)  # not the check's watch on the inputs
    for tokens in LOOP_TOKENS:
        arguments = arguments_for(tokens)
        with _Called() as called:
            own(*arguments)
        counts.append(called.calls)
    if counts[1] > counts[0]:
        note("note.python_loop", what=what, tokens=LOOP_TOKENS[0], calls=counts[0], more_tokens=LOOP_TOKENS[1],
             more_calls=counts[1])


def note_mask_buffer(module: nn.Module, what: str) -> None:
    """Note a module that registers no buffer, where the notebook's registers its mask as one."""
    plain = [value for value in vars(module).values() if isinstance(value, torch.Tensor)]
    if not list(module.buffers()) and not plain:  # a plain tensor attribute is the device check's to charge
        note("note.no_buffer", what=what)
