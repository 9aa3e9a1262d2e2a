"""The forms notebook 3 asks for in words, read as the grader reads them (``reading/forms.py``
holds the rule both read): a running mean computed without a softmax fails, as the grader charges
it; a masked softmax normalised a second time, and a module that registers no buffer for its mask,
are said beside a passing check, as the grader notes them for no points."""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch import nn
from torch.overrides import TorchFunctionMode

from ..reading.forms import missing_form
from .expectations import fail
from .worth_fixing import note


class _Called(TorchFunctionMode):
    """The names of the torch functions a call makes (``torch.softmax`` shows as "softmax")."""

    def __init__(self):
        super().__init__()
        self.names: set[str] = set()

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.names.add(str(getattr(func, "__name__", "")))
        return func(*args, **(kwargs or {}))


def note_form(call: Callable[[], object], what: str, form: str) -> None:
    """Note, for ``what``, that ``call`` misses the form ``form`` (``reading.forms.FORMS``)."""
    with _Called() as called:
        call()
    missing = missing_form(form, called.names)
    if missing:
        note(f"note.{missing}", what=what)


def expect_form(call: Callable[[], object], what: str, form: str, key: str, mistake: str) -> None:
    """Fail with ``key`` and ``mistake`` where ``call`` misses the form ``form``: the form a stage is
    for, which the grader charges (the running mean through a softmax)."""
    with _Called() as called:
        call()
    if missing_form(form, called.names):
        fail(key, hint=mistake, what=what)


def note_mask_buffer(module: nn.Module, what: str) -> None:
    """Note a module that registers no buffer, where the notebook's registers its mask as one."""
    plain = [value for value in vars(module).values() if isinstance(value, torch.Tensor)]
    if not list(module.buffers()) and not plain:  # a plain tensor attribute is the device check's to charge
        note("note.no_buffer", what=what)
