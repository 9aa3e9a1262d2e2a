"""A stand-in GPU on any machine: the student's code run on fake tensors that check devices.

torch's ``FakeTensorMode`` makes tensors that have a device, a shape and a dtype but no values,
and checks on every operation, in-place ones included, that the devices agree, as CUDA does
(``merge_devices`` in torch/_subclasses/fake_tensor.py: the same rule for every device that is not
the CPU, a 0-d CPU tensor allowed as a scalar). So a mask kept as a plain attribute (it stays on
the CPU when the module moves) used with ``masked_fill_``, or a tensor made on the CPU inside
``forward``, fails here as it fails on a GPU. Real meta tensors check less: in-place operations
never look at their arguments' devices, which let the first pass.

The fake tensors live on the meta device, not on a fake ``cuda``: a CPU-only torch makes fake
``cuda`` tensors, but cannot index them (``x[:, :T]`` asks for a CUDA device guard), and every
attention module slices its mask. The device checks are the same for both.

In a stand-in probe the trusted side sends meta tensors (shapes only); modules among the call's
target and arguments are moved to the stand-in as ``.to(device)`` moves them (parameters and
buffers, never plain attributes). What comes back is a meta tensor for a tensor on the stand-in,
and a CPU tensor (of zeros) for one left on the CPU, so that the trusted side sees where each
result was. Code that reads values (``.item()``, boolean indexing) cannot run on tensors without
values: it raises ``CannotRunOnStandIn``, and a GPU would run it, so that is no mistake.
Autograd is off: the checks are about the forward pass.

A device error is told as a GPU tells it (``RuntimeError``, ``cuda:0`` where torch said ``meta``):
the student meets the stand-in only through the words "on a GPU", and a GPU is where they will
meet the same error again.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import torch
from torch._subclasses.fake_tensor import (
    DataDependentOutputException,
    DynamicOutputShapeException,
    FakeTensor,
    FakeTensorMode,
    UnsupportedOperatorException,
)

STAND_IN_DEVICE = "meta"  # see the module's docstring: why not a fake "cuda"
# torch's words for tensors of two devices met in one operation ("Expected all tensors to be on
# the same device, but found at least two devices, meta and cpu!", "Tensor on device meta is not
# on the expected device cpu!").
_DEVICES_MIXED = re.compile(r"same device|not on the expected device", re.IGNORECASE)
_STAND_IN_NAMED = re.compile(rf"\b{STAND_IN_DEVICE}\b")


class CannotRunOnStandIn(RuntimeError):
    """The code reads values, which fake tensors do not have (a GPU runs it)."""


def warm_up() -> None:
    """Pay FakeTensorMode's first use (about 2 s of imports and caches, 80 MB) once, in the fork server."""
    _run(lambda x: (x @ x.transpose(-2, -1)).softmax(-1), [torch.empty(2, 3, 3, device="meta")], {}, [])


def call_on_stand_in(function: Callable, args: list, kwargs: dict, modules: list[torch.nn.Module]) -> object:
    """``function(*args, **kwargs)`` on the stand-in GPU, ``modules`` moved there first."""
    return _run(function, args, kwargs, modules)


def _run(function: Callable, args: list, kwargs: dict, modules: list[torch.nn.Module]) -> object:
    mode = FakeTensorMode(allow_non_fake_inputs=True)
    try:
        with mode, torch.no_grad():
            for module in modules:
                if not _on_the_stand_in(module):  # a module already moved there stays as it is
                    module._apply(lambda tensor: torch.empty(tensor.shape, dtype=tensor.dtype, device=STAND_IN_DEVICE))
            args, kwargs = _on_stand_in(args), _on_stand_in(kwargs)
            result = function(*args, **kwargs)
    except (DataDependentOutputException, DynamicOutputShapeException, UnsupportedOperatorException) as error:
        raise CannotRunOnStandIn(f"{type(error).__name__}: {error}") from None
    except RuntimeError as error:
        if not _DEVICES_MIXED.search(str(error)):
            raise
        # the same frames (the student's lines), in the words and type a GPU's error has
        raise RuntimeError(_STAND_IN_NAMED.sub("cuda:0", str(error))).with_traceback(error.__traceback__) from None
    return _brought_back(result)


def _on_the_stand_in(module: torch.nn.Module) -> bool:
    tensors = [*module.parameters(), *module.buffers()]
    return bool(tensors) and all(isinstance(tensor, FakeTensor) for tensor in tensors)


def _on_stand_in(value):
    """The trusted side's meta tensors as fake tensors on the stand-in."""
    if isinstance(value, torch.Tensor) and value.device.type == "meta":
        return torch.empty(value.shape, dtype=value.dtype, device=STAND_IN_DEVICE)
    if type(value) in (list, tuple):
        return type(value)(_on_stand_in(item) for item in value)
    if type(value) is dict:
        return {key: _on_stand_in(item) for key, item in value.items()}
    return value


def _brought_back(value):
    """A result as the trusted side reads it: meta for the stand-in GPU, zeros on the CPU."""
    if isinstance(value, FakeTensor):
        if value.device.type == STAND_IN_DEVICE:
            return torch.empty(value.shape, dtype=value.dtype, device="meta")
        return torch.zeros(value.shape, dtype=value.dtype)
    if type(value) in (list, tuple):
        return type(value)(_brought_back(item) for item in value)
    if type(value) is dict:
        return {key: _brought_back(item) for key, item in value.items()}
    return value
