"""Write what the public checks know: for each fixed input of theirs, the right output and the
outputs of the catalogue's named mistakes.

    python -m autograder.notebooks.known_outputs      (run by `make assignments`)

The student package compares a failed self-check with these outputs, as the hidden tests compare
a failed answer with the same catalogue (``autograder.hidden.wrong_outputs``), so that both name
the same mistakes. The inputs are the package's own (``selfcheck.cases``); the outputs come from
the reference solutions, in this trusted process, and are written as data into
``autograder/student/selfcheck/known_outputs.json``. A kit test fails when that file is stale.

Beside them it copies the answer key of the predictions (what the reference solution's demos
measure, ``autograder/course/predictions.toml``) into ``autograder/student/prediction_outcomes.json``:
``reveal`` judges a prediction against the reference's outcome, not against a demo that ran the
student's unfinished code, and so says what the grader says. And it copies what the rubric charges
for hints (``[hint_charges]``) into ``autograder/student/hint_prices.json``, so that the checks
say a hint's price before the student opens it.
"""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Callable

import torch

from autograder.course import predictions, rubric
from autograder.course.reference import load_reference
from autograder.hidden import wrong_outputs
from autograder.student.curriculum import ASSIGNMENTS, all_stages
from autograder.student.hint_prices import PRICES_FILE
from autograder.student.predictions import OUTCOMES_FILE
from autograder.student.selfcheck import cases
from autograder.student.selfcheck.expectations import seed_weights
from autograder.student.selfcheck.known import KNOWN_FILE

SIGNIFICANT_DIGITS = 7  # float32 holds about 7
# How far two float32 computations of one output may lie apart, as a share of the output's scale
# (its largest finite magnitude): 2**-16 is 128 units in float32's last place (2**-23), where
# kernels of different CPUs were measured at most 2 units apart on these small inputs.
FLOAT32_NOISE = 2.0**-16
# A mistake's output is told apart from the right one only when it lies at least this many times
# the noise away; between the noise and this margin, which mistakes are written down could depend
# on the CPU, so the generator refuses rather than guess (the measured gap: 2e-7 to 2e-2 of scale).
DISTINCT_MARGIN = 16


def _reference(stage_or_class: str) -> types.SimpleNamespace:
    """The reference namespace that defines ``stage_or_class``."""
    for assignment in ASSIGNMENTS:
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


def _scale(values: torch.Tensor) -> float:
    """A tensor's largest finite magnitude (1 when it has none): what float32's noise is relative to."""
    finite = values[torch.isfinite(values)].abs()
    return max(float(finite.max()), 1e-30) if finite.numel() else 1.0


def _distance(output: torch.Tensor, right: torch.Tensor) -> float:
    """How far ``output`` lies from ``right``, in shares of ``right``'s scale (inf when they cannot
    be compared: other shapes, or a value that is not finite in one of them only)."""
    output = output.detach().to("cpu", torch.float64)
    if output.shape != right.shape:
        return float("inf")
    same_special = (output == right) | (torch.isnan(output) & torch.isnan(right))
    finite = torch.isfinite(output) & torch.isfinite(right)
    if not bool((same_special | finite).all()):
        return float("inf")
    gaps = torch.where(same_special, 0.0, (output - right).abs())
    return float(gaps.max()) / _scale(right) if gaps.numel() else 0.0


def _distinct(expected: torch.Tensor, wrong: dict[str, list[torch.Tensor]]) -> dict[str, list]:
    """The mistakes' outputs that differ from the right one on this input (the others cannot be
    told apart). Raises ValueError for an output too close to call: see ``DISTINCT_MARGIN``."""
    right = expected.detach().to("cpu", torch.float64)
    kept = {}
    for mistake_id, outputs in sorted(wrong.items()):
        distances = [_distance(output, right) for output in outputs]
        unclear = [distance for distance in distances if FLOAT32_NOISE <= distance < FLOAT32_NOISE * DISTINCT_MARGIN]
        if unclear:
            raise ValueError(f"{mistake_id}: its output lies {unclear[0]:.2g} of the scale from the right one, too"
                             " close to tell apart the same way on every CPU: change the case's input")
        different = [output for output, distance in zip(outputs, distances, strict=True) if distance >= FLOAT32_NOISE]
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


def rendered(outputs: dict | None = None) -> str:
    return json.dumps(known_outputs() if outputs is None else outputs, indent=None, separators=(",", ":"),
                      sort_keys=True) + "\n"


def _tensor_differences(committed: list | None, fresh: list | None, where: str) -> list[str]:
    """How a committed tensor (nested lists, or None) differs from a fresh one beyond float32's noise."""
    if committed is None or fresh is None:
        return [] if committed is fresh else [f"{where}: {'new' if committed is None else 'gone'}"]
    old, new = torch.tensor(committed, dtype=torch.float64), torch.tensor(fresh, dtype=torch.float64)
    if old.shape != new.shape:
        return [f"{where}: shape {tuple(old.shape)} is now {tuple(new.shape)}"]
    distance = _distance(old, new)
    if distance == float("inf"):
        return [f"{where}: a value became, or stopped being, inf or nan"]
    if distance > FLOAT32_NOISE:
        return [f"{where}: values moved by {distance:.2g} of their scale, beyond float32's noise ({FLOAT32_NOISE:.2g})"]
    return []


def _keys_differences(committed: dict, fresh: dict, where: str) -> list[str]:
    return [f"{where}{key}: {'gone' if key in committed else 'new'}" for key in sorted(committed.keys() ^ fresh.keys())]


def differences(committed: dict, fresh: dict) -> list[str]:
    """Where ``committed`` known outputs differ from ``fresh`` ones: text, cases and mistakes
    exactly, numbers beyond float32's noise (so another CPU's last digits are no difference)."""
    found = [] if committed.get("comment") == fresh.get("comment") else ["the comment changed"]
    old_cases, new_cases = committed.get("cases", {}), fresh.get("cases", {})
    found += _keys_differences(old_cases, new_cases, "case ")
    for case in sorted(old_cases.keys() & new_cases.keys()):
        old, new = old_cases[case], new_cases[case]
        found += _keys_differences(old, new, f"{case}: field ")
        for field in ("expected", "weights"):
            found += _tensor_differences(old.get(field), new.get(field), f"{case}: {field}")
        old_mistakes, new_mistakes = old.get("mistakes", {}), new.get("mistakes", {})
        found += _keys_differences(old_mistakes, new_mistakes, f"{case}: mistake ")
        for mistake_id in sorted(old_mistakes.keys() & new_mistakes.keys()):
            outputs = old_mistakes[mistake_id], new_mistakes[mistake_id]
            if len(outputs[0]) != len(outputs[1]):
                found.append(f"{case}: mistake {mistake_id}: {len(outputs[0])} outputs are now {len(outputs[1])}")
                continue
            found += [difference for index, pair in enumerate(zip(*outputs, strict=True))
                      for difference in _tensor_differences(*pair, f"{case}: mistake {mistake_id}[{index}]")]
    return found


def prediction_outcomes_rendered() -> str:
    """The student package's copy of the answer key, as the kit writes it."""
    return json.dumps({"comment": "Written by python -m autograder.notebooks.known_outputs (make assignments) from"
                                  " autograder/course/predictions.toml; do not edit.",
                       "outcomes": predictions.outcomes()}, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def _prediction_outcomes_stale() -> list[str]:
    current = OUTCOMES_FILE.read_text(encoding="utf-8") if OUTCOMES_FILE.exists() else None
    if current == prediction_outcomes_rendered():
        return []
    return [f"{OUTCOMES_FILE.name}: {'missing' if current is None else 'not the answer key of predictions.toml'}"]


def hint_prices_rendered() -> str:
    """The student package's copy of the rubric's hint prices, per stage that costs anything."""
    prices = {stage: list(row) for stage, row in rubric.hint_prices().of_stages(all_stages()).items()}
    # The student package names no grading file (tests/test_student_package.py): the table, not its file.
    return json.dumps({"comment": "Written by python -m autograder.notebooks.known_outputs (make assignments) from"
                                  " the course's [hint_charges] table; do not edit.",
                       "prices": prices}, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def _hint_prices_stale() -> list[str]:
    current = PRICES_FILE.read_text(encoding="utf-8") if PRICES_FILE.exists() else None
    if current == hint_prices_rendered():
        return []
    return [f"{PRICES_FILE.name}: {'missing' if current is None else 'not the prices of the points table'}"]


def _known_outputs_stale(fresh: dict | None = None) -> list[str]:
    committed = json.loads(KNOWN_FILE.read_text(encoding="utf-8")) if KNOWN_FILE.exists() else {}
    return differences(committed, known_outputs() if fresh is None else fresh)


def stale(fresh: dict | None = None) -> list[str]:
    """How the committed known outputs (and the predictions' reference outcomes, and the hint
    prices) differ from what the kit computes now (empty: current)."""
    return _prediction_outcomes_stale() + _hint_prices_stale() + _known_outputs_stale(fresh)


def main() -> int:
    torch.set_num_threads(1)
    if _prediction_outcomes_stale():
        OUTCOMES_FILE.write_text(prediction_outcomes_rendered(), encoding="utf-8")
        print(f"wrote {OUTCOMES_FILE}")
    if _hint_prices_stale():
        PRICES_FILE.write_text(hint_prices_rendered(), encoding="utf-8")
        print(f"wrote {PRICES_FILE}")
    fresh = known_outputs()
    changed = _known_outputs_stale(fresh)
    if not changed:
        # Another CPU's last digits are no change: rewriting would only churn the committed file.
        print(f"{KNOWN_FILE} is current (values equal to float32's noise); left as it is")
        return 0
    KNOWN_FILE.write_text(rendered(fresh), encoding="utf-8")
    print(f"wrote {KNOWN_FILE}: {len(changed)} difference(s), the first: {changed[0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
