"""The trusted side of a probe: what the hidden tests hold instead of the student's code.

A hidden test never touches a student's object. It asks a ``Submission`` to call a function
or a module in the worker, and gets back plain tensors and values (or a ``RemoteObject``
handle for objects that must stay in the worker).
"""

from __future__ import annotations

from typing import Any, Protocol

import torch

from autograder.worker.protocol import Decoder, Encoder, Message, RemoteRef


class StudentError(Exception):
    """The student's code raised an exception while answering a probe."""

    def __init__(self, type_name: str, message: str, student_traceback: str = ""):
        super().__init__(message)
        self.type_name = type_name
        self.message = message
        self.student_traceback = student_traceback


class ProbeTimeout(Exception):
    """The worker did not answer within the time limit and was killed."""


class WorkerCrashed(Exception):
    """The worker died (exit, crash, memory limit) or sent something that is not an answer."""


class Transport(Protocol):
    """Carries one request to the worker and returns its reply."""

    generation: int  # goes up each time the worker is replaced; old handles become invalid

    def request(self, header: dict, tensors: dict[str, torch.Tensor]) -> Message: ...


def _place_on_reported_device(tensor: torch.Tensor, device: str, requires_grad: bool):
    """Put a returned tensor where the worker said it was, so device checks compare truly."""
    target = torch.device(device)
    if target.type == "cpu":
        return tensor
    if target.type == "cuda" and torch.cuda.is_available():
        return tensor.to(target)
    if target.type == "mps" and torch.backends.mps.is_available():
        return tensor.to(target)
    return torch.empty(tensor.shape, dtype=tensor.dtype, device="meta")


class RemoteObject:
    """A handle to an object that lives in the worker, usually the student's ``nn.Module``."""

    def __init__(self, submission: Submission, ref: RemoteRef, generation: int):
        self._submission = submission
        self.ref = ref
        self.generation = generation

    @property
    def type_name(self) -> str:
        return self.ref.type_name

    def __repr__(self) -> str:
        return f"<student {self.type_name}>"

    def __call__(self, *args, **kwargs):
        return self.method("__call__", *args, **kwargs)

    def method(self, name: str, *args, **kwargs):
        return self._submission._call({"ref": self}, name, args, kwargs)

    def attr(self, name: str):
        return self._submission._request({"op": "getattr", "target": {"ref": self}, "name": name})

    def describe(self) -> dict:
        """Parameters, buffers, children and plain tensor attributes of a module."""
        return self._submission._request({"op": "describe", "target": {"ref": self}})

    def load_state_dict(self, state_dict: dict[str, torch.Tensor], strict: bool = True):
        return self.method("load_state_dict", dict(state_dict), strict=strict)

    def to(self, *args, **kwargs) -> RemoteObject:
        return self.method("to", *args, **kwargs)

    def train(self, mode: bool = True) -> RemoteObject:
        return self.method("train", mode)

    def eval(self) -> RemoteObject:
        return self.method("eval")

    def backward(self, args: tuple, grad_output: torch.Tensor) -> dict:
        """Run forward on ``args`` and backward with ``grad_output``; returns output and grads."""
        return self._submission._backward({"ref": self}, "__call__", args, grad_output)


class Submission:
    """One student's notebook as the hidden tests see it: functions and classes by name."""

    def __init__(self, transport: Transport, defined: set[str], load_problems: list[str]):
        self._transport = transport
        self.defined = defined
        self.load_problems = load_problems

    def has(self, name: str) -> bool:
        return name in self.defined

    def call(self, name: str, *args, **kwargs):
        """Call the student's function ``name``; tensors go in and come back as data."""
        return self._call({"name": name}, None, args, kwargs)

    def call_then_fill(self, name: str, args: tuple, fill: dict[int, float], **kwargs):
        """Call ``name``, then fill the listed arguments in place and return the result.

        If the result shares memory with an argument (a view), the fill shows in it.
        """
        return self._call({"name": name}, None, args, kwargs, fill_args_after=sorted(fill.items()))

    def new(self, class_name: str, *args, **kwargs) -> RemoteObject:
        """Construct the student's class ``class_name`` in the worker."""
        result = self.call(class_name, *args, **kwargs)
        if not isinstance(result, RemoteObject):
            raise StudentError("TypeError", f"{class_name}(...) did not create an object")
        return result

    def build_module(self, class_name: str, args: tuple, kwargs: dict, *, device: str, dtype: torch.dtype,
                     weights: dict[str, torch.Tensor]) -> tuple[RemoteObject, dict]:
        """``class_name(*args, **kwargs)`` moved to ``device``/``dtype``, in one round trip.

        The worker also describes the module (as ``RemoteObject.describe``) and, when its
        parameters have exactly the names and shapes of ``weights``, loads them and calls
        ``eval()``. Returns the module and that description, taken before the weights were loaded.
        """
        reply = self._request({"op": "build_module", "target": {"name": class_name}, "args": list(args),
                               "kwargs": dict(kwargs), "to_args": [device, dtype], "weights": dict(weights)})
        module = reply.get("module") if isinstance(reply, dict) else None
        if not isinstance(module, RemoteObject):
            raise StudentError("TypeError", f"{class_name}(...) did not create an object")
        return module, reply.get("description")

    def backward(self, name: str, args: tuple, grad_output: torch.Tensor) -> dict:
        """Gradients of the student's function ``name`` with respect to its tensor arguments."""
        return self._backward({"name": name}, None, args, grad_output)

    # -- plumbing ---------------------------------------------------------------------
    def _call(self, target: dict, method: str | None, args, kwargs, **extra):
        header = {"op": "call", "target": target, "method": method, "args": list(args),
                  "kwargs": dict(kwargs), **extra}
        return self._request(header)

    def _backward(self, target: dict, method: str | None, args, grad_output):
        return self._request({"op": "backward", "target": target, "method": method,
                              "args": list(args), "grad_output": grad_output})

    def _request(self, header: dict):
        encoder = Encoder()
        wire_header = {}
        for key, value in header.items():
            wire_header[key] = self._encode_field(encoder, key, value)
        reply = self._transport.request(wire_header, encoder.tensors)
        return self._decode_reply(reply)

    def _encode_field(self, encoder: Encoder, key: str, value):
        if key == "target":
            if "ref" in value:
                return encoder.encode(self._checked_ref(value["ref"]))
            return value
        if key in ("args", "kwargs", "grad_output", "to_args", "weights"):
            return encoder.encode(self._swap_handles(value))
        return value

    def _checked_ref(self, handle: RemoteObject) -> RemoteRef:
        if handle.generation != self._transport.generation:
            raise WorkerCrashed("this object was lost when the worker was restarted")
        return handle.ref

    def _swap_handles(self, value):
        if isinstance(value, RemoteObject):
            return self._checked_ref(value)
        if type(value) in (list, tuple):
            return type(value)(self._swap_handles(item) for item in value)
        if type(value) is dict:
            return {key: self._swap_handles(item) for key, item in value.items()}
        return value

    def _decode_reply(self, reply: Message):
        header = reply.header
        if header.get("ok") is not True:
            error = header.get("error")
            if not isinstance(error, dict):
                raise WorkerCrashed("the worker sent a reply that is not an answer")
            raise StudentError(str(error.get("type", "Error")), str(error.get("message", "")),
                               str(error.get("traceback", "")))
        decoder = Decoder(reply.tensors, place_tensor=_place_on_reported_device)
        return self._wrap_refs(decoder.decode(header.get("value")))

    def _wrap_refs(self, value) -> Any:
        if isinstance(value, RemoteRef):
            return RemoteObject(self, value, self._transport.generation)
        if isinstance(value, list):
            return [self._wrap_refs(item) for item in value]
        if isinstance(value, tuple):
            return tuple(self._wrap_refs(item) for item in value)
        if isinstance(value, dict):
            return {key: self._wrap_refs(item) for key, item in value.items()}
        return value
