"""The worker's side of a probe: run one request against the student's definitions.

This module runs inside the sandboxed worker, next to student code. It keeps the objects a
student's code creates (modules, generators) in a table and hands the trusted side numbered
references to them; tensors and plain values go back as data.
"""

from __future__ import annotations

import ast
import builtins
import linecache
import random
import sys
import traceback
import types
from collections.abc import Callable

import torch
from torch.overrides import TorchFunctionMode

from autograder.worker import fake_gpu, stand_ins
from autograder.worker.precision import float32_pinned, pin_float32
from autograder.worker.protocol import Decoder, Encoder, Message, RemoteRef, Seeded

# Only the student's own frames are shown in a traceback, and only this much of it.
MAX_ERROR_CHARS = 4000
# The seed of torch, random and numpy at the start of every probe: a module built in a probe
# draws its initial weights from it (the hidden tests compare them with the reference's).
PROBE_SEED = 0
MAX_RECORDED_FUNCTIONS = 200  # distinct torch functions a recorded call reports


def reset_torch_state(threads: int | None = None) -> None:
    """Undo what student code may have changed globally, so every probe starts the same.

    Covers the settings a notebook plausibly touches (at definition time or in an earlier
    probe): grad mode, anomaly detection, default dtype and device, deterministic algorithms,
    float32 precision (no TF32: ``precision.pin_float32``), denormals, the seeds of torch,
    ``random`` and numpy, and thread count.
    Inference mode cannot be reset here: ``handle`` runs every probe outside it instead.
    """
    torch.set_grad_enabled(True)
    torch.autograd.set_detect_anomaly(False)
    torch.set_default_dtype(torch.float32)
    torch.set_default_device(None)
    if torch.are_deterministic_algorithms_enabled():  # the setter costs ~0.35 ms: only when needed
        torch.use_deterministic_algorithms(False)
    torch.set_flush_denormal(False)
    torch.default_generator.manual_seed(PROBE_SEED)  # torch.manual_seed also probes absent accelerators: slow
    if torch.cuda.is_initialized():
        torch.cuda.manual_seed_all(PROBE_SEED)
    random.seed(PROBE_SEED)
    if "numpy" in sys.modules:
        sys.modules["numpy"].random.seed(PROBE_SEED)
    if not float32_pinned():
        pin_float32()
    if threads is not None:
        torch.set_num_threads(threads)


def _register_source(blocks: list[dict]) -> None:
    """Let tracebacks quote the student's own lines, under the names ``<cell N>``."""
    cells: dict[str, list[str]] = {}
    for block in blocks:
        lines = cells.setdefault(f"<cell {block['cell_index'] + 1}>", [])
        start = block["line"] - 1
        block_lines = [line.rstrip("\r\n") + "\n" for line in block["source"].splitlines()]
        lines.extend("\n" for _ in range(start + len(block_lines) - len(lines)))
        lines[start:start + len(block_lines)] = block_lines
    for filename, lines in cells.items():
        linecache.cache[filename] = (sum(map(len, lines)), None, lines, filename)


# The module a notebook's definitions live in (each notebook's replaces the previous one's).
STUDENT_MODULE = "__student__"


def load_definitions(blocks: list[dict]) -> tuple[dict, list[dict]]:
    """Execute each extracted definition on its own, so one failing block costs only itself.

    The definitions run in the namespace of a real module, registered in ``sys.modules`` as a
    notebook's ``__main__`` is: machinery that looks a class's module up (dataclasses, typing's
    get_type_hints, enum's pickling support) works as it does in Jupyter.

    Returns the namespace and, for each block that raised, its cell, line and error."""
    module = types.ModuleType(STUDENT_MODULE)
    module.__dict__["__builtins__"] = builtins
    sys.modules[STUDENT_MODULE] = module
    namespace = module.__dict__
    problems = []
    _register_source(blocks)
    for block in blocks:
        cell, line = block["cell_index"] + 1, block["line"]
        padded = "\n" * (line - 1) + block["source"]  # keeps the student's line numbers
        try:
            exec(compile(padded, f"<cell {cell}>", "exec"), namespace)
        except BaseException as error:  # noqa: BLE001 - SystemExit and friends cost only this block
            problems.append({"cell": cell, "line": line, "error": describe_exception(error)})
    return namespace, problems


def exception_text(error: BaseException) -> str:
    """``str(error)``, cut short, and never an exception itself (a hostile ``__str__``)."""
    try:
        return str(error)[:MAX_ERROR_CHARS]
    except BaseException:  # noqa: BLE001 - whatever the student's __str__ raises
        return ""


def describe_exception(error: BaseException) -> str:
    return f"{type(error).__name__}: {exception_text(error)}"


def _student_traceback(error: BaseException) -> str:
    """The traceback through the student's cells only (the grader's frames are noise to them)."""
    frames = [(frame, line) for frame, line in traceback.walk_tb(error.__traceback__)
              if frame.f_code.co_filename.startswith("<cell ")]
    summary = traceback.StackSummary.extract(frames, limit=20)
    return "".join(summary.format())[-MAX_ERROR_CHARS:]


_MISSING = object()  # a name the notebook does not define
# Sends a frame (header, tensors) to the trusted side and returns its answer (``worker.main``).
Exchange = Callable[[dict, dict], Message]
# The errors a reference may raise on a consulted call's arguments, raised again as that type.
_CONSULTED_ERRORS = {error.__name__: error for error in (TypeError, ValueError, RuntimeError, IndexError)}


class UndefinedName(NameError):
    """A probe asked for a name the notebook does not define."""

    def __init__(self, name: str):
        super().__init__(f"{name} is not defined in your notebook")
        self.name = name


class ProbeServer:
    """Answers probes: calls, attribute reads, module descriptions and backward passes."""

    def __init__(self, namespace: dict, threads: int | None = None, exchange: Exchange | None = None):
        """``exchange`` sends a frame to the trusted side in the middle of a probe and returns its
        answer (what consulted stand-ins need; without it, they run the student's own function)."""
        self.namespace = namespace
        self.objects: dict[int, object] = {}
        self._threads = threads  # restored before every probe (None: left alone)
        self._stood_in: dict[str, object] = {}  # the student's own definition of each name stood in for
        self._redefined: dict[str, object] = {}  # the student's own definition of each name redefined
        self._exchange = exchange
        self._probe_id: object = None  # the probe being answered, which a consultation names

    # -- value conversion -------------------------------------------------------------
    def _make_ref(self, obj) -> RemoteRef:
        for ref_id, known in self.objects.items():
            if known is obj:
                return RemoteRef(ref_id, type(obj).__name__)
        ref_id = len(self.objects) + 1
        self.objects[ref_id] = obj
        return RemoteRef(ref_id, type(obj).__name__)

    def _resolve_ref(self, ref: RemoteRef):
        if ref.ref_id not in self.objects:
            raise LookupError(f"unknown object reference {ref.ref_id}")
        return self.objects[ref.ref_id]

    @staticmethod
    def _make_generator(seeded: Seeded) -> torch.Generator:
        return torch.Generator(device=seeded.device).manual_seed(seeded.seed)

    @staticmethod
    def _place_tensor(tensor: torch.Tensor, device: str, requires_grad: bool) -> torch.Tensor:
        placed = tensor.to(device)
        return placed.requires_grad_(True) if requires_grad else placed

    def _decoder(self, message: Message) -> Decoder:
        return Decoder(message.tensors, self._resolve_ref, self._make_generator, self._place_tensor)

    # -- requests -------------------------------------------------------------------
    def handle(self, message: Message) -> tuple[dict, dict]:
        """Answer one request; a student exception becomes an error reply, never a crash."""
        encoder = Encoder(make_ref=self._make_ref)
        self._probe_id = message.header.get("probe_id")
        try:
            reset_torch_state(self._threads)
            operation = getattr(self, "_op_" + str(message.header.get("op")), None)
            if operation is None:
                raise ValueError(f"unknown probe {message.header.get('op')!r}")
            # inference_mode(False) also undoes an inference mode that student code entered and
            # never left (``torch.inference_mode().__enter__()``), which set_grad_enabled cannot.
            with torch.inference_mode(False):
                decoder = self._decoder(message)
                values = decoder.decode(message.header.get("values", {"dict": {}}))
                if not isinstance(values, dict):
                    raise ValueError("a probe's values must be a dict")
                value = operation(message.header, decoder, values)
                reply = {"ok": True, "value": encoder.encode(value)}, encoder.tensors
        except BaseException as error:  # noqa: BLE001 - SystemExit from student code is an answer
            reply = {"ok": False, "error": {
                "type": "NameError" if isinstance(error, UndefinedName) else type(error).__name__,
                "message": exception_text(error),
                "traceback": _student_traceback(error),
                "undefined": error.name if isinstance(error, UndefinedName) else None,
            }}, {}
        reply[0]["probe_id"] = message.header.get("probe_id")  # which probe this answers
        return reply

    def _target(self, header: dict, decoder: Decoder):
        target = header["target"]
        if "name" in target:
            name = str(target["name"])
            if name not in self.namespace:
                raise UndefinedName(name)
            return self.namespace[name]
        return decoder.decode(target)

    def _callable(self, header: dict, decoder: Decoder):
        target = self._target(header, decoder)
        method = header.get("method")
        return getattr(target, method) if method else target

    def _op_call(self, header: dict, decoder: Decoder, values: dict):
        function = self._callable(header, decoder)
        args, kwargs = values.get("args", []), values.get("kwargs", {})
        if header.get("record_torch_functions"):
            stand_ins.ANSWERED.clear()
            with _TorchFunctionRecorder() as recorder:
                result = function(*args, **kwargs)
            recorder.names.update(f"stage:{name}" for name in stand_ins.ANSWERED)
            return {"result": result, "torch_functions": sorted(recorder.names)[:MAX_RECORDED_FUNCTIONS],
                    "torch_calls": recorder.calls}
        if header.get("stand_in_gpu"):  # the device checks: on fake tensors, every device mix refused
            target = self._target(header, decoder)
            modules = [value for value in (target, *args, *kwargs.values()) if isinstance(value, torch.nn.Module)]
            return fake_gpu.call_on_stand_in(function, args, kwargs, modules)
        if header.get("twice"):  # two calls in one probe: the global random stream runs on between them
            first = function(*_copies(args), **_copies(kwargs))  # a call that changes its input cannot reach the second
            return [first, function(*args, **kwargs)]
        before = _tensor_arguments(args, kwargs) if header.get("report_changed_args") else None
        result = function(*args, **kwargs)
        for index, fill_value in header.get("fill_args_after", []):
            with torch.no_grad():
                args[index].fill_(fill_value)  # lets the trusted side see whether result is a view
        if before is None:
            return result
        after = _tensor_arguments(args, kwargs, clone=False)
        changed = [key for key, tensor in before.items() if not _same_tensor(tensor, after[key])]
        return {"result": result, "changed_args": changed}

    def _op_backward(self, header: dict, decoder: Decoder, values: dict):
        function = self._callable(header, decoder)
        args = values.get("args", [])
        output = function(*args)
        if not isinstance(output, torch.Tensor):  # a tuple, say: the trusted side reads it as an output
            return {"output": output, "arg_grads": None, "param_grads": None}
        output.backward(values["grad_output"])
        owner = self._target(header, decoder)
        parameters = owner.named_parameters() if isinstance(owner, torch.nn.Module) else []
        return {
            "output": output,
            "arg_grads": [arg.grad if isinstance(arg, torch.Tensor) else None for arg in args],
            "param_grads": {name: param.grad for name, param in parameters},
        }

    def _op_getattr(self, header: dict, decoder: Decoder, values: dict):
        return getattr(self._target(header, decoder), str(header["name"]))

    def _op_describe(self, header: dict, decoder: Decoder, values: dict):
        return describe(self._target(header, decoder))

    def _op_stand_in(self, header: dict, decoder: Decoder, values: dict):
        """Put stand-ins under stage names of the student's namespace, until ``restore`` (see
        ``autograder.worker.stand_ins``): the student's other stages then call them."""
        for name, spec in values["stand_ins"].items():
            name = str(name)
            own = self._stood_in.setdefault(name, self.namespace.get(name, _MISSING))
            if spec["kind"] == "rearrangement":
                self.namespace[name] = stand_ins.Rearrangement(name, spec["parameters"], spec["table"],
                                                               self._own_function(name, own))
            elif spec["kind"] == "recorder":
                self.namespace[name] = stand_ins.recorder_class(name)
            elif spec["kind"] == "consulted":
                self.namespace[name] = stand_ins.Consulted(name, spec["parameters"], self._own_function(name, own),
                                                           self._consult if self._exchange is not None else None)
            else:
                raise ValueError(f"unknown stand-in {spec['kind']!r}")

    def _consult(self, name: str, op: str, values: dict):
        """Ask the trusted side for the reference's answer to one call of a consulted stand-in
        (``stand_ins.Consulted``), in the middle of the probe being answered."""
        encoder = Encoder(make_ref=self._make_ref)
        header = {"consult": name, "op": op, "probe_id": self._probe_id, "values": encoder.encode(values)}
        answer = self._exchange(header, encoder.tensors)
        if answer.header.get("declined"):
            raise stand_ins.Declined
        error = answer.header.get("error")
        if isinstance(error, dict):  # the reference's own error on these arguments, as the stage would raise it
            raise _CONSULTED_ERRORS.get(str(error.get("type")), RuntimeError)(str(error.get("message", "")))
        return self._decoder(answer).decode(answer.header.get("value"))

    @staticmethod
    def _own_function(name: str, own: object):
        if own is not _MISSING:
            return own

        def undefined(*args, **kwargs):
            raise UndefinedName(name)
        return undefined

    def _op_stand_in_records(self, header: dict, decoder: Decoder, values: dict):
        """How each recorder standing in now was built: its arguments, call by call."""
        return {name: list(self.namespace[name].records) for name in self._stood_in
                if isinstance(self.namespace.get(name), type) and issubclass(self.namespace[name], stand_ins.Recorder)}

    def _op_restore(self, header: dict, decoder: Decoder, values: dict):
        """Give every name stood in for its student's definition back."""
        self._give_back(self._stood_in)

    def _give_back(self, own_definitions: dict[str, object]) -> None:
        """Put the student's own definitions back under their names, and forget them."""
        for name, own in own_definitions.items():
            if own is _MISSING:
                self.namespace.pop(name, None)
            else:
                self.namespace[name] = own
        own_definitions.clear()

    def _op_redefine(self, header: dict, decoder: Decoder, values: dict):
        """Run the student's own definition of ``stage`` again, each of its lines ``lines`` lists
        (``[number, text]``) of cell ``cell`` replaced by that text (the trusted side repaired them:
        ``autograder.grading.repairs``), in place of their own, until ``undo_redefine``. Only that
        definition runs, from the cell's source as it was loaded, so that nothing else the cell
        binds changes."""
        name, cell = str(values["stage"]), int(values["cell"])
        filename = f"<cell {cell}>"
        lines = list(linecache.getlines(filename))
        repaired = [(int(line), str(text)) for line, text in values["lines"]]
        for line, text in repaired:
            if not 0 < line <= len(lines):
                raise ValueError(f"{filename} has no line {line}")
            lines[line - 1] = text.rstrip("\n") + "\n"
        tree = ast.parse("".join(lines))
        [definition] = [node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                         ast.ClassDef))
                        and node.name == name and all(node.lineno <= line <= (node.end_lineno or node.lineno)
                                                      for line, _ in repaired)]
        self._redefined.setdefault(name, self.namespace.get(name, _MISSING))
        exec(compile(ast.Module([definition], type_ignores=[]), filename, "exec"), self.namespace)

    def _op_undo_redefine(self, header: dict, decoder: Decoder, values: dict):
        """Give every redefined name its student's own definition back."""
        self._give_back(self._redefined)

    def _op_container(self, header: dict, decoder: Decoder, values: dict):
        """A module holding the given parameters under their names (``stand_ins.container``)."""
        return stand_ins.container(str(values["class_name"]), values["parameters"])

    def _op_build_module(self, header: dict, decoder: Decoder, values: dict):
        """Construct, move and describe a module; give it the weights and call eval() when its
        parameters have exactly their names and shapes. One probe instead of five."""
        module = self._op_call(header, decoder, values)
        module.to(*values["to_args"])
        description = describe(module)
        weights = values["weights"]
        shapes = {name: shape for name, (shape, _) in description.get("parameters", {}).items()}
        if shapes == {name: list(weight.shape) for name, weight in weights.items()}:
            module.load_state_dict(weights, strict=False)
            module.eval()
        return {"module": module, "description": description}


class _TorchFunctionRecorder(TorchFunctionMode):
    """The names of the torch functions a call makes, however spelled (``torch.softmax``,
    ``Tensor.softmax``, ``F.softmax``, ``torch.ops.aten._softmax`` all reach the mode): the
    trusted side checks the "from the formula" stages with them (ARCHITECTURE.md, "Fairness"), and
    how many calls it makes: a count that grows with the number of tokens shows a Python loop over
    them, which the stages that ask for one tensor operation check."""

    def __init__(self):
        super().__init__()
        self.names: set[str] = set()
        self.calls = 0

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.calls += 1
        if len(self.names) < MAX_RECORDED_FUNCTIONS:
            self.names.add(str(getattr(func, "__name__", ""))[:100])
        return func(*args, **(kwargs or {}))


def _tensor_arguments(args: list, kwargs: dict, clone: bool = True) -> dict[str, torch.Tensor]:
    """The tensor arguments of a call by position ("0", "1") or keyword, copied before it runs."""
    found = {str(index): value for index, value in enumerate(args) if isinstance(value, torch.Tensor)}
    found.update({key: value for key, value in kwargs.items() if isinstance(value, torch.Tensor)})
    return {key: value.detach().clone() for key, value in found.items()} if clone else found


def _copies(values):
    """``values`` (a call's arguments, a list or a dict) with each tensor among them copied."""
    if isinstance(values, dict):
        return {key: value.clone() if isinstance(value, torch.Tensor) else value for key, value in values.items()}
    return [value.clone() if isinstance(value, torch.Tensor) else value for value in values]


def _same_tensor(before: torch.Tensor, after: torch.Tensor) -> bool:
    if before.shape != after.shape or before.dtype != after.dtype or before.device != after.device:
        return False
    return before.device.type == "meta" or torch.equal(before, after.detach())


def describe(target) -> dict:
    """What the trusted side may know of an object: for a module, its parameters, buffers and
    children, and the tensors it keeps as plain attributes."""
    if not isinstance(target, torch.nn.Module):
        return {"is_module": False, "type": type(target).__name__}
    known = {id(t) for t in target.parameters()} | {id(t) for t in target.buffers()}
    return {
        "is_module": True,
        "type": type(target).__name__,
        "training": bool(target.training),
        "parameters": {n: [list(p.shape), str(p.device)] for n, p in target.named_parameters()},
        # Parameters made with requires_grad=False: frozen, so training never changes them.
        "frozen_parameters": sorted(n for n, p in target.named_parameters() if not p.requires_grad),
        "buffers": {n: [list(b.shape), str(b.device)] for n, b in target.named_buffers()},
        "children": {n: type(child).__name__ for n, child in target.named_children()},
        "plain_tensor_attributes": {
            n: str(v.device) for module_name, module in target.named_modules()
            for n, v in _plain_tensors(module, module_name, known)
        },
        # Plain tensors made with requires_grad=True: weights meant as parameters, not masks.
        "trainable_plain_attributes": sorted(
            n for module_name, module in target.named_modules()
            for n, v in _plain_tensors(module, module_name, known) if v.requires_grad
        ),
    }


def _plain_tensors(module: torch.nn.Module, prefix: str, known: set[int]):
    """Tensors kept as ordinary attributes: they do not follow ``.to(device)``."""
    for name, value in vars(module).items():
        if isinstance(value, torch.Tensor) and id(value) not in known:
            yield (f"{prefix}.{name}" if prefix else name), value
