"""Which of a student's parameters holds which of the reference's.

The notebooks name the parameters (``W_query``, ``W_key``, ``W_value``, ``out_proj``), and a
student's module is given the reference's weights by those names. One other layout computes the
same thing and is accepted too (ARCHITECTURE.md, "Fairness"): the query, key and value
projections fused into one parameter with three times the rows, stacked in that order, as GPT-2's
``c_attn``, nanoGPT's ``c_attn`` and PyTorch's ``in_proj_weight`` keep them. Such a parameter is
given the three reference weights stacked, and its gradient is read back a third at a time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

# The projections that may share one fused parameter, in the order they are stacked.
FUSED_PROJECTIONS = ("W_query", "W_key", "W_value")


@dataclass(frozen=True)
class Slot:
    """Where a reference parameter lives in the student's module: a parameter, or a third of a
    fused one (``part`` 0 for queries, 1 for keys, 2 for values)."""

    name: str
    part: int | None = None


@dataclass
class ParameterMap:
    """The student's place for each reference parameter, and what does not fit."""

    slots: dict[str, Slot] = field(default_factory=dict)  # reference name -> its slot
    missing: dict[str, list[int]] = field(default_factory=dict)  # reference name -> its shape
    extra: list[str] = field(default_factory=list)  # student parameters that hold nothing of the reference
    wrong_shape: dict[str, tuple[list[int], list[int]]] = field(default_factory=dict)  # name -> (actual, expected)

    @property
    def fits(self) -> bool:
        return not (self.missing or self.extra or self.wrong_shape)

    @property
    def by_name(self) -> bool:
        """Whether every slot is the parameter of the same name (nothing fused)."""
        return all(slot.part is None and slot.name == name for name, slot in self.slots.items())


def parameter_map(student_shapes: dict[str, list[int]], reference: torch.nn.Module) -> ParameterMap:
    """Match the reference's parameters to the student's (``student_shapes``: name -> shape), by
    name first, then fused projections by shape."""
    expected = {name: list(param.shape) for name, param in reference.named_parameters()}
    found = ParameterMap()
    for name, shape in expected.items():
        if name not in student_shapes:
            found.missing[name] = shape
        elif student_shapes[name] != shape:
            found.wrong_shape[name] = (student_shapes[name], shape)
        else:
            found.slots[name] = Slot(name)
    unused = {name: shape for name, shape in student_shapes.items() if name not in expected}
    for prefix, kind in _fused_groups(found.missing):
        group = [f"{prefix}{projection}.{kind}" for projection in FUSED_PROJECTIONS]
        rows, *rest = found.missing[group[0]]
        candidates = [name for name, shape in unused.items()
                      if name.startswith(prefix) and name.endswith(kind) and shape == [3 * rows, *rest]]
        if len(candidates) == 1:  # more than one: which holds the projections is anyone's guess
            for part, name in enumerate(group):
                found.slots[name] = Slot(candidates[0], part)
                del found.missing[name]
            del unused[candidates[0]]
    found.extra = sorted(unused)
    return found


def _fused_groups(missing: dict[str, list[int]]) -> list[tuple[str, str]]:
    """(module prefix, kind) of each W_query, W_key, W_value triple of one shape that is missing:
    ("", "weight") for a module's own projection weights, ("heads.0.", "bias") for a head's biases."""
    groups = []
    for name, shape in missing.items():
        prefix, found, kind = name.rpartition(f"{FUSED_PROJECTIONS[0]}.")
        if found and (not prefix or prefix.endswith(".")) and "." not in kind and all(
                missing.get(f"{prefix}{projection}.{kind}") == shape for projection in FUSED_PROJECTIONS):
            groups.append((prefix, kind))
    return groups


def student_weights(found: ParameterMap, reference: torch.nn.Module) -> dict[str, torch.Tensor]:
    """The reference's parameters under the student's names, detached (fused ones stacked)."""
    params = dict(reference.named_parameters())
    weights: dict[str, torch.Tensor] = {}
    fused: dict[str, list[tuple[int, torch.Tensor]]] = {}
    for name, slot in found.slots.items():
        if slot.part is None:
            weights[slot.name] = params[name].detach()
        else:
            fused.setdefault(slot.name, []).append((slot.part, params[name].detach()))
    for name, parts in fused.items():
        weights[name] = torch.cat([tensor for _, tensor in sorted(parts, key=lambda part: part[0])])
    return weights


def reference_gradient(found: ParameterMap, name: str, student_gradients: dict) -> object:
    """The student's gradient for the reference parameter ``name`` (None when there is none)."""
    slot = found.slots.get(name)
    gradient = student_gradients.get(slot.name) if slot else None
    if slot is None or slot.part is None or not isinstance(gradient, torch.Tensor):
        return gradient
    return gradient.chunk(len(FUSED_PROJECTIONS))[slot.part]
