"""What the public inputs alone never try, though the grader does: another device, another dtype,
gradients, and a second call without a generator.

A student's machine often has no GPU, so a GPU is stood in for as the grader stands it in
(``autograder.worker.fake_gpu``): torch's ``FakeTensorMode`` makes tensors with a device, a shape
and a dtype but no values, on the meta device, and checks on every operation that the devices
agree, as CUDA does. A tensor made on the CPU inside the student's code then meets the input's
device and torch refuses the mix, or the result comes back on the CPU. Code that reads values
(``.item()``, boolean indexing) cannot run on tensors without values; a GPU runs it, so that is no
finding. Nothing here computes an answer: each check compares the student's output with its own
input (its device, its dtype) or with itself (a gradient that arrives, two masks that differ).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import torch
from torch import nn
from torch._subclasses.fake_tensor import (
    DataDependentOutputException,
    DynamicOutputShapeException,
    FakeTensorMode,
    UnsupportedOperatorException,
)

from ..reading.error_hints import device_error, meta_cannot_run
from .catalog import hint_text, text
from .expectations import Mismatch, fail, one_line

STAND_IN_DEVICE = "meta"  # fake tensors on meta check devices as CUDA does (see fake_gpu's docstring)
_CANNOT_TELL = (DataDependentOutputException, DynamicOutputShapeException, UnsupportedOperatorException)


def expect_follows_device(call: Callable[..., object], inputs: Sequence[torch.Tensor], what: str,
                          module: nn.Module | None = None) -> None:
    """``call(*inputs)`` with the inputs (and ``module``'s parameters and buffers, as ``.to(device)``
    moves them) on a stand-in GPU returns a tensor on that device."""

    def run():
        if module is not None:
            module._apply(lambda tensor: torch.empty(tensor.shape, dtype=tensor.dtype, device=STAND_IN_DEVICE))
        return call(*(torch.empty(x.shape, dtype=x.dtype, device=STAND_IN_DEVICE) for x in inputs))

    try:
        _expect_on_stand_in(run, what)
    except Mismatch as mismatch:
        # A mix of devices where the module keeps a tensor as a plain attribute (a mask): it stayed
        # behind, as the grader tells it. A module that moves it itself (.to(x.device)) runs.
        left_behind = _plain_tensors(module) if module is not None else []
        raised = mismatch.raised
        if left_behind and raised is not None and device_error(type(raised).__name__, str(raised)):
            fail("plain_tensor", what=what, name=left_behind[0], hint="mask_plain_attribute")
        raise


def _plain_tensors(module: nn.Module) -> list[str]:
    """The tensors ``module`` keeps as plain attributes, not parameters or buffers, that need no
    gradient (weights kept so are the parameters' fault, told before)."""
    return sorted(name for name, value in vars(module).items() if isinstance(value, torch.Tensor)
                  and not isinstance(value, nn.Parameter) and not value.requires_grad)


def expect_made_on_device(call: Callable[[str], object], what: str) -> None:
    """``call(device)`` for the stand-in GPU's device makes its tensor there."""
    _expect_on_stand_in(lambda: call(STAND_IN_DEVICE), what)


def _expect_on_stand_in(run: Callable[[], object], what: str) -> None:
    """``run()`` on the stand-in GPU returns a tensor there. An exception is the student's (the
    runner reads it: a refused mix of devices is named as the grader names it)."""
    try:
        with FakeTensorMode(allow_non_fake_inputs=True), torch.no_grad():
            result = run()
    except _CANNOT_TELL:
        return  # the code reads values: a GPU runs it, the stand-in cannot say more
    except NotImplementedError:
        raise
    except Exception as error:  # noqa: BLE001 - student code: what it raised on the GPU is the finding
        if meta_cannot_run(type(error).__name__, str(error)):
            return
        said = (text("gpu_mixed_devices", what=what) if device_error(type(error).__name__, str(error))
                else text("gpu_raised", what=what, error_type=type(error).__name__, error=one_line(error)))
        raise Mismatch(said, hint_text("hint.gpu"), key="gpu_raised", raised=error) from None
    if isinstance(result, torch.Tensor) and result.device.type != STAND_IN_DEVICE:
        fail("gpu_result", what=what, got=result.device.type, hint="device_not_followed")


def expect_follows_dtype(call: Callable[[], object], what: str) -> object:
    """``call()``, given float64 inputs (and a module made float64 with ``.double()``), runs: a
    float32 tensor made inside, or the input cast with ``.float()``, meets float64 and torch
    refuses the mix. A float32 result is no failure: it is compared at float32's precision
    (ARCHITECTURE.md, "Fairness"), as the grader does; it is returned, for a check that notes its
    dtype as the grader does (``worth_fixing.note_dtype``)."""
    try:
        return call()
    except NotImplementedError:
        raise
    except RuntimeError as error:
        raise Mismatch(text("what_raised", what=what, error_type="RuntimeError", error=one_line(error)),
                       hint_text("hint.input_dtype"), key="raised", raised=error) from None


def expect_every_gradient(module: nn.Module, x: torch.Tensor, call: str) -> None:
    """After ``module(x).sum().backward()``, every parameter has a gradient: none is used through
    ``.detach()`` or ``.data``, nor made with ``requires_grad=False``."""
    module.zero_grad(set_to_none=True)
    try:
        module(x).sum().backward()
    except RuntimeError as error:
        what = text("what.backward", call=call)
        in_place = [layer for layer in module.modules() if isinstance(layer, nn.Dropout) and layer.inplace]
        if in_place and "inplace operation" in str(error):  # the dropout overwrote what backward needs
            fail("what_raised", what=what, error_type="RuntimeError", error=one_line(error), hint="dropout_in_place")
        frozen = [name for name, parameter in module.named_parameters() if not parameter.requires_grad]
        if frozen and "does not require grad" in str(error):  # the walk-through's requires_grad=False, copied
            fail("what_raised", what=what, error_type="RuntimeError", error=one_line(error),
                 hint="parameter_gets_no_gradient")
        raise Mismatch(text("what_raised", what=what, error_type="RuntimeError", error=one_line(error)),
                       key="raised", raised=error) from None
    missing = [name for name, parameter in module.named_parameters() if parameter.grad is None]
    if missing:
        # Stated, not named: the grader may find the same fault through the gradient of the input.
        fail("no_gradient", call=call, parameters=", ".join(f"`{name}`" for name in missing),
             hint="parameter_gets_no_gradient", names=False)


def expect_new_mask_each_call(f: Callable, x: torch.Tensor, p: float) -> None:
    """Without a generator, two calls draw from PyTorch's default stream, which moves on: their
    masks differ (for 4000 elements, equal masks by chance never happen)."""
    torch.random.default_generator.manual_seed(2024)
    first, second = f(x, p), f(x, p)
    if isinstance(first, torch.Tensor) and isinstance(second, torch.Tensor) and torch.equal(first, second):
        fail("values", what=text("what.two_calls", call=f"inverted_dropout(torch.ones(4000), p={p})"),
             expected=text("is.different_masks"), got=text("is.the_same_mask"), hint="dropout_fixed_seed")
