"""Seeded inputs, reference modules and the module checks that every hidden test module shares.

Each test owns its randomness: inputs come from ``torch.Generator().manual_seed(seed)`` and
reference modules are built under ``seed`` without touching the global RNG. A student's
module never keeps its own initialisation: it gets the reference module's parameters.
Failure messages are worded in ``autograder.findings.english``.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable

import torch

from autograder.findings.finding import Failure, Finding, finding
from autograder.hidden import diagnosis, wrong_outputs
from autograder.hidden.compare import (
    TOLERANCES,
    Explainers,
    Mistakes,
    MistakeSource,
    PairedMistakes,
    PairedSource,
    What,
    expect,
    expect_structure,
    expect_tensor,
    matching_mistake,
    shape_text,
)
from autograder.hidden.parameters import ParameterMap, parameter_map, reference_gradient, student_weights
from autograder.probes.client import RemoteObject, Submission
from autograder.probes.errors import StudentError
from autograder.student.reading import slips
from autograder.student.reading.error_hints import GRAD_OUTPUT_SHAPE, device_error, meta_cannot_run, raised_by_stub
from autograder.student.reading.error_message import values_not_named

# A message lists at most this many problems, so that it stays readable.
MAX_LISTED = 3
# The parameters that qkv_bias adds or takes away.
QKV_BIASES = ("W_query.bias", "W_key.bias", "W_value.bias")
# The evidence of a module given the reference's weights where it keeps its own (``with_faults_behind``):
# it then computes the reference's output, or shows the faults that follow.
RIGHT_WITH_REFERENCE_WEIGHTS = "evidence.right_with_reference_weights"
RIGHT_WITHOUT_WHAT_IT_LACKS = "evidence.right_without_what_it_lacks"
RIGHT_WITH_HEADS_ALIKE = "evidence.right_with_heads_alike"
WEIGHTS_PLACED = "evidence.weights_placed"
# The output projection's parameters: a module missing both has no out_proj (the heads' outputs as they are).
OUT_PROJ = frozenset({"out_proj.weight", "out_proj.bias"})


def randn(seed: int, *shape: int, dtype=torch.float32, device="cpu", scale: float = 1.0,
          requires_grad: bool = False) -> torch.Tensor:
    """Normal noise from its own generator; the same seed gives the same numbers in any dtype."""
    generator = torch.Generator().manual_seed(seed)
    values = torch.randn(shape, generator=generator, dtype=torch.float64) * scale
    return values.to(device=device, dtype=dtype).requires_grad_(requires_grad)


def call_text(name: str, *args, **kwargs) -> str:
    """How the student would write the call: CausalAttention(3, 4, context_length=8)."""
    parts = [repr(arg) for arg in args] + [f"{key}={value!r}" for key, value in kwargs.items()]
    return f"{name}({', '.join(parts)})"


# The reference modules of this shard, by how they were built: the same for every student, so
# each is built once per run (GPT-2 small's 2.4 million weights take longer to draw than to copy).
_BUILT: dict[tuple, torch.nn.Module] = {}


def reference_module(cls: type, *args, seed: int, device: str, dtype: torch.dtype,
                     **kwargs) -> torch.nn.Module:
    """``cls(*args, **kwargs)`` built under ``seed``, moved to ``device``/``dtype``, in eval mode: a
    copy of its own for each caller (a test may switch it to training mode, or change a weight)."""
    key = (cls, args, tuple(sorted(kwargs.items())), seed, str(device), dtype)
    if key not in _BUILT:
        with torch.random.fork_rng(devices=[]):
            # Only the CPU generator initialises weights; torch.manual_seed would also queue a
            # seed for every lazily initialised accelerator, with a stack trace each time.
            torch.default_generator.manual_seed(seed)
            module = cls(*args, **kwargs)
        _BUILT[key] = module.to(device=device, dtype=dtype).eval()
    return copy.deepcopy(_BUILT[key])


def load_reference_weights(module: RemoteObject, reference: torch.nn.Module, what: What) -> None:
    """Give the student's module the reference's parameters (buffers stay the student's own).

    Buffers are left alone because a correct mask may be stored in another form (a boolean
    or a "keep" mask, another name or shape) or not at all; the parameters are the contract
    (``autograder.hidden.parameters``).
    """
    found = expect_reference_parameters(module.describe(), reference, what)
    module.load_state_dict(student_weights(found, reference), strict=False)


def reference_weights(reference: torch.nn.Module) -> dict[str, torch.Tensor]:
    """The reference's parameters by name, detached: what a student's module is given."""
    return {name: param.detach() for name, param in reference.named_parameters()}


def expect_reference_parameters(description: dict, reference: torch.nn.Module, what: What) -> ParameterMap:
    """Where the described module holds each reference parameter; fail unless every one has its
    place (by name and shape, or fused) and nothing else is there."""
    found = parameter_map(parameter_shapes(description), reference)
    if found.fits:
        return found
    first, *others = [_parameters_finding(part, mistake, what)
                      for part, mistake in _parameter_faults(found, description)]
    raise Failure(first.with_faults(*others))


def _parameters_finding(found: ParameterMap, mistake: str | None, what: What) -> Finding:
    problems = [finding("problems.wrong_shape", name=name, actual_shape=shape_text(actual),
                        expected_shape=shape_text(expected))
                for name, (actual, expected) in found.wrong_shape.items()]
    problems += [finding("problems.missing", name=name, shape=shape_text(shape))
                 for name, shape in found.missing.items()]
    problems += [finding("problems.extra", name=name) for name in found.extra]
    shown = problems[:MAX_LISTED]
    if len(problems) > MAX_LISTED:
        shown.append(finding("problems.more", count=len(problems) - MAX_LISTED))
    return finding("parameters", mistake, what=what, problems=shown)


def _parameter_faults(found: ParameterMap, description: dict) -> list[tuple[ParameterMap, str | None]]:
    """The parameter problems as independent faults, each with the mistake it shows: query, key
    and value biases missing or extra beside other problems that name a mistake without them
    (heads of the wrong size, which qkv_bias did not reach) are a fault of their own, after the
    others; and a module whose every
    parameter belongs to its heads (a wrapper) and that has parameters of its own besides (a
    projection) has two faults, its heads and its own layers; otherwise one."""
    biases = ParameterMap(missing={name: shape for name, shape in found.missing.items()
                                   if name.endswith(QKV_BIASES)},
                          extra=[name for name in found.extra if name.endswith(QKV_BIASES)])
    rest = ParameterMap(found.slots, {name: shape for name, shape in found.missing.items()
                                      if name not in biases.missing},
                        [name for name in found.extra if name not in biases.extra], found.wrong_shape)
    if (not biases.fits and not rest.fits and _parameter_mistake(found, description) is None
            and _parameter_mistake(rest, description) is not None):
        return [*_parameter_faults(rest, description), (biases, "qkv_bias_ignored")]
    shared = _shared_head(found)
    if shared is not None and found.wrong_shape:  # the one head's sizes are a fault of their own
        listed = len({name.split(".")[1] for name in shared.missing}) + 1
        return [(shared, "shared_head"), (ParameterMap(found.slots, wrong_shape=found.wrong_shape),
                                          _head_size_mistake(found.wrong_shape, listed))]
    return _own_layer_faults(found, description)


def _shared_head(found: ParameterMap) -> ParameterMap | None:
    """The missing parameters of a wrapper whose heads are one module listed num_heads times
    (a module listed twice registers its parameters once): every missing one is a head's other
    than the first, and the first head has its parameters, of the right shapes or not (built with
    d_out // num_heads features: blind23/096); None otherwise."""
    if found.extra or not found.missing or not all(name.startswith("heads.") for name in found.missing):
        return None
    heads = {name.split(".")[1] for name in found.missing}
    if "0" in heads or not any(name.startswith("heads.0.") for name in [*found.slots, *found.wrong_shape]):
        return None
    return ParameterMap(missing=found.missing)


def _own_layer_faults(found: ParameterMap, description: dict) -> list[tuple[ParameterMap, str | None]]:
    """A wrapper's heads and its own layers as two faults (see ``_parameter_faults``); heads kept
    under another attribute's name (``self.attention_heads``) are one fault, their name."""
    if _under_another_attribute(found):
        return [(found, "parameters_misnamed")]
    in_heads = [*found.slots, *found.missing, *found.wrong_shape]
    own = [name for name in found.extra if not name.startswith("heads.")]
    if not in_heads or not all(name.startswith("heads.") for name in in_heads) or not own:
        return [(found, _parameter_mistake(found, description))]
    extras = ParameterMap(extra=own)
    heads = ParameterMap(found.slots, found.missing, [name for name in found.extra if name not in own],
                         found.wrong_shape)
    if heads.fits:
        return [(extras, "wrapper_own_layers")]
    return [(heads, _parameter_mistake(heads, description)), (extras, "wrapper_own_layers")]


def _under_another_attribute(found: ParameterMap) -> bool:
    """Whether the extra parameters are the missing ones under one other first name, one for one
    (``attention_heads.0.W_query.weight`` for ``heads.0.W_query.weight``)."""
    if not found.missing or found.wrong_shape or len(found.extra) != len(found.missing):
        return False
    firsts = {name.split(".", 1)[0] for name in found.extra}
    if len(firsts) != 1 or any("." not in name for name in [*found.extra, *found.missing]):
        return False
    return ({name.split(".", 1)[1] for name in found.extra} == {name.split(".", 1)[1] for name in found.missing}
            and firsts.isdisjoint(name.split(".", 1)[0] for name in found.missing))


def _parameter_mistake(found: ParameterMap, description: dict) -> str | None:
    """The known mistake that explains exactly these parameter problems, if any."""
    missing, extra = set(found.missing), set(found.extra)
    if missing and not extra and missing <= set(description.get("plain_tensor_attributes", ())):
        return "parameters_plain_tensors"  # each missing one is there, under its name, as a plain tensor
    if _as_layers(found, parameter_shapes(description)):
        return "parameters_as_layers"  # each matrix an nn.Linear of the other layout: v2's way, in v1
    if missing and _renamed_heads(missing) is not None and _renamed_heads(missing) == _renamed_heads(extra):
        return "heads_other_container"  # the same heads under other keys: a ModuleDict, say
    if missing and len(missing) == len(extra) and not found.wrong_shape and {
            slips.closest(name, missing) for name in extra} == missing:
        return "parameters_misnamed"  # each extra name a typo (or another case) of a missing one
    if found.wrong_shape:
        if missing or extra:
            return None
        if _swapped(found.wrong_shape):
            return "parameter_transposed"
        if _sized_per_head(found.wrong_shape):
            return "d_out_per_head"
        if any(name.startswith("heads.") for name in found.wrong_shape):
            return _head_size_mistake(found.wrong_shape)
        return "parameter_wrong_size"  # a module's own layer or matrix built with other sizes
    if (missing or extra) and all(name.endswith(QKV_BIASES) for name in missing | extra):
        return "qkv_bias_ignored"
    if missing == {"out_proj.bias"} and not extra:
        return "out_proj_bias"
    if missing == OUT_PROJ and not extra:
        return "missing_out_proj"
    if missing and not extra and all(name.startswith("heads.") for name in missing):
        if not found.slots:
            return "heads_not_module_list"  # no head's parameters at all: the heads are not registered
        heads = {name.split(".")[1] for name in missing}
        return "shared_head" if "0" not in heads else None  # only the first head's: the others are that one
    return None


def parameter_shapes(description: dict) -> dict[str, list[int]]:
    """The shape of each parameter a module's description lists, by name."""
    return {name: list(shape) for name, (shape, _) in description["parameters"].items()}


def _as_layers(found: ParameterMap, shapes: dict[str, list[int]]) -> dict[str, str]:
    """Each missing (d_in, d_out) matrix kept as an nn.Linear of its name instead (``W_query.weight``
    of shape (d_out, d_in), with a bias or without): the missing matrices by their layers' weights;
    empty otherwise."""
    if not found.missing or found.wrong_shape:
        return {}
    weights = {name: f"{name}.weight" for name, shape in found.missing.items()
               if len(shape) == 2 and shapes.get(f"{name}.weight") == list(shape)[::-1]}
    biases = {f"{name}.bias" for name in weights}
    if len(weights) != len(found.missing) or not set(found.extra) <= set(weights.values()) | biases:
        return {}
    return weights


def _renamed_heads(names: set[str]) -> list[str] | None:
    """Heads' parameter names without the key of their head (heads.0.W_query.weight and
    heads.head_0.W_query.weight both give W_query.weight), sorted; None unless all are heads'."""
    parts = [name.split(".", 2) for name in names]
    if not all(len(part) == 3 and part[0] == "heads" for part in parts):
        return None
    return sorted(part[2] for part in parts)


def _swapped(wrong_shape: dict[str, tuple[list[int], list[int]]]) -> bool:
    """Whether every wrong matrix has its two sizes swapped, and every wrong vector is the bias of
    one of them (``nn.Linear(d_out, d_in)``: its bias follows the swapped output size)."""
    matrices = {name: (actual, expected) for name, (actual, expected) in wrong_shape.items() if len(expected) == 2}
    return bool(matrices) and all(actual == expected[::-1] for actual, expected in matrices.values()) and all(
        len(expected) == 1 and f"{name.rsplit('.', 1)[0]}.weight" in matrices
        for name, (_, expected) in wrong_shape.items() if name not in matrices)


def _sized_per_head(wrong_shape: dict[str, tuple[list[int], list[int]]]) -> bool:
    """Whether a multi-head module's own layers (not a wrapper's heads) are all too wide by one
    whole factor where d_out stands: each wrong size the reference's times the same k > 1, every
    other size right (d_out read as one head's size, every projection num_heads times as wide)."""
    if any(name.startswith("heads.") for name in wrong_shape):
        return False
    factors = set()
    for actual, expected in wrong_shape.values():
        if len(actual) != len(expected):
            return False
        for got, wanted in zip(actual, expected, strict=True):
            if got != wanted:
                if wanted == 0 or got % wanted:
                    return False
                factors.add(got // wanted)
    return len(factors) == 1 and factors.pop() > 1


def _head_size_mistake(wrong_shape: dict[str, tuple[list[int], list[int]]], listed: int | None = None) -> str | None:
    """The mistake of a wrapper whose every head has one other number of output features than d_out:
    d_out shared among the heads, as in MultiHeadAttention (``wrapper_head_size``, whose text holds
    for any code that gives them that share), where that share is what the heads have; any other
    size states that each head has d_out features (``wrapper_heads_not_d_out``). ``listed``: how
    many heads the wrapper lists, where one module stands for them all (``_shared_head``)."""
    if not all(name.startswith("heads.") for name in wrong_shape):
        return None
    heads = listed or len({name.split(".")[1] for name in wrong_shape})
    sizes = {actual[0] for actual, _ in wrong_shape.values()}
    if heads < 2 or len(sizes) != 1 or not all(
            actual[1:] == expected[1:] for actual, expected in wrong_shape.values()):
        return None
    weight = next((expected for name, (_, expected) in wrong_shape.items() if name.endswith("weight")), [])
    if len(weight) != 2:
        return None
    return "wrapper_head_size" if sizes.pop() == weight[0] // heads else "wrapper_heads_not_d_out"


def student_module(student: Submission, reference: torch.nn.Module, class_name: str, *args,
                   device: str, dtype: torch.dtype, parameters_placed: bool = False, **kwargs) -> RemoteObject:
    """The student's ``class_name(*args, **kwargs)`` on ``device``/``dtype`` with the reference's
    weights, in eval mode like the reference (built in one probe: modules are built often; a
    module with fused projections takes two more).

    ``parameters_placed``: for a test of another behaviour (the future hidden, dropout, gradients),
    a module whose only parameter fault is how it keeps them gets the reference's weights in their
    place: any fault ``with_reference_weights`` places (swapped, plain, renamed, extra or missing
    parameters), with ``reference`` changed in place to what the module is then compared with (a
    bias it lacks is 0, a missing out_proj the identity). The parameters are charged by the forward tests, which read
    the same module so, and do not hide the behaviour this test reads."""
    module, description = student.build_module(class_name, args, kwargs, device=device, dtype=dtype,
                                               weights=reference_weights(reference))
    shapes = parameter_shapes(description)
    found = parameter_map(shapes, reference)
    try:
        found = expect_reference_parameters(description, reference, call_text(class_name, *args, **kwargs))
    except Failure:
        compared = _place_reference_weights(module, description, found, reference) if parameters_placed else None
        if compared is None:
            raise
        if compared is not reference:
            reference.load_state_dict(compared.state_dict())
        return module
    if not found.by_name:
        module.load_state_dict(student_weights(found, reference), strict=False)
        module.eval()
    return module


def with_reference_weights(student: Submission, reference: torch.nn.Module, class_name: str, *args, device: str,
                           dtype: torch.dtype, **kwargs) -> tuple[RemoteObject, torch.nn.Module] | None:
    """The student's ``class_name(*args, **kwargs)`` given the reference's weights where its only
    parameter fault is how it keeps them (``_place_reference_weights``), and the reference to
    compare it with; None for any other parameter fault. A failure of the parameters then does not
    hide the other faults of the same module (a scale left out, say): ``with_faults_behind``."""
    module, description = student.build_module(class_name, args, kwargs, device=device, dtype=dtype,
                                               weights=reference_weights(reference))
    found = parameter_map(parameter_shapes(description), reference)
    compared = _place_reference_weights(module, description, found, reference)
    return None if compared is None else (module, compared)


def _place_reference_weights(module: RemoteObject, description: dict, found: ParameterMap,
                             reference: torch.nn.Module) -> torch.nn.Module | None:
    """Give ``module`` the reference's weights where its only parameter fault is how it keeps
    them, and return the reference to compare it with (``reference`` itself, or a changed copy);
    None for any other parameter fault. The faults placed so: matrices with their two dims swapped
    (each given the reference's transposed); plain tensors of the reference's shapes kept by the
    module itself (``torch.rand(..., requires_grad=True)``, not ``nn.Parameter``; each set in its
    place); parameters under names that spell the reference's otherwise (a ParameterDict, a
    Sequential around each layer), of its shapes; query, key and value biases the reference lacks
    (each set to 0); one square linear layer the reference lacks (the identity); biases the module
    lacks (compared with a copy of the reference whose biases there are 0); no out_proj at all
    (compared with a copy whose out_proj is the identity: the heads' outputs as they are); layers
    built with other sizes (d_in where d_out belongs; not swapped whole, placed as above): each given the
    reference's weight and bias at the reference's shapes, which the layer reads as ``F.linear``
    does whatever sizes it was built with (reviews9: one slip in ``__init__`` cost the whole stage)."""
    shapes = parameter_shapes(description)
    params = dict(reference.named_parameters())
    compared = reference
    reversed_weights = {name for name, (actual, expected) in found.wrong_shape.items()
                        if name in params and len(actual) == 2 and list(actual) == list(expected)[::-1]}
    # Layers built the other way round (nn.Linear(d_out, d_in)), their biases with them.
    biases_of_reversed = {name for name in found.wrong_shape
                          if name.endswith(".bias") and name.removesuffix(".bias") + ".weight" in reversed_weights}
    swapped = not (found.missing or found.extra) and bool(reversed_weights) and set(found.wrong_shape) == (
        reversed_weights | biases_of_reversed)
    # Matrices swapped whole are placed transposed (read by hand, ``x @ layer.weight``, they are
    # consistent); a layer of another size takes the reference's own.
    in_layers = _layers_sized_otherwise(found, description, params)
    renamed = _renamed(found, shapes)
    only_missing = found.missing and not (found.extra or found.wrong_shape)
    if not (found.missing or found.extra or found.wrong_shape):
        pass  # every weight found by name and given already (built with other sizes: ``faults_behind_parameters``)
    elif in_layers:
        _given_reference_shapes(module, found, reference)
    elif swapped:
        transposed = {name: params[name].detach().T.contiguous() for name in reversed_weights}
        module.load_state_dict({**student_weights(found, reference), **transposed}, strict=False)
        for name in biases_of_reversed:  # read by hand (x @ layer.weight), a layer's bias is the reference's
            _set_reference_parameter(module, name, params)
        features = _input_features(found, params)
        if features is not None and not _runs(module, features, params):
            # Called as layers (``self.W_query(x)``), layers built the other way round read the
            # reference's weights at the reference's shapes, as a layer of another size does (reviews11).
            _given_reference_shapes(module, found, reference)
    elif renamed:
        moved = {theirs: params[ours].detach() for ours, theirs in renamed.items()}
        module.load_state_dict({**student_weights(found, reference), **moved}, strict=False)
    elif layers := _as_layers(found, shapes):  # each matrix a layer: its weight the matrix transposed, no bias
        placed = {weight: params[name].detach().T.contiguous() for name, weight in layers.items()}
        like = params[next(iter(layers))]
        zeros = {name: torch.zeros(shapes[name], dtype=like.dtype, device=like.device)
                 for name in found.extra if name.endswith(".bias")}
        module.load_state_dict({**student_weights(found, reference), **placed, **zeros}, strict=False)
    elif _only_extra_qkv_biases(found):  # biases the reference lacks: each one 0 adds nothing
        like = next(iter(params.values()))  # a wrapper's reference keeps its layers in its heads
        zeros = {name: torch.zeros(shapes[name], dtype=like.dtype, device=like.device) for name in found.extra}
        module.load_state_dict({**student_weights(found, reference), **zeros}, strict=False)
    elif _only_extra_square_layer(found, shapes):  # a layer the reference lacks: as the identity it adds nothing
        like = next(iter(params.values()))
        identity = {name: torch.eye(shapes[name][0], dtype=like.dtype, device=like.device) if len(shapes[name]) == 2
                    else torch.zeros(shapes[name], dtype=like.dtype, device=like.device) for name in found.extra}
        module.load_state_dict({**student_weights(found, reference), **identity}, strict=False)
    elif only_missing and (all(name.endswith(".bias") for name in found.missing) or set(found.missing) == OUT_PROJ):
        compared = copy.deepcopy(reference)
        with torch.no_grad():
            for name in found.missing:
                parameter = compared.get_parameter(name)
                parameter.copy_(torch.eye(*parameter.shape) if parameter.dim() == 2 else torch.zeros_like(parameter))
        module.load_state_dict(student_weights(found, reference), strict=False)
    else:
        nested = any("." in name for name in found.missing)  # a head's: set on the head, not here
        if nested or _parameter_mistake(found, description) != "parameters_plain_tensors":
            return None
        plain = {name: params[name].detach() for name in found.missing}
        if any(not isinstance(kept := module.attr(name), torch.Tensor) or kept.shape != value.shape
               for name, value in plain.items()):
            return None
        module.load_state_dict(student_weights(found, reference), strict=False)
        for name, value in plain.items():
            module.method("__setattr__", name, value)
    module.eval()
    return compared


def _given_reference_shapes(module: RemoteObject, found: ParameterMap, reference: torch.nn.Module) -> None:
    """Each parameter of the wrong shape replaced by the reference's own, at the reference's shape (a
    layer reads its weight as ``F.linear`` does, whatever sizes it was built with); the others given."""
    params = dict(reference.named_parameters())
    module.load_state_dict(student_weights(found, reference), strict=False)
    for name in found.wrong_shape:
        _set_reference_parameter(module, name, params)


def _set_reference_parameter(module: RemoteObject, name: str, params: dict[str, torch.Tensor]) -> None:
    """The module's parameter ``name`` replaced by the reference's, at the reference's shape."""
    owner_name, attribute = name.rsplit(".", 1)
    owner = _attribute_at(module, owner_name)
    owner.method("__delattr__", attribute)  # a parameter's shape is fixed: the reference's is set in its place
    owner.method("__setattr__", attribute, params[name].detach().clone())


def _input_features(found: ParameterMap, params: dict[str, torch.Tensor]) -> int | None:
    """The features of the module's input, read off the reference's query layer, where every
    parameter of the wrong shape is a linear layer's; None otherwise."""
    query = next((name for name in params if name.endswith("W_query.weight")), None)
    if query is None or not all(name.endswith((".weight", ".bias")) for name in found.wrong_shape):
        return None
    return int(params[query].shape[1])


def _runs(module: RemoteObject, features: int, params: dict[str, torch.Tensor]) -> bool:
    """Whether the module computes anything on an input of ``features`` features, one sequence or
    a batch of one (what it computes is for the tests to judge)."""
    like = next(iter(params.values()))
    for shape in ((2, features), (1, 2, features)):
        try:
            module(torch.zeros(shape, dtype=like.dtype, device=like.device))
            return True
        except StudentError:
            continue
    return False


def _layers_sized_otherwise(found: ParameterMap, description: dict, params: dict[str, torch.Tensor]) -> bool:
    """Whether the only parameter fault is linear layers' sizes (each wrong parameter a layer's
    weight or bias, of as many dims as the reference's), neither swapped whole nor explained by a
    mistake of the heads' sizes (those are placed, or priced, as what they are)."""
    if _parameter_mistake(found, description) != "parameter_wrong_size":
        return False
    return all(name in params and name.endswith((".weight", ".bias")) and len(actual) == len(expected)
               for name, (actual, expected) in found.wrong_shape.items())


def _renamed(found: ParameterMap, shapes: dict[str, list[int]]) -> dict[str, str]:
    """The reference's missing parameters by the student's extra ones, when each extra name reads
    as a spelling of one missing name (``W.query`` of a ParameterDict, ``W_query.0.weight`` of a
    Sequential around a layer, another case), one to one, with its shape: the same parameters
    under other names. Empty otherwise: weights given by order or shape alone could land in the
    wrong layer, and the faults read behind them would be the grader's."""
    if not found.missing or found.wrong_shape or len(found.extra) != len(found.missing):
        return {}
    pairs = {slips.closest(theirs, found.missing): theirs for theirs in found.extra}
    if set(pairs) != set(found.missing) or any(shapes[theirs] != found.missing[ours] for ours, theirs in pairs.items()):
        return {}
    return pairs  # type: ignore[return-value]  # every key is a missing name, checked above


def faults_behind_parameters(failure: Failure, student: Submission, reference_class: type, class_name: str,
                             args: tuple, kwargs: dict, *, seed: int, device: str, dtype: torch.dtype,
                             check: Callable[[torch.nn.Module, RemoteObject], None],
                             built_with: tuple | None = None) -> Failure:
    """``failure`` of a module's parameters, with what ``check(reference, module)`` finds once the
    module has the reference's weights where it keeps its own (``with_reference_weights``): the
    forward's own faults (a scale, a mask), or the evidence that there are none. ``built_with``:
    the arguments the student's module is built with instead of ``args``, where the named mistake
    says which sizes give it the reference's parameters (a wrapper that splits d_out among its
    heads, built with num_heads times d_out). ``failure`` itself when the weights cannot be placed."""
    ref = reference_module(reference_class, *args, seed=seed, device=device, dtype=dtype, **kwargs)
    placed = with_reference_weights(student, ref, class_name, *(built_with or args), device=device, dtype=dtype,
                                    **kwargs)
    if placed is None:
        return failure
    module, compared = placed
    # A module that lacks parameters (biases, out_proj) is compared with the reference without them.
    right = RIGHT_WITH_REFERENCE_WEIGHTS if compared is ref else RIGHT_WITHOUT_WHAT_IT_LACKS
    return with_faults_behind(failure, lambda: check(compared, module), right)


def with_faults_behind(failure: Failure, check: Callable[[], None],
                       right: str = RIGHT_WITH_REFERENCE_WEIGHTS) -> Failure:
    """``failure`` followed by each fault ``check()`` finds (a check of what the failure would hide),
    with the evidence that the weights were placed (partial credit then charges the parameters as
    one behaviour, beside what the faults that follow show); when the check passes, ``failure``
    with the evidence that it is the only fault (``right``: what the check compared with); itself
    when the check cannot run."""
    try:
        check()
    except Failure as behind:
        return Failure(failure.finding.with_notes(finding(WEIGHTS_PLACED)).with_faults(*behind.finding.all_faults()))
    except StudentError:
        return failure
    return Failure(failure.finding.with_notes(finding(right)))


def _only_extra_square_layer(found: ParameterMap, shapes: dict[str, list[int]]) -> bool:
    """Whether the only parameters out of place are one linear layer the reference lacks, from n
    features to n (a projection after a wrapper's heads, say): its square weight, and its bias."""
    if not found.extra or found.missing or found.wrong_shape:
        return False
    layers = {name.rsplit(".", 1)[0] for name in found.extra}
    if len(layers) != 1 or "." not in next(iter(found.extra)):
        return False
    layer = layers.pop()
    weight, bias = shapes.get(f"{layer}.weight"), shapes.get(f"{layer}.bias")
    return (weight is not None and len(weight) == 2 and weight[0] == weight[1]
            and set(found.extra) <= {f"{layer}.weight", f"{layer}.bias"} and bias in (None, weight[:1]))


def _only_extra_qkv_biases(found: ParameterMap) -> bool:
    """Whether the only parameters out of place are biases of the query, key and value projections
    that the reference lacks (qkv_bias ignored, the bias always on)."""
    return bool(found.extra) and not (found.missing or found.wrong_shape) and all(
        name.endswith(QKV_BIASES) for name in found.extra)


def module_pair(student: Submission, reference, class_name: str, *args, seed: int, device: str,
                dtype: torch.dtype, parameters_placed: bool = False,
                **kwargs) -> tuple[torch.nn.Module, RemoteObject]:
    """The reference's ``class_name(*args, **kwargs)`` built under ``seed``, and the student's with
    the same weights: both on ``device``/``dtype``, in eval mode (``parameters_placed`` as in
    ``student_module``)."""
    ref = reference_module(getattr(reference, class_name), *args, seed=seed, device=device, dtype=dtype,
                           **kwargs)
    return ref, student_module(student, ref, class_name, *args, device=device, dtype=dtype,
                               parameters_placed=parameters_placed, **kwargs)


def module_case(student: Submission, reference, class_name: str, args: tuple, *, qkv_bias: bool, seed: int,
                batch: int, num_tokens: int, device: str, dtype: torch.dtype, parameters_placed: bool = False,
                own_leak: bool = False) -> tuple[torch.nn.Module, RemoteObject, torch.Tensor, str]:
    """One case of an attention module: the reference's and the student's ``class_name(*args,
    qkv_bias=...)`` with the same weights, an input x of shape (batch, num_tokens, d_in) where
    ``d_in = args[0]``, and the call as the student would write it (``parameters_placed`` as in
    ``student_module``). ``own_leak``: where the reference's weights cannot be placed, a leak of
    the future that the module shows with its own weights is told beside the parameters' fault."""
    x = randn(seed + 100, batch, num_tokens, args[0], dtype=dtype, device=device)
    what = call_text(class_name, *args, qkv_bias=qkv_bias)
    try:
        ref, module = module_pair(student, reference, class_name, *args, qkv_bias=qkv_bias, seed=seed, device=device,
                                  dtype=dtype, parameters_placed=parameters_placed)
    except Failure as failure:
        leak = own_weights_leak(student, class_name, args, {"qkv_bias": qkv_bias}, x, seed + 200, what) \
            if own_leak else None
        if leak is None:
            raise
        raise Failure(failure.finding.with_faults(leak)) from None
    return ref, module, x, what


def own_weights_leak(student: Submission, class_name: str, args: tuple, kwargs: dict, x: torch.Tensor, seed: int,
                     what: What) -> Finding | None:
    """A leak of the future that the student's module shows with the weights it made itself: the
    probe needs no reference, only the module's own outputs before and after the later tokens
    change (for a module whose parameters the reference's cannot replace: another module inside,
    extra layers). None when it leaks nothing, or its outputs cannot be compared."""
    try:
        module, _ = student.build_module(class_name, args, kwargs, device=x.device.type, dtype=x.dtype, weights={})
        module.eval()
        before = module(x)
        rtol, atol = TOLERANCES[x.dtype]
        for t in range(x.shape[1] - 1):
            changed = x.clone()
            changed[:, t + 1:] = randn(seed + t, x.shape[0], x.shape[1] - t - 1, x.shape[-1], dtype=x.dtype,
                                       device=x.device)
            after = module(changed)
            if not isinstance(before, torch.Tensor) or not isinstance(after, torch.Tensor) \
                    or after.shape != before.shape:
                return None
            if bool(changed_entries(after[:, : t + 1], before[:, : t + 1], rtol=rtol, atol=atol).any()):
                return finding("future_leak", "future_leak", what=finding("what.own_weights", what=what), position=t)
    except (Failure, StudentError):
        return None
    return None


def expect_same_output(module: RemoteObject, reference: torch.nn.Module, x: torch.Tensor, what: What, *,
                       expected: torch.Tensor | None = None, mistakes: MistakeSource = None,
                       explain: Explainers = None, together: PairedSource = None) -> None:
    """The student's module gives the reference's output on ``x`` (``expected``, when given, instead
    of computing it); ``mistakes``, ``explain`` and ``together`` as in ``expect_tensor``."""
    if expected is None:
        with torch.no_grad():
            expected = reference(x)
    given = explain

    def explainers() -> list:
        return [random_between_calls(module, x), *((given() if callable(given) else given) or [])]

    expect_tensor(module(x), expected, finding("what.on_x", what=what, shape=shape_text(x.shape)), mistakes=mistakes,
                  explain=explainers, together=together)


# What torch calls a dropout by (F.dropout, nn.Dropout, torch.dropout and their in-place forms).
_DROPOUT_FUNCTIONS = frozenset({"dropout", "dropout_", "feature_dropout", "alpha_dropout"})


def random_between_calls(module: RemoteObject, x: torch.Tensor) -> diagnosis.Explainer:
    """An explainer of a module's wrong output in eval mode: called twice on ``x`` in one probe, it
    returns other values the second time, so something random runs in forward where nothing may
    (blind26/044: ``F.dropout(weights, p=0.1)``, whose ``training`` is True unless given). It names
    ``dropout_in_eval`` where the call runs one of torch's dropouts, and nothing otherwise."""

    def explainer(actual: torch.Tensor, expected: torch.Tensor) -> diagnosis.Explanation | None:
        try:
            if module.attr("training") is not False:
                return None
            first, second = module.call_twice(x)
            called = module.torch_functions_called(x)
        except StudentError:  # a call that raises is the value test's to tell, not this reading's
            return None
        if not (isinstance(first, torch.Tensor) and isinstance(second, torch.Tensor)) or first.shape != second.shape:
            return None
        if first.device.type == "meta" or torch.allclose(first.detach().cpu(), second.detach().cpu(), rtol=0, atol=0,
                                                         equal_nan=True):
            return None  # NaN where the first call had NaN is the same answer (blind27/118)
        dropout = bool(_DROPOUT_FUNCTIONS & set(called))
        return diagnosis.Explanation(finding("evidence.random_between_calls"), "dropout_in_eval" if dropout else None)

    return explainer


def attention_divisor(reference: torch.nn.Module, x: torch.Tensor, sizes: dict[str, int], *, causal: bool = False,
                      heads: tuple | None = None, separate: bool = False) -> diagnosis.Explainer:
    """An explainer of an attention module's wrong output: the scores divided by another number
    than sqrt(d_k), fitted with the reference's weights (``heads`` as in
    ``wrong_outputs.attention_computation``), read as the call's ``sizes``, alone or beside one
    fault of the module's structure (``wrong_outputs.structural_faults``); ``separate``: a fault
    of its own beside the others (``diagnosis.Explanation.separate``), fitted alone."""
    key = reference.W_key
    d_out = key.out_features if isinstance(key, torch.nn.Linear) else key.shape[-1]
    d_k = d_out // (heads[0] if heads else 1)
    sizes = {**sizes, ("head_dim" if heads else "d_k"): d_k}
    right, right_text = math.sqrt(d_k), f"sqrt({'head_dim' if heads else 'd_k'}) = {math.sqrt(d_k):.4g}"
    mistake = diagnosis.scaling_mistake(d_k, sizes)
    alone = diagnosis.scores_divisor(wrong_outputs.divisor_attention(reference, x, causal=causal, heads=heads),
                                     right, right_text, sizes, mistake, separate=separate)
    if separate:
        return alone
    beside = diagnosis.scores_divisor_beside(wrong_outputs.attention_computation(reference, x, causal=causal,
                                                                                 heads=heads),
                                             wrong_outputs.structural_faults(reference, x, heads=heads),
                                             right, right_text, sizes, mistake)

    def explainer(actual: torch.Tensor, expected: torch.Tensor) -> diagnosis.Explanation | list | None:
        return alone(actual, expected) or beside(actual, expected)

    return explainer


def attention_scale_and_mask(reference: torch.nn.Module, x: torch.Tensor, sizes: dict[str, int], *,
                             heads: tuple | None = None) -> list[diagnosis.Explainer]:
    """The scale of a causal attention module's output, read with the mask and, as a fault of its
    own, without it: an output that sees the future and divides its scores by another number has
    two faults, and each is named (the future's own explainer names the first)."""
    return [attention_divisor(reference, x, sizes, causal=True, heads=heads),
            attention_divisor(reference, x, sizes, causal=False, heads=heads, separate=True)]


def expect_same_gradients(module: RemoteObject, reference: torch.nn.Module, x: torch.Tensor,
                          seed: int, what: What, *, mistakes: MistakeSource = None,
                          together: PairedSource = None, explain: Explainers = None) -> None:
    """Output and gradients (input and every parameter) of one backward pass match; a wrong output
    is read with ``mistakes``, ``explain`` and ``together`` (as in ``expect_tensor``), so that the
    faults the forward test names are named here too (a scale fitted on the output), and cost their
    share once."""
    module.train()
    reference.train()
    x_reference = x.detach().clone().requires_grad_(True)
    output = reference(x_reference)
    grad_output = randn(seed, *output.shape, dtype=output.dtype, device=output.device)
    output.backward(grad_output)
    try:
        result = module.backward((x.detach().clone().requires_grad_(True),), grad_output)
    except StudentError as error:
        if not GRAD_OUTPUT_SHAPE.search(error.message):
            raise
        # Autograd refused the reference's gradient for an output of another shape: no line of the
        # student's raised it. The output says why, as in the forward test.
        expect_tensor(module(x.detach().clone()), output.detach(), finding("what.training", what=what),
                      mistakes=mistakes, explain=explain, together=together)
        raise
    if result["param_grads"] is None:  # it returned no tensor, so nothing was differentiated: the output says what
        expect_tensor(result["output"], output.detach(), finding("what.training", what=what), mistakes=mistakes,
                      explain=explain, together=together)
        return
    description = module.describe()
    found = parameter_map(parameter_shapes(description), reference)
    try:
        try:
            expect_tensor(result["output"], output.detach(), finding("what.training", what=what), mistakes=mistakes,
                          explain=explain, together=together)
        except Failure as failure:
            # A parameter made with requires_grad=False is a fault of its own, whatever the output's
            # faults (one that a wrong output merely leaves unused is not: that is the output's fault).
            names = _parameters_without_gradient(found, reference, result["param_grads"],
                                                 among=set(description.get("frozen_parameters", ())))
            names += [name for name in _used_without_gradient(module, found, reference, result["param_grads"], x)
                      if name not in names]
            made_frozen = _without_gradient(names, what)
            if made_frozen is None:
                raise
            raise Failure(failure.finding.with_faults(made_frozen)) from None
        frozen = _without_gradient(_parameters_without_gradient(found, reference, result["param_grads"]), what)
        if frozen is not None:
            # Nothing was returned wrongly, so it is not told as a missing return; and it is told
            # before the input's gradient, which it changes too (scores detached).
            raise Failure(frozen)
        expect_tensor(result["arg_grads"][0], x_reference.grad, finding("what.input_gradient", what=what))
        for name, param in reference.named_parameters():
            if name not in found.slots:
                continue  # kept otherwise (``student_module``'s parameters_placed): the forward tests charge it
            expect_tensor(reference_gradient(found, name, result["param_grads"]), param.grad,
                          finding("what.parameter_gradient", what=what, name=name))
    except Failure as failure:
        changed = _parameter_changed_by_forward(module, found, reference)
        if changed is not None:
            raise Failure(failure.finding.with_mistake("forward_changes_parameters").with_notes(
                finding("evidence.parameter_changed", name=changed))) from None
        if failure.finding.mistake is None and _right_in_eval_only(module, reference, x):
            raise Failure(failure.finding.with_mistake("dropout_not_asked").with_notes(
                finding("evidence.right_in_eval"))) from None
        raise


def _right_in_eval_only(module: RemoteObject, reference: torch.nn.Module, x: torch.Tensor) -> bool:
    """Whether a module whose reference has no dropout gives the reference's output once in eval
    mode (its training-mode output being wrong): something of its own acts only in training."""
    if any(isinstance(layer, torch.nn.Dropout) for layer in reference.modules()):
        return False  # its dropout's faults are read by the dropout tests
    module.eval()
    reference.eval()
    try:
        with torch.no_grad():
            output, expected = module(x), reference(x)
        rtol, atol = TOLERANCES[x.dtype]
        return (isinstance(output, torch.Tensor) and output.shape == expected.shape
                and bool(torch.allclose(output.detach().to(expected.device), expected, rtol=rtol, atol=atol)))
    except StudentError:
        return False
    finally:
        module.train()
        reference.train()


def _parameters_without_gradient(found: ParameterMap, reference: torch.nn.Module, param_grads: dict,
                                 among: set[str] | None = None) -> list[str]:
    """The student's names of the reference's parameters that its module holds but that got no
    gradient from a backward pass (frozen, or used through .data or .detach() in forward), of its
    parameters ``among`` only when given."""
    names = [slot.name for name, _ in reference.named_parameters()
             if (slot := found.slots.get(name)) is not None and (among is None or slot.name in among)
             and reference_gradient(found, name, param_grads) is None]
    return list(dict.fromkeys(names))


def _without_gradient(names: list[str], what: What) -> Finding | None:
    """The finding for the parameters ``names`` that got no gradient: each named (None for none)."""
    if not names:
        return None
    if len(names) == 1:
        return finding("no_parameter_gradient", "parameter_gets_no_gradient", what=what, name=names[0])
    return finding("no_parameter_gradients", "parameter_gets_no_gradient", what=what, names=", ".join(names))


def _used_without_gradient(module: RemoteObject, found: ParameterMap, reference: torch.nn.Module,
                           param_grads: dict, x: torch.Tensor) -> list[str]:
    """The student's names of the parameters that got no gradient though the module's output
    changes with them (used under ``torch.no_grad()`` or through ``.detach()``): a fault of its own
    beside a wrong output, where a parameter the wrong output merely leaves unused is not; none
    where the module cannot be probed."""
    without = [name for name, _ in reference.named_parameters()
               if (slot := found.slots.get(name)) is not None and slot.part is None
               and reference_gradient(found, name, param_grads) is None]
    if not without:
        return []
    used = []
    try:
        module.eval()
        with torch.no_grad():
            before = module(x.detach().clone())
        for name in without:
            slot_name = found.slots[name].name
            value = _attribute_at(module, slot_name)
            if not isinstance(value, torch.Tensor):
                continue
            module.load_state_dict({slot_name: value * 1.5 + 0.25}, strict=False)
            try:
                with torch.no_grad():
                    after = module(x.detach().clone())
            finally:
                module.load_state_dict({slot_name: value}, strict=False)
            if isinstance(after, torch.Tensor) and isinstance(before, torch.Tensor) and \
                    after.shape == before.shape and not torch.allclose(after, before, equal_nan=True):
                used.append(slot_name)
    except (StudentError, RuntimeError):
        return []
    finally:
        module.train()
    return used


def _attribute_at(module: RemoteObject, dotted: str):
    """The value the student's module holds under a dotted name (``W_query.weight``)."""
    owner = module
    *path, last = dotted.split(".")
    for step in path:
        owner = owner.attr(step)
    return owner.attr(last)


def _parameter_changed_by_forward(module: RemoteObject, found: ParameterMap, reference: torch.nn.Module) -> str | None:
    """The name of a parameter of the student's module that no longer holds the reference's
    value it was given: its forward pass changed it (no optimiser step ran). None when every one
    read back is unchanged."""
    for name, param in reference.named_parameters():
        slot = found.slots.get(name)
        if slot is None or slot.part is not None:
            continue  # not there, or fused with others: not read back
        try:
            value = _attribute_at(module, slot.name)
        except StudentError:
            continue
        if isinstance(value, torch.Tensor) and value.shape == param.shape and not torch.allclose(
                value.detach().cpu().double(), param.detach().cpu().double(), rtol=1e-6, atol=1e-9):
            return slot.name
    return None


def expect_value_error(call: Callable[[], object], wrong_error: Callable[[str], Finding], no_error: Finding,
                       valid: Callable[[], object]) -> str:
    """``call()`` raises a ValueError, whose message is returned; ``wrong_error(type_name)`` says
    what another exception is, ``no_error`` what a result is. A stub's NotImplementedError is left
    to say "not implemented"; and code that raises on ``valid()`` too (the same call with
    arguments it must accept) fails whatever it is given (a class that cannot be built): its own
    exception says why, not "raise a ValueError"."""
    try:
        call()
    except StudentError as error:
        if not_written_yet(error):
            raise  # not implemented, or not defined (or not loaded): say that, not "raise a ValueError"
        if error.type_name not in ("ValueError", "AssertionError") and _raises(valid):
            raise  # it cannot run at all: the exception itself is read (slips, error_hints)
        # An assert is a check of the student's own that fired here, whatever else fails: it is
        # told as the wrong error, not read as code that cannot run.
        expect(error.type_name == "ValueError", wrong_error(error.type_name))
        return error.message
    raise Failure(no_error)


def not_written_yet(error: StudentError) -> bool:
    """Whether ``error`` says the stage is a stub, or not defined (or not loaded): a test that reads
    the student's own exception lets that one say "not implemented" instead."""
    return raised_by_stub(error.type_name, error.student_traceback, error.message) or error.undefined_name is not None


def _raises(call: Callable[[], object]) -> bool:
    """Whether the student's code raised in ``call()``."""
    try:
        call()
    except StudentError:
        return True
    return False


def expect_message_names(message: str, values: dict[str, float], what: What,
                         mistake: str = "error_names_no_sizes") -> None:
    """An error message names each of ``values`` by its value, however Python writes it
    (``error_message``), as the notebook asks; else ``mistake``, the values it lacks quoted."""
    missing = values_not_named(message, values)
    if missing:
        raise Failure(finding("error_lacks_sizes", mistake, what=what, message=message,
                              sizes=", ".join(f"{name} = {values[name]}" for name in missing)))


def expect_runs_on_stand_in(module: RemoteObject, input_shape: tuple, output_shape: tuple, what: What, *,
                            masked: bool = True) -> None:
    """Moved to the worker's stand-in GPU, the module still runs: every tensor it uses moves with it.

    This catches on a CPU-only machine what would break on a GPU (``autograder.worker.fake_gpu``:
    fake tensors that check devices on every operation, in-place ones included): a mask kept as
    a plain attribute stays behind when the module moves, and so do tensors made on the CPU in
    forward. Any registered buffer moves with the module, whatever its name or shape; a module
    that needs no mask (``is_causal=True``) needs no buffer, and one that moves a plain attribute
    itself (``self.mask.to(x.device)``) runs too. ``masked``: whether the module keeps a mask at
    all (notebook 2's do not: a plain tensor left behind there is a weight, trainable or not).
    """
    try:
        output = on_stand_in(lambda: module.call_on_stand_in_gpu(torch.empty(input_shape, device="meta")))
    except StudentError as error:
        description = module.describe()
        left_behind = sorted(description["plain_tensor_attributes"])
        if left_behind and device_error(error.type_name, error.message):
            mistake = _left_behind_mistake(left_behind, description) if masked else "parameters_plain_tensors"
            key = "plain_weights" if mistake == "parameters_plain_tensors" else "plain_attributes"
            raise Failure(finding(key, mistake, what=what, names=", ".join(left_behind))) from None
        raise
    if output is not None:
        expect_on_stand_in(output, torch.empty(output_shape, device="meta"),
                           finding("what.on_meta", what=what, shape=shape_text(input_shape)), structure=False)


def _left_behind_mistake(left_behind: list[str], description: dict) -> str | None:
    """What plain tensor attributes that stayed behind are: weights meant as parameters when every
    one requires grad, a mask when none does (mixed, no one mistake)."""
    trainable = set(description.get("trainable_plain_attributes", ()))
    if trainable.issuperset(left_behind):
        return "parameters_plain_tensors"
    return "mask_plain_attribute" if not trainable.intersection(left_behind) else None


def expect_on_stand_in(output, like: torch.Tensor, what: What, mistakes: MistakeSource = None, *,
                       structure: bool = True) -> None:
    """A stand-in run's result is on the stand-in GPU (a CPU tensor was left behind there) with
    the shape and dtype of ``like``, a meta tensor (``mistakes`` as in ``expect_tensor``).
    ``structure`` False: its device alone, where the stage's value tests charge a wrong shape or
    dtype (a wrapper's heads joined along another dim), so that one fault costs its share once."""
    if isinstance(output, torch.Tensor) and output.device.type == "cpu":
        raise Failure(finding("wrong_device", "device_not_followed", what=what, actual_device="cpu",
                              expected_device="cuda"))
    if structure:
        expect_tensor(output, like, what, mistakes=mistakes)


def on_stand_in(call: Callable[[], object]) -> object:
    """What ``call()`` returns on the stand-in GPU; None when the student's code reads values
    (``.item()``, boolean indexing), which fake tensors do not have and a GPU does: that is the
    stand-in's limit, and no mistake."""
    try:
        return call()
    except StudentError as error:
        if meta_cannot_run(error.type_name, error.message):
            return None
        raise


def expect_function_on_stand_in(student: Submission, name: str, args: tuple, like: torch.Tensor, call: str,
                                *, one_matrix: bool = False, **kwargs) -> None:
    """``name`` runs on the stand-in GPU (fake tensors that check devices as a GPU does) and answers
    there: every tensor it makes follows its input's device (code that reads values cannot run
    there, and passes). ``one_matrix``: the stage takes (..., T, T), so code that raises on the
    batch for another reason than a device (the value tests charge that) is read on its first
    matrix alone, where its devices show."""
    try:
        result = on_stand_in(lambda: student.call_on_stand_in_gpu(name, *args, **kwargs))
    except StudentError as error:
        if not one_matrix or args[0].dim() < 3 or device_error(error.type_name, error.message):
            raise
        args, like = (args[0][0], *args[1:]), like[0]
        result = on_stand_in(lambda: student.call_on_stand_in_gpu(name, *args, **kwargs))
    what = finding("what.function_on_meta", call=call, shape=shape_text(args[0].shape))
    if result is not None:
        expect_on_stand_in(result, like, what, structure=False)


def expect_class_runs_on_stand_in(student: Submission, class_name: str, *args, input_shape: tuple,
                                  output_shape: tuple, masked: bool = True, **kwargs) -> None:
    """The student's ``class_name(*args, **kwargs)``, built in the worker, runs on the stand-in GPU
    (see ``expect_runs_on_stand_in``)."""
    module = student.new(class_name, *args, **kwargs)
    expect_runs_on_stand_in(module, input_shape, output_shape, call_text(class_name, *args, **kwargs), masked=masked)


def changed_entries(after: torch.Tensor, before: torch.Tensor, rtol: float = 1e-5, atol: float = 1e-7) -> torch.Tensor:
    """Where ``after`` differs from ``before`` (compared in float64 on the CPU), NaN never counting
    as a change: NaN is not equal to itself, and an output that is NaN (a row that hides every
    key, say) is a fault of its own, told by the value checks, never a sign that the past
    follows the future."""
    after, before = after.detach().cpu().double(), before.detach().cpu().double()
    defined = ~(after.isnan() | before.isnan())
    return defined & ~torch.isclose(after, before, rtol=rtol, atol=atol)


def future_of_sequence(call: Callable[[torch.Tensor], object], x: torch.Tensor, seed: int,
                       cause: Callable[[], str] | None = None) -> diagnosis.Explainer:
    """An explainer probing a function of a sequence ``x`` (b, T, ...): ``call`` on inputs whose
    tokens after position t alone were changed must give the same outputs up to t. ``cause()``
    names a leak found (``future_leak`` without it)."""

    def leak(actual: torch.Tensor) -> Finding | None:
        mixed = batch_mixed(call, x, actual, seed)
        if mixed is not None:
            return mixed  # one sequence's output follows another's tokens: not a leak along time
        t = first_leak(call, x, seed, actual)
        return None if t is None else finding("evidence.future_changes_past", position=t, later=t + 1)

    return diagnosis.future_changes_past(leak, cause)


def first_leak(call: Callable[[torch.Tensor], object], x: torch.Tensor, seed: int,
               actual: torch.Tensor | None = None) -> int | None:
    """The first position t whose output (``actual``, else ``call(x)``) changes when only the
    tokens after t change; None when none does, or when the call raises or returns no tensor."""
    try:
        before = actual if actual is not None else call(x)
        for t in range(x.shape[1] - 1):
            changed = x.clone()
            changed[:, t + 1:] = randn(seed + t, *changed[:, t + 1:].shape, dtype=x.dtype, device=x.device)
            after = call(changed)
            if not (isinstance(before, torch.Tensor) and isinstance(after, torch.Tensor)):
                return None
            if after.shape != before.shape:
                return None
            if bool(changed_entries(after[:, : t + 1], before[:, : t + 1]).any()):
                return t
    except StudentError:
        pass
    return None


def heads_leak_cause(one_head: Callable[[], tuple[RemoteObject, torch.Tensor, Callable[[torch.Tensor], str | None]]],
                     seed: int) -> Callable[[], str]:
    """The cause of a multi-head module's leak: a module that keeps to the past with a single head
    (``one_head()`` builds it, with an input and what names its output) masks its weights right, so
    its leak with several heads comes from moving values between positions outside the weights (a
    split or merge that mixes tokens and heads); one that leaks with one head too leaks through its
    weights, for the mistake its one-head output reproduces (a softmax along the queries' dim, a
    mask filled with 0), else ``future_leak`` (so too when it cannot be built with one head)."""

    def cause() -> str:
        try:
            module, x, named = one_head()
        except (StudentError, Failure):
            return "future_leak"
        if first_leak(module, x, seed) is None and _stays_finite(module, x):
            return "tokens_mixed_outside_weights"
        try:
            out = module(x)
        except StudentError:
            return "future_leak"
        return (named(out) if isinstance(out, torch.Tensor) else None) or "future_leak"

    return cause


def _stays_finite(module: RemoteObject, x: torch.Tensor) -> bool:
    """Whether ``module(x)`` runs to finite values: a NaN hides any leak, so it proves no mask."""
    try:
        out = module(x)
    except StudentError:
        return False
    return isinstance(out, torch.Tensor) and bool(torch.isfinite(out).all())


def batch_mixed(call: Callable[[torch.Tensor], object], x: torch.Tensor, actual: torch.Tensor,
                 seed: int) -> Finding | None:
    """The evidence that ``call`` mixes the sequences of a batch (b, T, ...): changing only
    sequences 1 to b - 1 changes the output of sequence 0 (``evidence.batch_mixed``), or changing
    only sequence 0 changes the output of a later one (``evidence.batch_carried_over``: something
    computed for one sequence, a running total say, carries over into the next). A transpose of
    the batch axis with the tokens' does so, and then also moves later tokens into earlier
    positions: the sequences are what to look at first."""
    if x.shape[0] < 2 or actual.shape[:2] != x.shape[:2]:
        return None  # one sequence, or an output whose first axis is not the batch's
    for changed_part, watched, evidence in ((slice(1, None), slice(0, 1), "evidence.batch_mixed"),
                                            (slice(0, 1), slice(1, None), "evidence.batch_carried_over")):
        changed = x.clone()
        changed[changed_part] = randn(seed + 1000, *changed[changed_part].shape, dtype=x.dtype, device=x.device)
        try:
            after = call(changed)
        except StudentError:
            return None
        if isinstance(after, torch.Tensor) and after.shape == actual.shape and bool(
                changed_entries(after[watched], actual[watched]).any()):
            return finding(evidence)
    return None


def expect_sequences_apart(call: Callable[[torch.Tensor], object], x: torch.Tensor, actual: torch.Tensor,
                           seed: int, what: What) -> None:
    """Fail, naming the mistake, when ``call`` mixes the sequences of the batch ``x`` (``batch_mixed``)."""
    mixed = batch_mixed(call, x, actual, seed)
    if mixed is not None:
        kind = diagnosis.BATCH_EVIDENCE[mixed.key]
        raise Failure(finding(kind, kind, what=what))


def future_of_square(call: Callable[[torch.Tensor], object], square: torch.Tensor, seed: int) -> diagnosis.Explainer:
    """An explainer probing a function of (..., T, T) scores or weights: ``call`` on an input whose
    entries above the diagonal (each query's later keys) alone were changed must give the same
    output, those entries being hidden."""

    def leak(actual: torch.Tensor) -> Finding | None:
        above = torch.ones(square.shape[-2:], dtype=torch.bool, device=square.device).triu(1)
        noise = randn(seed, *square.shape, dtype=square.dtype, device=square.device).abs() + 0.1
        try:
            after = call(torch.where(above, noise, square))
        except StudentError:
            return None
        if not isinstance(after, torch.Tensor) or after.shape != actual.shape:
            return None
        changed = changed_entries(after, actual)
        if not bool(changed.any()):
            return None
        row = int(changed.reshape(-1, *changed.shape[-2:]).any(dim=(0, 2)).nonzero()[0])
        return finding("evidence.future_keys_change_row", position=row)

    return diagnosis.future_changes_past(leak)


def expect_no_future_leakage(module: RemoteObject, reference: torch.nn.Module, x: torch.Tensor, seed: int,
                             what: What, mistakes: Callable[[torch.Tensor], Mistakes] | None = None,
                             cause: Callable[[], str] | None = None,
                             together: Callable[[torch.Tensor], PairedMistakes] | None = None) -> None:
    """Changing only the tokens after position t leaves the outputs up to t unchanged.

    Every perturbed input is fresh (new values after t, for every t, twice) and the whole output
    is compared with the reference's on it: an answer that replays an earlier output, or that
    returns the same thing whatever the input, cannot pass. ``mistakes(changed)`` names what a
    wrong output reproduces; ``cause()`` names a leak that none reproduces (``future_leak``
    without it); ``together(changed)``, two faults that no single mistake reproduces.
    """
    batch, num_tokens, _ = x.shape
    before = module(x)
    rtol, atol = TOLERANCES[x.dtype]
    if isinstance(before, torch.Tensor):
        # One sequence follows another's tokens: any position may then follow later ones.
        expect_sequences_apart(module, x, before.detach().cpu().double(), seed, what)
    for trial in range(2):
        for t in range(num_tokens - 1):
            changed = x.clone()
            changed[:, t + 1:] = randn(seed + 100 * trial + t, batch, num_tokens - t - 1, x.shape[-1],
                                       dtype=x.dtype, device=x.device)
            after = module(changed)
            with torch.no_grad():
                expected = reference(changed)
            on_changed = finding("what.future_changed", what=what, position=t, shape=shape_text(x.shape))
            wrong_outputs = (lambda changed=changed: mistakes(changed)) if mistakes else None
            expect_structure(after, expected, on_changed)
            if isinstance(before, torch.Tensor) and before.shape == after.shape and bool(
                    changed_entries(after[:, : t + 1], before[:, : t + 1], rtol=rtol, atol=atol).any()):
                # Name what the output reveals (no mask, a mask the wrong way round...), else the leak.
                mistake = matching_mistake(after, expected, wrong_outputs) or (cause() if cause else "future_leak")
                raise Failure(finding("future_leak", mistake, what=what, position=t))
            paired = (lambda changed=changed: together(changed)) if together else None
            expect_tensor(after, expected, on_changed, mistakes=wrong_outputs, together=paired)


# The inputs (batch, num_tokens) one module is called on in a row: shorter, then longer, than the first.
CALLS_IN_A_ROW = ((2, 5), (3, 3), (1, 6))


def expect_each_call_alone(student: Submission, reference, class_name: str, args: tuple, *, seed: int,
                           device: str, dtype: torch.dtype, batched: bool = True) -> None:
    """One instance of the student's ``class_name(*args)`` called on inputs of other lengths and
    batch sizes in a row (``CALLS_IN_A_ROW``) answers each as a new instance with the same weights
    does: what one call leaves behind (a length, a mask or a cache kept in the module) must not
    change the next. Only the calls are compared, never the reference's values, so a module that
    is wrong on its own is charged by its forward tests alone; one that cannot be built with the
    reference's weights, or that fails on an input even when new, is left to those tests too.
    ``batched``: x is (batch, num_tokens, d_in); else (num_tokens, d_in) (SelfAttention_v1 and v2
    take one sequence)."""
    what = call_text(class_name, *args)
    try:
        ref, module = module_pair(student, reference, class_name, *args, seed=seed, device=device, dtype=dtype,
                                  parameters_placed=True)
    except Failure:
        return  # its parameters: charged by the forward tests
    before = None
    for batch, num_tokens in CALLS_IN_A_ROW:
        shape = (batch, num_tokens, args[0]) if batched else (num_tokens, args[0])
        x = randn(seed + num_tokens, *shape, dtype=dtype, device=device)
        try:
            alone = student_module(student, ref, class_name, *args, device=device, dtype=dtype,
                                   parameters_placed=True)(x)
        except StudentError:
            return  # a new module cannot answer this input either: its forward tests say why
        if not isinstance(alone, torch.Tensor):
            return  # it returns no tensor (a tuple, say): its forward tests say what it returns
        try:
            output = module(x)
        except StudentError as error:
            if before is None:
                return
            raise Failure(finding("raised_when_called_again", what=what, shape=shape_text(x.shape),
                                  before=shape_text(before), error_type=error.type_name,
                                  message=error.message)) from None
        if before is not None:
            expect_tensor(output, alone, finding("what.called_again", what=what, shape=shape_text(x.shape),
                                                 before=shape_text(before)))
        before = x.shape
