"""A function stage leaves the tensors it is given as they were, on every call of its check.

The grader asks this of every call of a function stage (its worker reports the tensor arguments a
call changed in place: ``scores -= scores.max(...)``, ``x.sub_(...)``, ``masked_fill_`` on the
caller's scores, ``query.unsqueeze_(-1)``), and names ``input_modified_in_place`` after the values
(a fault of its own when they are wrong too). The public check watches the same way: every call
the check makes of the stage is watched (``watched``), the first argument changed is recorded and
put back as it was, so that the rest of the check reads its own inputs, and the change is told only
once everything else passed (``expect_inputs_kept``), as the grader tells it after the values.
Nothing here computes an answer.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping

import torch
from torch._subclasses.fake_tensor import is_fake

from .catalog import text
from .expectations import fail

# The stages that are functions of tensors; the others are classes, build one (their checks read
# the notebook's globals through the function), or change the modules they are given by design.
FUNCTIONS_OF_TENSORS = frozenset({
    "attention_scores_for_query", "attention_scores", "softmax_naive", "softmax_stable", "context_vector",
    "simple_self_attention", "scaled_dot_product_scores", "causal_average_loop", "causal_average_matmul",
    "causal_average_softmax", "mask_and_renormalize", "masked_softmax", "inverted_dropout", "split_heads",
    "merge_heads",
})


class KeptInputs:
    """The student's ``function`` as the check calls it: each call runs on the check's own tensors;
    the first argument a call changes is kept in ``changed`` (its name) and put back as it was
    (its shape and strides, then its values), and a result that shares the changed argument's
    memory is handed back as a copy, so that putting the argument back leaves the result alone."""

    def __init__(self, function: Callable, stage: str):
        self.function = function
        self.__wrapped__ = function  # what counts the student's own torch calls reads (``inspect.unwrap``)
        self.stage = stage
        self.changed: str | None = None

    def __call__(self, *args, **kwargs):
        watched = {name: _Snapshot(value) for name, value in self._tensor_arguments(args, kwargs).items()}
        result = self.function(*args, **kwargs)
        for name, snapshot in watched.items():
            if snapshot.changed():
                self.changed = self.changed or name
                result = snapshot.restore(result)
        return result

    def _tensor_arguments(self, args: tuple, kwargs: dict) -> dict[str, torch.Tensor]:
        """The real tensors among the call's arguments, by the student's parameter names (a tensor of
        the stand-in GPU has no values to compare)."""
        try:
            bound = inspect.signature(self.function).bind(*args, **kwargs).arguments
        except (TypeError, ValueError):  # the call does not fit: the student's code will say so itself
            bound = {f"#{index}": value for index, value in enumerate(args)} | kwargs
        return {name: value for name, value in bound.items()
                if isinstance(value, torch.Tensor) and value.device.type != "meta" and not is_fake(value)}

    def call(self) -> str:
        """The stage's call as its parameters spell it: ``masked_softmax(attn_scores, d_k)``."""
        try:
            parameters = list(inspect.signature(self.function).parameters)
        except (TypeError, ValueError):
            parameters = []
        return f"{self.stage}({', '.join(parameters)})"


class _Snapshot:
    """A tensor argument as it was before the call: its layout and a copy of its values."""

    def __init__(self, tensor: torch.Tensor):
        self.tensor = tensor
        self.layout = (tensor.shape, tensor.stride(), tensor.storage_offset())
        self.values = tensor.detach().clone()

    def changed(self) -> bool:
        now = self.tensor.detach()
        if now.shape != self.values.shape:
            return True
        same = (now == self.values) | (torch.isnan(now) & torch.isnan(self.values)) if now.is_floating_point() \
            else now == self.values
        return not bool(same.all())

    def restore(self, result):
        """Put the argument back as it was; returns ``result``, copied when it shares its memory."""
        shape, stride, offset = self.layout
        with torch.no_grad():
            if (self.tensor.shape, self.tensor.stride(), self.tensor.storage_offset()) != self.layout:
                self.tensor.set_(self.tensor.untyped_storage(), offset, shape, stride)
            if not torch.equal(self.tensor, self.values):
                if isinstance(result, torch.Tensor) and _shares_memory(result, self.tensor):
                    result = result.clone()
                self.tensor.copy_(self.values)
        return result


def _shares_memory(first: torch.Tensor, second: torch.Tensor) -> bool:
    return first.untyped_storage().data_ptr() == second.untyped_storage().data_ptr()


def watched(namespace: Mapping, stage: str) -> tuple[Mapping, KeptInputs | None]:
    """``namespace`` with the stage's function watched, when it is a function of tensors, and the
    watch (None for the other stages, whose namespace is handed on as it is)."""
    function = namespace.get(stage)
    if stage not in FUNCTIONS_OF_TENSORS or not inspect.isfunction(function):
        return namespace, None
    kept = KeptInputs(function, stage)
    return {**namespace, stage: kept}, kept


def expect_inputs_kept(kept: KeptInputs | None) -> None:
    """No call of the check changed an argument of the stage in place."""
    if kept is not None and kept.changed is not None:
        fail("values", what=text("what.argument_after", argument=kept.changed, call=kept.call()),
             expected=text("is.unchanged"), got=text("is.changed"), hint="input_modified_in_place")
