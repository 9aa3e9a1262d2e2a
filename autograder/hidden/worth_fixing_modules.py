"""What an attention module does that its notebook asks for and the grader does not charge.

The hidden tests give a student's module the reference's weights by name before they compare
anything (``hidden/modules.py``), so a grade never depends on how the module starts, and query, key
and value projections fused in one layer get their weights stacked (``hidden/parameters.py``).
Both compute what the contract asks, and keep full marks (ARCHITECTURE.md, "Fairness"). Yet each
is worth fixing, and is told in the stage's note that costs nothing ("Not graded, but worth
fixing: ..."), as notebook 1's function stages are (``hidden/worth_fixing.py``):

- parameters created in another order than the contract's (W_query, W_key, W_value, then
  out_proj): under ``torch.manual_seed`` each starts from other random numbers than the book's,
  and the demos print other values than the book does;
- a multi-head module whose heads all start with the same weights (copies of one head): they
  compute the same thing until training pulls them apart;
- the projections fused in one layer: code that reaches the weights by the notebook's names
  (exercise 3.1's copy, the book's loader of GPT-2's weights) does not find them;
- a dropout layer under another name than ``dropout``: the demos read the weights there;
- no buffer where the notebook teaches the mask's buffer (``CausalAttention``): a mask made anew
  in every forward;
- a result of another dtype than its float64 input, with the module in float64.

Gradients are not noted here: a module's parameters are trained, and its gradient tests charge
them.
"""

from __future__ import annotations

import copy

import torch
from torch import nn

from autograder.findings.finding import Failure, Finding, finding
from autograder.hidden import observations
from autograder.hidden.modules import student_module
from autograder.hidden.parameters import parameter_map
from autograder.probes.client import RemoteObject, Submission
from autograder.probes.errors import StudentError
from autograder.student.layer_names import DROPOUT, misnamed_dropout
from autograder.student.reading import creation_order
from autograder.worker.probe_server import PROBE_SEED


def note_module_worth_fixing(student: Submission, reference_class: type, class_name: str, args: tuple,
                             kwargs: dict, x: torch.Tensor, call: str, *, mask_buffer: bool = False) -> None:
    """Note what the student's ``class_name(*args, **kwargs)`` does that is worth fixing and not
    graded: the order it creates its parameters in, projections fused in one layer, and its
    result's dtype on ``x`` (float64) with the module in float64. ``reference_class`` builds the
    contract's module; ``call`` is the construction as the student writes it; ``mask_buffer``:
    the notebook teaches the mask's buffer here (notebook 4 accepts none, with ``is_causal``). It fails only
    where the value tests fail too (a class that cannot be built raises, as there): a failed test
    of 0 points still counts as wrong values and withholds the stage's behaviour checks
    (``grading/dependencies.py``)."""
    with torch.random.fork_rng(devices=[]):
        torch.default_generator.manual_seed(PROBE_SEED)  # what a probe starts from: the contract's draws
        reference = reference_class(*args, **kwargs)
    problems = _construction(student, reference, class_name, args, kwargs)
    problems += _dropout_name(student, reference, class_name, args, kwargs)
    problems += _mask_buffer(student, reference, class_name, args, kwargs) if mask_buffer else []
    problems += _dtype(student, reference, class_name, args, kwargs, x)
    if problems:
        observations.note(finding("note.worth_fixing", call=call, problems=problems))


def _construction(student: Submission, reference: nn.Module, class_name: str, args: tuple,
                  kwargs: dict) -> list[Finding]:
    """Projections fused in one layer, or else parameters created in another order than the
    contract's; nothing when the parameters do not fit the reference's (the value tests say why)."""
    module = student.new(class_name, *args, **kwargs)
    shapes = {name: list(shape) for name, (shape, _) in module.describe().get("parameters", {}).items()}
    if _heads_alike(module, shapes, reference):
        return [finding("worth_fixing.heads_alike")]  # told whatever else its parameters lack
    found = parameter_map(shapes, reference)
    if not found.fits:
        return []
    fused = sorted({slot.name.removesuffix(".weight").removesuffix(".bias") for slot in found.slots.values()
                    if slot.part is not None})
    if fused:
        return [finding("worth_fixing.fused_projections", names=", ".join(fused))]
    return _creation_order(module, reference)


def _heads_alike(module: RemoteObject, shapes: dict[str, list[int]], reference: nn.Module) -> bool:
    """Whether a module of several heads holds them with the same weights from the start (each a
    copy of one head, ``copy.deepcopy``), where the contract's heads are drawn one after the other:
    the module's ``heads.<i>.`` parameters, for as many heads as the reference's, each equal to the
    first head's of the same name."""
    heads = getattr(reference, "heads", None)
    if not isinstance(heads, nn.ModuleList) or len(heads) < 2:
        return False
    names = [name.removeprefix("heads.0.") for name in shapes if name.startswith("heads.0.")]
    if not names or any(f"heads.{index}.{name}" not in shapes for index in range(len(heads)) for name in names):
        return False
    first = {name: module.method("get_parameter", f"heads.0.{name}") for name in names}
    return all(torch.equal(module.method("get_parameter", f"heads.{index}.{name}"), first[name])
               for index in range(1, len(heads)) for name in names)


def _dropout_name(student: Submission, reference: nn.Module, class_name: str, args: tuple,
                  kwargs: dict) -> list[Finding]:
    """A dropout layer under another name than the contract's ``dropout`` (``layer_names``)."""
    if not isinstance(getattr(reference, DROPOUT, None), nn.Dropout):
        return []
    children = student.new(class_name, *args, **kwargs).describe().get("children", {})
    name = misnamed_dropout(children)
    return [finding("worth_fixing.dropout_name", name=name)] if name else []


def _mask_buffer(student: Submission, reference: nn.Module, class_name: str, args: tuple,
                 kwargs: dict) -> list[Finding]:
    """No buffer at all where the contract's module registers its mask as one (any name, any
    meaning, persistent or not, counts: only a mask rebuilt in every forward is told)."""
    if not list(reference.buffers()):
        return []
    described = student.new(class_name, *args, **kwargs).describe()
    if described.get("buffers") or described.get("plain_tensor_attributes"):
        return []  # a mask kept as a plain attribute is charged by the device check, and not noted again
    return [finding("worth_fixing.no_buffer")]


def _creation_order(module: RemoteObject, reference: nn.Module) -> list[Finding]:
    """The order the module's parameters were created in, when it is not the contract's and
    drawing them in that order under the probe's seed gives exactly what the module holds (another
    initialisation, or another stream, names nothing). Only for parts that are matrices or
    layers: a wrapper's heads are the notebook's given CausalAttention, built in the order of its
    list."""
    parts = {name: getattr(reference, name)
             for name in dict.fromkeys(name.split(".")[0] for name, _ in reference.named_parameters())}
    if not creation_order.drawable(parts):
        return []
    held = {name: module.method("get_parameter", name) for name, _ in reference.named_parameters()}
    created = creation_order.created_order(held, parts, PROBE_SEED)
    if created is None or created == tuple(parts):
        return []
    return [finding("worth_fixing.creation_order", actual=", ".join(created), expected=", ".join(parts))]


def _dtype(student: Submission, reference: nn.Module, class_name: str, args: tuple, kwargs: dict,
           x: torch.Tensor) -> list[Finding]:
    """A float result of another dtype than its input, the module in that dtype with the
    reference's weights: in float64 (``x``), a ``.float()`` on the way out or a tensor made in
    float32 that the result takes its dtype from; in float32 (``x`` cast), a ``.double()`` on the
    way (reviews9: float64 out of float64 hides it). One that raises is the value tests' fault."""
    for dtype in (x.dtype, torch.float32):
        try:
            module = student_module(student, copy.deepcopy(reference).to(dtype), class_name, *args, device="cpu",
                                    dtype=dtype, **kwargs)
            result = module(x.to(dtype))
        except (StudentError, Failure):
            return []
        if isinstance(result, torch.Tensor) and result.is_floating_point() and result.dtype != dtype:
            return [finding("worth_fixing.dtype", actual=result.dtype, expected=dtype, argument="x")]
    return []
