"""What the stage's own code rules out, read with ``ast`` (never run): a name that values alone
suggest must fit the code that ran.

Values can fit two mistakes. A softmax along dim 0 of symmetric scores (``inputs @ inputs.T``) is
the transpose of the right weights, so ``softmax(scores, dim=0) @ inputs`` and ``softmax(scores,
dim=-1).T @ inputs`` give the same output. When the code normalises along the last dim in every
softmax it calls, the first name lists a cause the code does not have; when it transposes the
weights, the second is what it shows. The grader (``hidden.failures``) and the public check
(``selfcheck.runner``) both ask ``named_by_code`` before they name a mistake found from values.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Collection, Sequence

from .source_code import parsed

# A mistake that values name, and the one that gives the same output where the code shows it.
_SAME_OUTPUT = {"softmax_wrong_dim": "weights_transposed",
                # softmax over all T positions (each 1/T), the future zeroed after it: the prefix sum / T
                "divided_by_sequence_length": "mask_after_softmax",
                # a stable softmax that still overflows, where the code did shift: by a position (reviews8)
                "softmax_overflow": "softmax_shift_by_index",
                # a right mask handed to the fused attention, which reads True the other way round (reviews11)
                "mask_inverted": "sdpa_mask_inverted"}
_TRANSPOSES = frozenset({"T", "mT", "t", "transpose", "permute", "swapaxes"})
_OWN_SOFTMAXES = frozenset({"softmax_naive", "softmax_stable"})  # notebook 1's stages: dim=-1 by default


def stage_definitions(stage: str, trees: Sequence[ast.Module]) -> list[ast.stmt]:
    """The student's top-level function or class named ``stage`` (the last definition wins in a
    notebook, but every one is read: a name must fit each)."""
    return [node for tree in trees for node in tree.body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == stage]


def _softmax_calls(definition: ast.stmt) -> list[ast.Call]:
    def name(func: ast.expr) -> str:
        return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""

    return [node for node in ast.walk(definition) if isinstance(node, ast.Call) and "softmax" in name(node.func)]


def _dim_of(call: ast.Call) -> ast.expr | None:
    """The dim a softmax call normalises along, as written: its ``dim`` keyword, else the position
    it takes (``tensor.softmax(d)``: the first; ``torch.softmax(x, d)``, ``softmax_stable(x, d)``:
    the second). Left out of a call of notebook 1's own softmax stages, it is their contract's
    default, -1 (the grader answers such a call with the reference's stage); None for a default of
    torch's."""
    for keyword in call.keywords:
        if keyword.arg == "dim":
            return keyword.value
    module_function = isinstance(call.func, ast.Name) or (
        isinstance(call.func, ast.Attribute) and isinstance(call.func.value, (ast.Name, ast.Attribute))
        and ast.unparse(call.func.value) in ("torch", "F", "nn.functional", "torch.nn.functional"))
    position = 1 if module_function else 0
    if len(call.args) > position:
        return call.args[position]
    own_stage = isinstance(call.func, ast.Name) and call.func.id in _OWN_SOFTMAXES
    return ast.Constant(-1) if own_stage else None


def _last_dim(dim: ast.expr | None) -> bool:
    return dim is not None and ast.unparse(dim) == "-1"


def _softmax_along_last_dim(definitions: list[ast.stmt]) -> bool:
    """Every softmax the definitions call normalises along dim -1, as written (at least one)."""
    calls = [call for definition in definitions for call in _softmax_calls(definition)]
    return bool(calls) and all(_last_dim(_dim_of(call)) for call in calls)


def _transposed(node: ast.expr) -> ast.expr | None:
    """What ``node`` transposes (``w.T``, ``w.mT``, ``w.t()``, ``w.transpose(...)``,
    ``torch.transpose(w, ...)``), if it is a transpose."""
    if isinstance(node, ast.Attribute) and node.attr in ("T", "mT"):
        return node.value
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _TRANSPOSES:
        owner = node.func.value
        if isinstance(owner, ast.Name) and owner.id == "torch":
            return node.args[0] if node.args else None
        return owner
    return None


def _weights_transposed(definitions: list[ast.stmt]) -> bool:
    """The definitions transpose a softmax's result: the call itself, or a name assigned from it,
    transposed (alone, or as the right factor of a product that is transposed), or read by an einsum
    with its two last indices the other way round."""
    for definition in definitions:
        softmaxes = _softmax_calls(definition)
        from_softmax = {target.id for node in ast.walk(definition)
                        if isinstance(node, ast.Assign) and _softmax_calls(node.value)
                        for target in node.targets if isinstance(target, ast.Name)}

        def is_weights(operand: ast.expr, from_softmax=from_softmax, softmaxes=softmaxes) -> bool:
            return (isinstance(operand, ast.Name) and operand.id in from_softmax) or any(
                operand is call for call in softmaxes)

        for node in ast.walk(definition):
            operand = _transposed(node) if isinstance(node, ast.expr) else None
            if operand is not None and (is_weights(operand) or _product_with_weights_last(operand, is_weights)) \
                    or _einsum_reads_transposed(node, is_weights):
                return True
    return False


def _product_with_weights_last(node: ast.expr, is_weights: Callable[[ast.expr], bool]) -> bool:
    """``node`` is a product whose right factor is the weights (``inputs.T @ w``): transposed, it is
    the weights transposed times the rest (``(inputs.T @ w).T`` is ``w.T @ inputs``)."""
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult) and is_weights(node.right)


def _einsum_reads_transposed(node: ast.AST, is_weights: Callable[[ast.expr], bool]) -> bool:
    """``node`` is an einsum that reads the weights (``is_weights``) with their last index, the
    key's, where its output keeps the query's (``"ji,jd->id"``): the weights transposed."""
    if not (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "einsum"
            and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
        return False
    equation = node.args[0].value.replace(" ", "")
    if "->" not in equation:
        return False
    inputs, output = equation.split("->")
    for subscripts, operand in zip(inputs.split(","), node.args[1:], strict=False):
        if is_weights(operand) and len(subscripts) >= 2 and len(output) >= 2 and subscripts[-1] == output[-2]:
            return True
    return False


_CONCATENATIONS = frozenset({"cat", "concat", "concatenate"})


def _concatenated_along_last_dim(definitions: list[ast.stmt]) -> bool:
    """Every concatenation the definitions make joins along dim -1, as written (at least one): the
    heads were joined along the features, and a wrong output comes from what was joined
    (``torch.cat(list(x), dim=-1)`` joins the batch's items, not the heads)."""
    calls = [node for definition in definitions for node in ast.walk(definition) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Attribute) and node.func.attr in _CONCATENATIONS]
    dims = [next((keyword.value for keyword in call.keywords if keyword.arg in ("dim", "axis")),
                 call.args[1] if len(call.args) > 1 else None) for call in calls]
    return bool(calls) and all(_last_dim(dim) for dim in dims)


# What the code must show for a mistake to be ruled out (``_RULED_OUT``) or shown (``_SHOWN``).
def _calls_softmax(definitions: list[ast.stmt]) -> bool:
    """The definitions call a softmax: their weights come out of one, not out of a division by T."""
    return any(_softmax_calls(definition) for definition in definitions)


def _takes_an_index(definitions: list[ast.stmt]) -> bool:
    """The definitions take a position where a value belongs: ``argmax``/``argmin``, the
    ``.indices`` of a max, or item 1 of what ``max(dim=...)`` returns."""
    for definition in definitions:
        for node in ast.walk(definition):
            if isinstance(node, ast.Attribute) and node.attr in ("argmax", "argmin", "indices"):
                return True
            if (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call)
                    and getattr(node.value.func, "attr", "") in ("max", "min")
                    and isinstance(node.slice, ast.Constant) and node.slice.value == 1):
                return True
    return False


def _mask_given_to_fused_attention(definitions: list[ast.stmt]) -> bool:
    """Whether a call of ``scaled_dot_product_attention`` is given an ``attn_mask`` as it is (not
    its opposite, ``~mask`` or ``logical_not``): the mask's meaning then is that function's, where
    True takes part."""
    for definition in definitions:
        for node in ast.walk(definition):
            if isinstance(node, ast.Call) and _called_name(node.func) == "scaled_dot_product_attention":
                for keyword in node.keywords:
                    value = keyword.value
                    opposite = (isinstance(value, ast.UnaryOp) and isinstance(value.op, (ast.Invert, ast.Not))) or (
                        isinstance(value, ast.Call) and _called_name(value.func) in ("logical_not", "bitwise_not"))
                    if keyword.arg == "attn_mask" and not opposite:
                        return True
    return False


def _called_name(func: ast.expr) -> str:
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


_RULED_OUT: dict[str, Callable[[list[ast.stmt]], bool]] = {"softmax_wrong_dim": _softmax_along_last_dim,
                                                           "heads_concat_wrong_dim": _concatenated_along_last_dim,
                                                           "divided_by_sequence_length": _calls_softmax,
                                                           "softmax_overflow": _takes_an_index,
                                                           "mask_inverted": _mask_given_to_fused_attention}
_SHOWN: dict[str, Callable[[list[ast.stmt]], bool]] = {"weights_transposed": _weights_transposed,
                                                       "mask_after_softmax": _calls_softmax,
                                                       "softmax_shift_by_index": _takes_an_index,
                                                       "sdpa_mask_inverted": _mask_given_to_fused_attention}


def named_by_code(mistake: str | None, stage: str, sources: Sequence[str]) -> str | None:
    """The mistake to name for ``stage`` where its values point to ``mistake``: ``mistake`` itself,
    unless the code rules out its cause; then the mistake of the same output that the code shows,
    else none. Without the stage's code, ``mistake`` as it is."""
    rules_out = _RULED_OUT.get(mistake or "")
    if rules_out is None:
        return mistake
    definitions = stage_definitions(stage, parsed(sources))
    if not definitions or not rules_out(definitions):
        return mistake
    twin = _SAME_OUTPUT.get(mistake)
    return twin if twin is not None and _SHOWN[twin](definitions) else None


# Methods that change the object they are called on, in place.
_MUTATING = frozenset({"append", "extend", "insert", "update", "copy_", "add_", "mul_", "fill_", "zero_",
                       "__setitem__"})


def _self_attribute(node: ast.expr) -> str | None:
    """``x`` of ``self.x`` (or of ``self.x[...]``), else None."""
    while isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return node.attr
    return None


def _targets(node: ast.expr) -> list[ast.expr]:
    return [item for element in node.elts for item in _targets(element)] if isinstance(node, (ast.Tuple, ast.List)) \
        else [node]


def _changed_in_place(node: ast.AST) -> str | None:
    """The attribute of self that ``node`` changes in place (``self.n += 1``, ``self.cache.append(k)``)."""
    if isinstance(node, ast.AugAssign):
        return _self_attribute(node.target)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _MUTATING:
        return _self_attribute(node.func.value)
    return None


def stages_called(stage: str, sources: Sequence[str], stages: Collection[str]) -> list[str]:
    """The other stages that the definition of ``stage`` names (calls of its own accord: a
    ``CausalAttention`` using the student's ``masked_softmax``), as the grader reads them
    (``grading.dependencies.stages_called``)."""
    names = {node.id for definition in stage_definitions(stage, parsed(sources)) for node in ast.walk(definition)
             if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
    return sorted((names & set(stages)) - {stage})


def state_kept(stage: str, sources: Sequence[str]) -> list[str]:
    """The attributes that the ``forward`` of the class ``stage`` both reads and changes (a key and
    value cache, a call counter): what one call leaves there, the next one sees, so the same input
    can give another output. An attribute only written (weights kept to plot) carries nothing."""
    written, read = set(), set()
    for definition in stage_definitions(stage, parsed(sources)):
        for method in definition.body if isinstance(definition, ast.ClassDef) else []:
            if not (isinstance(method, ast.FunctionDef) and method.name == "forward"):
                continue
            for node in ast.walk(method):
                if isinstance(node, ast.Assign):
                    written |= {name for target in node.targets for item in _targets(target)
                                if (name := _self_attribute(item))}
                elif name := _changed_in_place(node):  # read and written at once: self.calls += 1
                    written.add(name)
                    read.add(name)
                elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and (
                        name := _self_attribute(node)):
                    read.add(name)
    return sorted(written & read)


_MUTATING_CONTAINER = frozenset({"append", "extend", "insert", "update", "setdefault", "add", "pop", "clear",
                                 "copy_", "fill_", "zero_"})


def _root_name(node: ast.expr) -> str | None:
    """``x`` of ``x``, ``x[...]`` or ``x.attr``."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def globals_kept(stage: str, sources: Sequence[str]) -> list[str]:
    """The names outside the function ``stage`` that it changes and that outlive its call: those it
    declares ``global`` and assigns, and the containers it writes into (``cache[key] = mask``,
    ``cache.update(...)``) without making them itself (no parameter, no local of that name). What
    one call leaves there, the next one sees, as with a module's ``state_kept``."""
    kept: set[str] = set()
    for definition in stage_definitions(stage, parsed(sources)):
        if not isinstance(definition, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        arguments = definition.args
        local = {argument.arg for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                                                *filter(None, (arguments.vararg, arguments.kwarg))]}
        declared: set[str] = set()
        for node in ast.walk(definition):
            if isinstance(node, ast.Global):
                declared.update(node.names)
            elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For)):
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    local.update(item.id for item in _targets(target) if isinstance(item, ast.Name))
        for node in ast.walk(definition):
            if isinstance(node, (ast.Assign, ast.AugAssign)):
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    for item in _targets(target):
                        if isinstance(item, ast.Name) and item.id in declared:
                            kept.add(item.id)
                        elif isinstance(item, ast.Subscript) and (name := _root_name(item)) and (
                                name in declared or name not in local):
                            kept.add(name)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                    node.func.attr in _MUTATING_CONTAINER) and (name := _root_name(node.func.value)) and (
                    name in declared or name not in local) and name not in ("torch", "np", "math", "self"):
                kept.add(name)
    return sorted(kept)
