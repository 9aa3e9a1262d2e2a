"""The trusted side of a probe: what the hidden tests hold instead of the student's code.

A hidden test never touches a student's object. It asks a ``Submission`` to call a function
or a module in the worker, and gets back plain tensors and values (or a ``RemoteObject``
handle for objects that must stay in the worker).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Protocol

import torch

from autograder.findings.finding import Finding, finding
from autograder.probes.consultation import answer_consultation
from autograder.probes.errors import StudentError, WorkerCrashed
from autograder.worker.isolation import Isolation
from autograder.worker.nvidia import CudaContext
from autograder.worker.protocol import Decoder, Encoder, Message, ProtocolError, RemoteRef


class Transport(Protocol):
    """Carries one request to the worker and returns its reply."""

    generation: int  # goes up each time the worker is replaced; old handles become invalid

    def request(self, header: dict, tensors: dict[str, torch.Tensor],
                consult: Callable[[Message], tuple[dict, dict]] | None = None) -> Message: ...


def _place_on_reported_device(tensor: torch.Tensor, device: str, requires_grad: bool) -> torch.Tensor:
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

    def __call__(self, *args: object, **kwargs: object) -> Any:
        return self.method("__call__", *args, **kwargs)

    def call_on_stand_in_gpu(self, *args: object, **kwargs: object) -> Any:
        """Call the module on the worker's stand-in GPU (``autograder.worker.fake_gpu``): meta
        tensors in, meta tensors back for what stayed on it, CPU tensors for what did not. The
        module is moved there first, and stays there (its weights are gone)."""
        return self._submission._request("call", self, method="__call__", stand_in_gpu=True, args=list(args),
                                         kwargs=kwargs)

    def call_twice(self, *args: object) -> tuple[Any, Any]:
        """Call the module twice in one probe: the global random stream runs on between the calls,
        so anything random in forward shows as two results that differ."""
        reply = self._submission._request("call", self, method="__call__", twice=True, args=list(args), kwargs={})
        if not isinstance(reply, list) or len(reply) != 2:
            raise WorkerCrashed(finding("bad_reply"))
        return reply[0], reply[1]

    def torch_functions_called(self, *args: object) -> list[str]:
        """The names of the torch functions one call of the module makes ("dropout", "softmax")."""
        reply = self._submission._request("call", self, method="__call__", record_torch_functions=True,
                                          args=list(args), kwargs={})
        if not isinstance(reply, dict) or not isinstance(reply.get("torch_functions"), list):
            raise WorkerCrashed(finding("bad_reply"))
        return [str(name) for name in reply["torch_functions"] if not str(name).startswith("stage:")]

    def method(self, name: str, *args: object, **kwargs: object) -> Any:
        return self._submission._request("call", self, method=name, args=list(args), kwargs=kwargs)

    def attr(self, name: str) -> Any:
        return self._submission._request("getattr", self, name=name)

    def describe(self) -> dict:
        """Parameters, buffers, children and plain tensor attributes of a module."""
        return self._submission._request("describe", self)

    def load_state_dict(self, state_dict: dict[str, torch.Tensor], strict: bool = True) -> Any:
        return self.method("load_state_dict", dict(state_dict), strict=strict)

    def to(self, *args: object, **kwargs: object) -> RemoteObject:
        return self.method("to", *args, **kwargs)

    def train(self, mode: bool = True) -> RemoteObject:
        return self.method("train", mode)

    def eval(self) -> RemoteObject:
        return self.method("eval")

    def backward(self, args: tuple, grad_output: torch.Tensor) -> dict:
        """Run forward on ``args`` and backward with ``grad_output``; returns output and grads."""
        return self._submission._request("backward", self, method="__call__", args=list(args),
                                         grad_output=grad_output)


@dataclass(frozen=True)
class Call:
    """One call of a name in the student's notebook (a function, or a class built): how many
    arguments it passed by position, and which by keyword (so which it left to their defaults)."""

    name: str
    positional: int
    keywords: frozenset[str]


class Submission:
    """One student's notebook as the hidden tests see it: functions and classes by name."""

    def __init__(self, transport: Transport, defined: set[str], load_problems: list[Finding],
                 isolation: Isolation | None = None, cuda: CudaContext | None = None):
        self._transport = transport
        self._consulted: dict[str, Callable] = {}  # stage name -> the reference answering its calls, while standing in
        self.defined = defined
        self.load_problems = load_problems
        self.isolation = isolation  # what confined the worker (None: no worker, the bench's floor)
        self.cuda = cuda  # the worker's CUDA context, when it made one
        self._calls: list[Call] = []  # the calls made of the notebook's names since take_calls

    def take_calls(self) -> list[Call]:
        """The calls made of the notebook's names (each form once) since the last time they were taken."""
        taken, self._calls = self._calls, []
        return taken

    def has(self, name: str) -> bool:
        return name in self.defined

    @property
    def students_seconds(self) -> float:
        """What this notebook's answers took of the student's time so far (0 without a worker's clock)."""
        return getattr(self._transport, "students_seconds", 0.0)

    def call(self, name: str, *args: object, **kwargs: object) -> Any:
        """Call the student's function ``name``; tensors go in and come back as data."""
        return self._request("call", name, args=list(args), kwargs=kwargs)

    def call_on_stand_in_gpu(self, name: str, *args: object, **kwargs: object) -> Any:
        """Call the student's function ``name`` on the worker's stand-in GPU (as
        ``RemoteObject.call_on_stand_in_gpu``; a "meta" device argument means that GPU)."""
        return self._request("call", name, stand_in_gpu=True, args=list(args), kwargs=kwargs)

    def call_reporting_changes(self, name: str, *args: object, **kwargs: object) -> tuple[Any, list[str]]:
        """Call the student's function ``name``; returns its result and the tensor arguments it
        changed in place (by position, "0", or keyword)."""
        reply = self._request("call", name, report_changed_args=True, args=list(args), kwargs=kwargs)
        if not isinstance(reply, dict) or not isinstance(reply.get("changed_args"), list):
            raise WorkerCrashed(finding("bad_reply"))
        return reply.get("result"), [str(key) for key in reply["changed_args"]]

    def call_twice(self, name: str, *args: object, **kwargs: object) -> tuple[Any, Any]:
        """Call the student's function ``name`` twice in one probe (each probe starts from the same
        seed, so two probes draw the same random numbers; two calls in one draw on)."""
        reply = self._request("call", name, twice=True, args=list(args), kwargs=kwargs)
        if not isinstance(reply, list) or len(reply) != 2:
            raise WorkerCrashed(finding("bad_reply"))
        return reply[0], reply[1]

    def call_recording_torch_functions(self, name: str, *args: object, consulted: bool = False,
                                       **kwargs: object) -> tuple[Any, list[str]]:
        """Call the student's function ``name``; returns its result and the names of the torch
        functions the call made (``torch.softmax`` shows as "softmax"), and with ``consulted`` of
        the consulted stand-ins that answered on the trusted side too ("stage:masked_softmax")."""
        reply = self._request("call", name, record_torch_functions=True, args=list(args), kwargs=kwargs)
        if not isinstance(reply, dict) or not isinstance(reply.get("torch_functions"), list):
            raise WorkerCrashed(finding("bad_reply"))
        names = [str(function) for function in reply["torch_functions"]]
        return reply.get("result"), names if consulted else [name for name in names if not name.startswith("stage:")]

    def count_torch_calls(self, name: str, *args: object, **kwargs: object) -> int:
        """How many torch functions the student's call ``name(*args)`` makes (each call counted,
        however often the same function is called)."""
        reply = self._request("call", name, record_torch_functions=True, args=list(args), kwargs=kwargs)
        if not isinstance(reply, dict) or type(reply.get("torch_calls")) is not int:
            raise WorkerCrashed(finding("bad_reply"))
        return reply["torch_calls"]

    def call_then_fill(self, name: str, args: tuple, fill: dict[int, float], **kwargs: object) -> Any:
        """Call ``name``, then fill the listed arguments in place and return the result.

        If the result shares memory with an argument (a view), the fill shows in it.
        """
        return self._request("call", name, fill_args_after=sorted(fill.items()), args=list(args), kwargs=kwargs)

    def new(self, class_name: str, *args: object, **kwargs: object) -> RemoteObject:
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
        reply = self._request("build_module", class_name, args=list(args), kwargs=dict(kwargs),
                              to_args=[device, dtype], weights=dict(weights))
        module = reply.get("module") if isinstance(reply, dict) else None
        if not isinstance(module, RemoteObject):
            raise StudentError("TypeError", f"{class_name}(...) did not create an object")
        return module, reply.get("description")

    @contextmanager
    def standing_in(self, stand_ins: dict[str, dict], consulted: Mapping[str, Callable] | None = None
                    ) -> Iterator[None]:
        """Within the block, the student's code finds these stand-ins (``autograder.hidden.stand_ins``
        makes them, as data) under the stage names; the student's own definitions come back after.
        ``consulted`` holds the reference function answering each consulted stand-in's calls
        (``answer_consultation``): it stays in this process, and answers only within the block."""
        if self._consulted:
            raise RuntimeError("stand-ins do not nest: a hidden test stood stages in twice")
        self._request("stand_in", "", stand_ins=stand_ins)
        self._consulted = dict(consulted or {})
        try:
            yield
        finally:
            self._consulted = {}
            self._request("restore", "")

    @contextmanager
    def redefined(self, name: str, cell: int, lines: Mapping[int, str]) -> Iterator[None]:
        """Within the block, ``name`` is the student's own definition with each line of cell
        ``cell`` that ``lines`` numbers replaced by its text (``grading.repairs``); their own as it
        was after."""
        self._request("redefine", "", stage=name, cell=cell, lines=[[line, text] for line, text in lines.items()])
        try:
            yield
        finally:
            self._request("undo_redefine", "")

    def stand_in_records(self) -> dict[str, list[dict]]:
        """How each recorder standing in was built so far: {name: [{"args": [...], "kwargs": {...}}]}."""
        records = self._request("stand_in_records", "")
        if not isinstance(records, dict):
            raise WorkerCrashed(finding("bad_reply"))
        return records

    def container(self, class_name: str, parameters: dict[str, torch.Tensor]) -> RemoteObject:
        """A module in the worker named ``class_name``, holding only these parameters by their dotted
        names (see ``autograder.worker.stand_ins.container``)."""
        module = self._request("container", "", class_name=class_name, parameters=parameters)
        if not isinstance(module, RemoteObject):
            raise WorkerCrashed(finding("bad_reply"))
        return module

    def backward(self, name: str, args: tuple, grad_output: torch.Tensor) -> dict:
        """Gradients of the student's function ``name`` with respect to its tensor arguments."""
        return self._request("backward", name, args=list(args), grad_output=grad_output)

    # -- plumbing ---------------------------------------------------------------------
    def _request(self, op: str, target: str | RemoteObject, *, method: str | None = None, name: str | None = None,
                 fill_args_after: list | None = None, report_changed_args: bool = False, stand_in_gpu: bool = False,
                 record_torch_functions: bool = False, twice: bool = False, **values: object) -> Any:
        """One probe: ``op`` on ``target`` (a name in the notebook, or an object in the worker).

        The header's own fields are plain JSON; every value the probe carries (arguments,
        weights, gradients) goes in ``values``, encoded as data.
        """
        if isinstance(target, str) and op in ("call", "build_module"):
            self._record_call(target, values.get("args"), values.get("kwargs"))
        encoder = Encoder()
        header = {
            "op": op,
            "target": {"name": target} if isinstance(target, str) else encoder.encode(self._checked_ref(target)),
            "method": method,
            "name": name,
            "fill_args_after": fill_args_after or [],
            "report_changed_args": report_changed_args,
            "stand_in_gpu": stand_in_gpu,
            "record_torch_functions": record_torch_functions,
            "twice": twice,
            "values": encoder.encode(self._swap_handles(values)),
        }
        consult = functools.partial(answer_consultation, self._consulted) if self._consulted else None
        return self._decode_reply(self._transport.request(header, encoder.tensors, consult))

    def _record_call(self, name: str, args: object, kwargs: object) -> None:
        call = Call(name, len(args) if isinstance(args, list) else 0,
                    frozenset(kwargs) if isinstance(kwargs, dict) else frozenset())
        if call not in self._calls:
            self._calls.append(call)

    def _checked_ref(self, handle: RemoteObject) -> RemoteRef:
        if handle.generation != self._transport.generation:
            raise WorkerCrashed(finding("object_lost"))
        return handle.ref

    def _swap_handles(self, value: Any) -> Any:
        if isinstance(value, RemoteObject):
            return self._checked_ref(value)
        if type(value) in (list, tuple):
            return type(value)(self._swap_handles(item) for item in value)
        if type(value) is dict:
            return {key: self._swap_handles(item) for key, item in value.items()}
        return value

    def _decode_reply(self, reply: Message) -> Any:
        header = reply.header
        if header.get("ok") is not True:
            error = header.get("error")
            if not isinstance(error, dict):
                raise WorkerCrashed(finding("bad_reply"))
            undefined = error.get("undefined")
            raise StudentError(str(error.get("type", "Error")), str(error.get("message", "")),
                               str(error.get("traceback", "")), undefined if isinstance(undefined, str) else None)
        decoder = Decoder(reply.tensors, place_tensor=_place_on_reported_device)
        try:
            return self._wrap_refs(decoder.decode(header.get("value")))
        except ProtocolError as error:  # over a budget: three million values, a shape of 200,000 sizes...
            raise WorkerCrashed(finding("reply_refused", error=str(error))) from None

    def _wrap_refs(self, value: object) -> Any:
        if isinstance(value, RemoteRef):
            return RemoteObject(self, value, self._transport.generation)
        if isinstance(value, list):
            return [self._wrap_refs(item) for item in value]
        if isinstance(value, tuple):
            return tuple(self._wrap_refs(item) for item in value)
        if isinstance(value, dict):
            return {key: self._wrap_refs(item) for key, item in value.items()}
        return value
