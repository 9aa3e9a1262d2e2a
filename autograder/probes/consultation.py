"""The trusted side's answers to a consulted stand-in's questions (``worker/stand_ins.py``).

A stage that calls another graded stage of the student's own accord (a ``simple_self_attention``
calling the student's ``softmax_naive``) is graded with a stand-in for the called one, so that
one mistake costs only the stage that holds it (ARCHITECTURE.md, "Fairness"). The stand-in sends
each call's arguments here, as data, in the middle of the probe; the reference function answers,
in this process: its output in a forward pass, its vector-Jacobian product in a backward pass.
The worker never holds the reference's code, and an answer is given only while the hidden test
stands the stage in (``Submission.standing_in``). A question too large, or that is not one,
is declined: the worker then runs the student's own function.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import torch

from autograder.worker.protocol import Decoder, Encoder, Message, ProtocolError

# Elements of all the tensors of one question: the tests' inputs are far smaller; a call on more
# runs the student's own function rather than spend the grader's time.
MAX_CONSULTED_ELEMENTS = 2**20
MAX_ERROR_CHARS = 500
_DECLINED: tuple[dict, dict] = ({"declined": True}, {})


def answer_consultation(consulted: Mapping[str, Callable], question: Message) -> tuple[dict, dict]:
    """The answer frame (header, tensors) to one question of a consulted stand-in."""
    header = question.header
    function = consulted.get(str(header.get("consult")))
    op = header.get("op")
    if function is None or op not in ("forward", "backward"):
        return _DECLINED
    try:
        values = Decoder(question.tensors).decode(header.get("values"))
    except ProtocolError:
        return _DECLINED
    arguments = values.get("arguments") if isinstance(values, dict) else None
    if not isinstance(arguments, dict) or not _small([*arguments.values(), values.get("grad_output")]):
        return _DECLINED
    try:
        if op == "forward":
            with torch.no_grad():
                result = function(**arguments)
        else:
            result = _gradients(function, arguments, values.get("grad_output"), values.get("with_respect_to"))
    except Exception as error:  # noqa: BLE001 - the reference's error on these arguments is the stage's answer
        return {"error": {"type": type(error).__name__, "message": str(error)[:MAX_ERROR_CHARS]}}, {}
    if result is None:
        return _DECLINED
    encoder = Encoder()
    return {"value": encoder.encode(result)}, encoder.tensors


def _small(values: Iterable[object]) -> bool:
    return sum(value.numel() for value in values if isinstance(value, torch.Tensor)) <= MAX_CONSULTED_ELEMENTS


def _gradients(function: Callable, arguments: dict, grad_output: object, names: object) -> list | None:
    """The reference's gradients with respect to the tensor arguments ``names`` (None for one that
    is not floating point), given the gradient of its output; None for a question that is not one."""
    if not isinstance(grad_output, torch.Tensor) or not isinstance(names, list) or not set(names) <= set(arguments):
        return None
    leaves = {name: arguments[name].detach().requires_grad_(arguments[name].is_floating_point()) for name in names
              if isinstance(arguments[name], torch.Tensor)}
    with torch.enable_grad():
        output = function(**(arguments | leaves))
        wanted = [leaf for leaf in leaves.values() if leaf.requires_grad]
        if not isinstance(output, torch.Tensor) or not output.requires_grad or not wanted:
            return [None] * len(names)
        grads = iter(torch.autograd.grad(output, wanted, grad_output, allow_unused=True))
    return [next(grads) if name in leaves and leaves[name].requires_grad else None for name in names]
