"""Write what the public checks know: for each fixed input of theirs, the right output and the
outputs of the catalogue's named mistakes.

    python -m autograder.notebooks.known_outputs      (run by `make assignments`)

The student package compares a failed self-check with these outputs, as the hidden tests compare
a failed answer with the same catalogue (``autograder.hidden.wrong_outputs``), so that both name
the same mistakes. The inputs are the package's own (``selfcheck.cases``); the outputs come from
the reference solutions, in this trusted process, and are written as data into
``autograder/student/selfcheck/known_outputs.json``. A kit test fails when that file is stale.
"""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Callable

import torch

from autograder.course.reference import load_reference
from autograder.hidden import wrong_outputs
from autograder.student.selfcheck import cases
from autograder.student.selfcheck.expectations import seed_weights
from autograder.student.selfcheck.known import KNOWN_FILE

SIGNIFICANT_DIGITS = 7  # float32 holds about 7


def _reference(stage_or_class: str) -> types.SimpleNamespace:
    """The reference namespace that defines ``stage_or_class``."""
    for assignment in ("01_attention_scores", "02_self_attention", "03_causal_attention", "04_multi_head_attention"):
        namespace = load_reference(assignment)
        if hasattr(namespace, stage_or_class):
            return namespace
    raise KeyError(stage_or_class)


def _function_case(function: str, args: tuple) -> tuple[torch.Tensor, dict]:
    ref = {"softmax": _reference("softmax_stable"), "causal_average": _reference("causal_average_loop")}.get(
        function) or _reference(function)
    if function == "softmax":
        x, dim = args
        return ref.softmax_stable(x, dim=dim), wrong_outputs.softmax_mistakes(ref, x, dim)
    if function == "causal_average":
        return ref.causal_average_loop(*args), wrong_outputs.causal_average_mistakes(ref.causal_average_loop, *args)
    mistakes_of: dict[str, Callable[[], dict]] = {
        "attention_scores_for_query": lambda: wrong_outputs.dot_product_mistakes(*args),
        "attention_scores": lambda: wrong_outputs.attention_scores_mistakes(ref, *args),
        "context_vector": lambda: wrong_outputs.context_vector_mistakes(*args),
        "simple_self_attention": lambda: wrong_outputs.simple_self_attention_mistakes(ref, *args),
        "scaled_dot_product_scores": lambda: wrong_outputs.scaled_scores_mistakes(ref.scaled_dot_product_scores,
                                                                                  *args),
        "causal_mask": lambda: wrong_outputs.causal_mask_mistakes(ref.causal_mask(*args)),
        "mask_and_renormalize": lambda: wrong_outputs.mask_and_renormalize_mistakes(*args),
        "masked_softmax": lambda: wrong_outputs.masked_softmax_mistakes(*args),
        "split_heads": lambda: wrong_outputs.split_heads_mistakes(*args),
        "merge_heads": lambda: wrong_outputs.merge_heads_mistakes(*args),
    }
    return getattr(ref, function)(*args), mistakes_of[function]()


def attention_weights(module: torch.nn.Module, x: torch.Tensor) -> torch.Tensor | None:
    """The weights a module passes through its ``dropout`` layer on ``x`` (caught by a hook)."""
    caught = []
    hook = module.dropout.register_forward_hook(lambda layer, inputs, output: caught.append(inputs[0]))
    try:
        with torch.no_grad():
            module(x)
    finally:
        hook.remove()
    return caught[0] if caught else None


def _module_case(class_name: str, args: tuple, kwargs: dict, seed: int, x: torch.Tensor
                 ) -> tuple[torch.Tensor, torch.Tensor | None, wrong_outputs.WrongOutputs]:
    ref = _reference(class_name)
    seed_weights(seed)
    module = getattr(ref, class_name)(*args, **kwargs)
    with torch.no_grad():
        output = module(x)
    weights = attention_weights(module, x) if isinstance(getattr(module, "dropout", None), torch.nn.Module) else None
    if class_name in ("SelfAttention_v1", "SelfAttention_v2"):
        wrong = wrong_outputs.attention_mistakes(module, x, causal=False)
    elif class_name == "CausalAttention":
        wrong = wrong_outputs.attention_mistakes(module, x, causal=True)
    elif class_name == "MultiHeadAttention":
        heads = (kwargs["num_heads"], ref.split_heads, ref.merge_heads)
        wrong = wrong_outputs.attention_mistakes(module, x, causal=True, heads=heads)
    else:
        wrong = wrong_outputs.wrapper_mistakes(module, x)
    return output, weights[0] if weights is not None else None, wrong


def _data(tensor: torch.Tensor) -> list:
    """A tensor as nested lists, at float32's precision (booleans as 0 and 1)."""
    values = tensor.detach().to("cpu", torch.float64)
    return json.loads(json.dumps(values.tolist(), allow_nan=True),
                      parse_float=lambda text: float(f"{float(text):.{SIGNIFICANT_DIGITS}g}"))


def _distinct(expected: torch.Tensor, wrong: dict[str, list[torch.Tensor]]) -> dict[str, list]:
    """The mistakes' outputs that differ from the right one on this input (the others cannot be told apart)."""
    right = expected.detach().to("cpu", torch.float64)
    kept = {}
    for mistake_id, outputs in sorted(wrong.items()):
        different = [output for output in outputs
                     if output.shape != right.shape
                     or not torch.allclose(output.detach().to("cpu", torch.float64), right, rtol=1e-6, atol=1e-7)]
        if different:
            kept[mistake_id] = [_data(output) for output in different]
    return kept


@torch.no_grad()
def known_outputs() -> dict:
    """Every case's right output, right weights (modules) and mistakes' outputs."""
    found: dict[str, dict[str, object]] = {}
    for case, (function, build) in cases.FUNCTION_CASES.items():
        expected, wrong = _function_case(function, build())
        found[case] = {"expected": _data(expected), "mistakes": _distinct(expected, wrong)}
    for case, (class_name, args, kwargs, seed, build) in cases.MODULE_CASES.items():
        expected, weights, wrong = _module_case(class_name, args, kwargs, seed, build())
        found[case] = {"expected": _data(expected), "weights": None if weights is None else _data(weights),
                       "mistakes": _distinct(expected, wrong)}
    return {"comment": "Written by python -m autograder.notebooks.known_outputs (make assignments); do not edit.",
            "cases": found}


def rendered() -> str:
    return json.dumps(known_outputs(), indent=None, separators=(",", ":"), sort_keys=True) + "\n"


def main() -> int:
    torch.set_num_threads(1)
    KNOWN_FILE.write_text(rendered(), encoding="utf-8")
    print(f"wrote {KNOWN_FILE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
