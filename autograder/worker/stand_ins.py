"""Stand-ins for graded stages, built from data in the worker (ARCHITECTURE.md, "Fairness").

A stage that calls another graded stage (``MultiHeadAttention`` calls ``split_heads``) is graded
with a stand-in for the called one, so one mistake costs only the stage that holds it. The
worker never holds reference code: a stand-in is made of what the trusted side sends as data.

- A *rearrangement* (``split_heads``, ``merge_heads``: each output element is one input element)
  holds, for each input shape and extra arguments the tests use, the index of the input element
  at each output position; the trusted side computed it by calling the reference on
  ``torch.arange(n)``. A call that the table does not cover runs the student's own function.
- A *recorder* (a class that a stage only configures, as ``gpt2_small_attention`` configures
  ``MultiHeadAttention``) is a module that computes nothing and records the arguments it was
  built with, as plain values, for the trusted side to read.
- *Containers* are plain modules holding given parameters under given names (the modules that
  ``copy_v2_weights_into_v1`` copies between, laid out as the notebook asks, or as the student's
  own ``SelfAttention_v2`` holds the same weights when it holds them all, fused or not).
- A *consulted* function (a pure function stage that another stage calls of the student's own
  accord: a ``simple_self_attention`` calling ``softmax_naive``) sends each call's arguments to the
  trusted side, which answers with the reference's output (and, in a backward pass, its
  gradients): data both ways, asked for only while the stand-in stands in. A call it cannot send
  (an argument that is no plain value or tensor, a tensor on a device the trusted side does not
  compute on, a fake GPU tensor) or that the trusted side declines runs the student's own function.
"""

from __future__ import annotations

from collections.abc import Callable

import torch
from torch._subclasses.fake_tensor import FakeTensor, unset_fake_temporarily

PLAIN_TYPES = (bool, int, float, str, type(None))
MAX_RECORDS = 20  # constructions a recorder keeps: a stage builds its class once
MAX_RECORDED_TEXT = 100  # characters of a recorded string argument


class Rearrangement:
    """A function that rearranges its first argument's elements by a table of indices, under the
    notebook's parameter names; calls outside the table go to ``own`` (the student's function)."""

    def __init__(self, name: str, parameters: list[str], table: list[dict], own):
        self.__name__ = name
        self._parameters = list(parameters)
        self._own = own
        self._indices = {(tuple(entry["shape"]), tuple(entry["args"])): entry["index"] for entry in table}

    def __call__(self, *args, **kwargs):
        key = self._key(args, kwargs)
        index = self._indices.get(key) if key is not None else None
        if index is None:
            return self._own(*args, **kwargs)
        x = args[0] if args else kwargs[self._parameters[0]]
        return x.reshape(-1)[index.to(x.device)]

    def _key(self, args: tuple, kwargs: dict) -> tuple | None:
        """(shape of the tensor, the other arguments), or None for a call the table cannot cover."""
        if len(args) > len(self._parameters) or set(kwargs) - set(self._parameters[len(args):]):
            return None
        bound = dict(zip(self._parameters, args, strict=False)) | kwargs
        if set(bound) != set(self._parameters) or not isinstance(bound[self._parameters[0]], torch.Tensor):
            return None
        others = tuple(bound[name] for name in self._parameters[1:])
        if not all(type(value) in PLAIN_TYPES for value in others):
            return None
        return tuple(bound[self._parameters[0]].shape), others


class Declined(Exception):
    """The trusted side does not answer this call (too large, too many, or not standing in)."""


# What a consulted function needs: ask(name, op, values) -> the trusted side's decoded answer
# (raising Declined, or the reference's own exception type with its message).
Ask = Callable[[str, str, dict], object]


# The consulted stages that answered since a recorder of torch functions last looked: a call
# answered on the trusted side makes none of its torch calls here, so the recorder names the stage
# instead ("stage:masked_softmax"), and a form read off the calls knows what the answer computed.
ANSWERED: list[str] = []


class Consulted:
    """A function whose outputs (and gradients) come from the trusted side, under the notebook's
    parameter names; calls it cannot send go to ``own`` (the student's function)."""

    def __init__(self, name: str, parameters: list[str], own, ask: Ask | None):
        self.__name__ = name
        self._parameters = list(parameters)
        self._own = own
        self._ask = ask

    def __call__(self, *args, **kwargs):
        bound = self._bound(args, kwargs)
        if bound is None:
            return self._own(*args, **kwargs)
        names = [name for name, value in bound.items() if isinstance(value, torch.Tensor)]
        plain = {name: value for name, value in bound.items() if name not in names}
        try:
            output = _ConsultedCall.apply(self, plain, names, *(bound[name] for name in names))
        except Declined:
            return self._own(*args, **kwargs)
        ANSWERED.append(self.__name__)
        return output

    def ask(self, op: str, values: dict):
        return self._ask(self.__name__, op, values)

    def _bound(self, args: tuple, kwargs: dict) -> dict | None:
        """The arguments by parameter name, each a plain value, a CPU or meta tensor or a tensor
        of the stand-in GPU (sent as meta: its shape; the answer comes back there), and a device
        as its name; None for a call that cannot be sent (a tensor of a ``torch.vmap`` or
        ``torch.func`` transform among them, say: it holds no values of its own)."""
        if self._ask is None or len(args) > len(self._parameters) or set(kwargs) - set(self._parameters[len(args):]):
            return None
        bound = dict(zip(self._parameters, args, strict=False)) | kwargs
        for name, value in bound.items():
            if isinstance(value, torch.device):
                value = bound[name] = str(value)
            if isinstance(value, FakeTensor):  # the stand-in GPU's tensors: their shapes are sent, on meta
                if value.device.type != "meta":
                    return None
            elif isinstance(value, torch.Tensor):
                if (type(value) not in (torch.Tensor, torch.nn.Parameter) or value.device.type not in ("cpu", "meta")
                        or torch._C._functorch.is_functorch_wrapped_tensor(value)):  # a vmap or grad transform
                    return None
            elif type(value) not in PLAIN_TYPES or (type(value) is str and value not in ("cpu", "meta")):
                return None
        return bound


def _sendable(tensor: torch.Tensor) -> torch.Tensor:
    """A tensor as a consultation sends it: detached; a fake one (the stand-in GPU's) as a plain
    meta tensor of its shape and dtype."""
    if isinstance(tensor, FakeTensor):
        return torch.empty(tensor.shape, dtype=tensor.dtype, device="meta")
    return tensor.detach()


class _ConsultedCall(torch.autograd.Function):
    """One consulted call, so that gradients flow through it: the trusted side computes the
    reference's vector-Jacobian product in the backward pass."""

    @staticmethod
    def forward(ctx, consulted: Consulted, plain: dict, names: list[str], *tensors: torch.Tensor):
        with unset_fake_temporarily():  # the stand-in GPU's tensors go as plain meta tensors: their shapes
            arguments = plain | {name: _sendable(tensor) for name, tensor in zip(names, tensors, strict=True)}
            output = consulted.ask("forward", {"arguments": arguments})
        if not isinstance(output, torch.Tensor):
            raise Declined
        ctx.consulted, ctx.arguments, ctx.names = consulted, arguments, names
        if not output.is_floating_point():
            ctx.mark_non_differentiable(output)
        return output

    @staticmethod
    def backward(ctx, grad_output: torch.Tensor):
        grads = ctx.consulted.ask("backward", {"arguments": ctx.arguments, "grad_output": grad_output,
                                               "with_respect_to": list(ctx.names)})
        if not isinstance(grads, list) or len(grads) != len(ctx.names):
            raise RuntimeError(f"no gradient came back for {ctx.consulted.__name__}")
        return (None, None, None, *grads)


class Recorder(torch.nn.Module):
    """A module that records the arguments it is built with and computes nothing."""

    records: list[dict]  # each stand-in class has its own list (see ``recorder_class``)

    def __init__(self, *args, **kwargs):
        super().__init__()
        if len(type(self).records) < MAX_RECORDS:
            type(self).records.append({"args": [_plain(value) for value in args],
                                       "kwargs": {str(key)[:MAX_RECORDED_TEXT]: _plain(value)
                                                  for key, value in kwargs.items()}})

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} stands in here only to record how it is built")


def recorder_class(name: str) -> type[Recorder]:
    """A recorder class named like the class it stands in for (the trusted side reads the name)."""
    return type(name, (Recorder,), {"records": []})


def _plain(value):
    """A plain value as it is; anything else as a marker naming its type (it equals no number)."""
    if type(value) is str:
        return value[:MAX_RECORDED_TEXT]
    return value if type(value) in PLAIN_TYPES else f"<{type(value).__name__[:MAX_RECORDED_TEXT]}>"


class Container(torch.nn.Module):
    """Parameters under given names, nothing else."""

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} only holds parameters here")


def container(class_name: str, parameters: dict[str, torch.Tensor]) -> Container:
    """A module named ``class_name`` holding ``parameters`` (name -> tensor) under their dotted
    names, in order: a child holding only a 2-d "weight" (and a "bias") is an ``nn.Linear``, as
    the notebook's projections are; a plain name is an ``nn.Parameter``."""
    module = type(class_name, (Container,), {})()
    children: dict[str, dict[str, torch.Tensor]] = {}
    for name, tensor in parameters.items():
        child, _, rest = name.partition(".")
        if rest:
            children.setdefault(child, {})[rest] = tensor
        else:
            setattr(module, name, torch.nn.Parameter(tensor.detach().clone()))
    for child, held in children.items():
        setattr(module, child, _linear(held) if _is_linear(held) else container(child, held))
    return module


def _is_linear(held: dict[str, torch.Tensor]) -> bool:
    return set(held) in ({"weight"}, {"weight", "bias"}) and held["weight"].dim() == 2


def _linear(held: dict[str, torch.Tensor]) -> torch.nn.Linear:
    weight, bias = held["weight"], held.get("bias")
    layer = torch.nn.Linear(weight.shape[1], weight.shape[0], bias=bias is not None, device=weight.device,
                            dtype=weight.dtype)
    with torch.no_grad():
        layer.weight.copy_(weight)
        if bias is not None:
            layer.bias.copy_(bias)
    return layer
