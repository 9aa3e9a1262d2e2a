"""What a function stage does that its notebook asks for in words but the grader does not charge.

A correct answer keeps full marks whatever its form (ARCHITECTURE.md, "Fairness"), yet notebook 1
asks for its scores "without a Python loop", and the demos of every notebook run where a result
keeps its inputs' dtype and device and passes gradients back. These checks run the student's function as a GPU and
autograd would, and record what they find as one note that costs nothing ("Not graded, but worth
fixing: ..."), so that the student and a reviewer see every fault of a stage:

- a result of another dtype than the inputs' (float32 for float64 inputs: a tensor made without
  ``dtype=``, ``.float()``, numbers gathered with ``.item()``);
- a result left on the CPU, or torch refusing to mix devices, for inputs on the stand-in GPU (the
  worker's fake tensors, ``worker/fake_gpu.py``);
- no gradient back to an input (``.detach()``, a tensor rebuilt from Python numbers; an input that
  wrong values ignore is the value tests' fault, and not noted again);
- torch calls that grow with the number of tokens: a Python loop over them, only where the
  notebook's text asks for none (``loop``);
- a form the notebook asks for in words, read off the torch functions the call makes (``form``):
  a masked softmax in one pass, with no second normalisation after a softmax (``"one_pass"``).
  (The running mean through a softmax is what its stage is for, and is graded:
  ``test_causal_average_softmax_goes_through_a_softmax``.)

In notebooks 2 to 4 a stage's device is charged by its ``*_on_meta_device`` check, and a gradient
by its gradient test where it has one (``mask_and_renormalize``, ``masked_softmax``): those are
not noted again. A module's faults worth fixing are ``hidden/worth_fixing_modules.py``'s.

A call that raises on the plain inputs raises here too, as in the stage's value tests: there is
nothing to note about code that does not run.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import torch

from autograder.findings.finding import Finding, finding
from autograder.hidden import observations
from autograder.hidden.compare import TOLERANCES
from autograder.probes.client import Submission
from autograder.probes.errors import StudentError
from autograder.student.reading.error_hints import device_error, mistake_in_error
from autograder.student.reading.forms import LOOP_TOKENS, missing_form

# The most tokens tried past a loop of a fixed count (the demos' lengths are at most 16).
LONGEST_FIXED_LENGTH = 32
# torch's words for an index past the end of a dim: that dim's size, and the dim.
_TOKENS_OUT_OF_BOUNDS = re.compile(r"index \d+ is out of bounds for dimension (\d+) with size (\d+)")


def note_what_is_worth_fixing(student: Submission, name: str, args: tuple[torch.Tensor, ...],
                              names: tuple[str, ...], reference: Callable[..., torch.Tensor], call: str,
                              loop: Callable[[int], tuple[torch.Tensor, ...]] | None = None, *,
                              loop_asked: bool = False, device: bool = True, gradient: bool = True,
                              form: str | None = None, one_matrix: bool = False) -> None:
    """Note what ``name(*args)`` (float64 tensors on the CPU; ``reference``: the reference's
    function) does that is worth fixing and not graded: its result's dtype, its device on the
    stand-in GPU, the gradient back to each argument (``names``, in order) and, given ``loop``
    (the arguments for a number of tokens), whether its torch calls grow with the number of tokens:
    a loop over them where the notebook asks for none, or none where it asks for one (``loop_asked``),
    and, given ``form`` (``student.reading.forms.FORMS``), whether the call has that form.
    ``device`` and ``gradient`` False leave out what a graded check of the stage already charges
    (notebooks 2 to 4: the ``*_on_meta_device`` checks, the gradient tests). ``one_matrix``: the
    stage takes (..., T, T), so code that raises on the batch (the value tests charge that) is
    read on its first matrix alone."""
    try:
        result = student.call(name, *args)
    except StudentError as error:
        longer = past_a_fixed_length(lambda *longer_args: student.call(name, *longer_args), error, loop)
        if longer is None and not (one_matrix and args[0].dim() > 2):
            raise
        # Its loop counts to a fixed number, or it cannot take a batch (the value tests charge
        # that): what else it does shows on an input it runs on, where the loop's own count cannot
        # be read.
        args, loop = longer if longer is not None else (args[0][0], *args[1:]), None
        result = student.call(name, *args)
    if not isinstance(result, torch.Tensor):
        return  # the value tests say what it returns
    expected = reference(*args)
    problems = [*(_dtype(result, args[0], names[0]) or _dtype_of_float32(student, name, args, names[0])),
                *(_device(student, name, args, names[0]) if device else []),
                *(_gradient(student, name, args, names, result, expected) if gradient else [])]
    if loop is not None:
        problems += _loop_asked_for(student, name, loop) if loop_asked else _python_loop(student, name, loop)
    if form is not None:
        problems += _form(student, name, args, form)
    if problems:
        observations.note(finding("note.worth_fixing", call=call, problems=problems))


def past_a_fixed_length(call: Callable[..., object], error: StudentError,
                        loop: Callable[[int], tuple[torch.Tensor, ...]] | None) -> tuple[torch.Tensor, ...] | None:
    """The arguments (``loop``'s, for a number of tokens) of the fewest tokens on which ``call``
    gets past ``error``, an index out of bounds on the tokens' dim (a loop counting to a number
    written in the code): what it then returns or raises shows what else the code does. None when
    ``error`` is no such error, or no length up to ``LONGEST_FIXED_LENGTH`` gets past it."""
    bounds = _TOKENS_OUT_OF_BOUNDS.search(error.message) if error.type_name == "IndexError" else None
    if loop is None or bounds is None:
        return None
    dim, size = int(bounds.group(1)), int(bounds.group(2))
    for tokens in range(size + 1, LONGEST_FIXED_LENGTH + 1):
        args = loop(tokens)
        if args[0].dim() <= dim or args[0].shape[dim] != tokens:
            return None  # the dim out of bounds is not the tokens'
        try:
            call(*args)
        except StudentError as again:
            if again.type_name == "IndexError" and _TOKENS_OUT_OF_BOUNDS.search(again.message):
                continue
        return args
    return None


def _dtype(result: torch.Tensor, like: torch.Tensor, argument: str) -> list[Finding]:
    """A floating result of another dtype than ``like``, the stage's first argument (``argument``)."""
    if not result.is_floating_point() or result.dtype == like.dtype:
        return []
    return [finding("worth_fixing.dtype", actual=result.dtype, expected=like.dtype, argument=argument)]


def _dtype_of_float32(student: Submission, name: str, args: tuple[torch.Tensor, ...], argument: str) -> list[Finding]:
    """The call on float32 inputs: a result in float64 (``.double()`` on the way, a tensor made in
    float64) is another dtype too, which float64 inputs cannot show. One that raises is the value
    tests' fault."""
    try:
        result = student.call(name, *(arg.float() if isinstance(arg, torch.Tensor) and arg.is_floating_point() else arg
                                      for arg in args))
    except StudentError:
        return []
    return _dtype(result, args[0].float(), argument) if isinstance(result, torch.Tensor) else []


def _device(student: Submission, name: str, args: tuple[torch.Tensor, ...], argument: str) -> list[Finding]:
    """The call on the stand-in GPU: a result left on the CPU, or torch refusing to mix devices.
    Code the stand-in cannot run (it reads values, ``.item()``) runs on a GPU: nothing to note."""
    on_gpu = tuple(torch.empty(arg.shape, dtype=arg.dtype, device="meta") for arg in args)
    try:
        result = student.call_on_stand_in_gpu(name, *on_gpu)
    except StudentError as error:
        return [finding("worth_fixing.device_error", argument=argument)] if device_error(
            error.type_name, error.message) else []
    if isinstance(result, torch.Tensor) and result.device.type == "cpu":
        return [finding("worth_fixing.device", argument=argument)]
    return []


def _gradient(student: Submission, name: str, args: tuple[torch.Tensor, ...], names: tuple[str, ...],
              result: torch.Tensor, expected: torch.Tensor) -> list[Finding]:
    """The arguments no gradient reaches: all of them when autograd does not track the result;
    some, only when the values are right (wrong values that ignore an argument are charged by the
    value tests, and its missing gradient follows from them)."""
    if not result.is_floating_point():
        return []
    tracked = tuple(arg.detach().clone().requires_grad_() for arg in args)
    try:
        grads = student.backward(name, tracked, torch.ones(result.shape, dtype=result.dtype))["arg_grads"]
    except StudentError as error:
        if mistake_in_error(name, error.type_name, error.message, error.student_traceback) != "output_not_tracked":
            return []  # another error: not a gradient cut off, and no concern of this note
        return [finding("worth_fixing.gradient", arguments=", ".join(names))]
    cut = [argument for argument, grad in zip(names, grads, strict=False) if grad is None]
    if not cut or not _right_values(result, expected):
        return []
    return [finding("worth_fixing.gradient", arguments=", ".join(cut))]


def _right_values(result: torch.Tensor, expected: torch.Tensor) -> bool:
    """Whether ``result`` is the reference's ``expected``, at float32's precision at least."""
    rtol, atol = TOLERANCES[torch.float32]
    return result.shape == expected.shape and torch.allclose(result.double(), expected.double(), rtol=rtol, atol=atol)


def _keeps_its_length(student: Submission, name: str, args: tuple[torch.Tensor, ...]) -> bool:
    """Whether ``name(*args)`` returns a tensor of its first argument's shape (a position for each)."""
    try:
        result = student.call(name, *args)
    except StudentError:
        return False
    return isinstance(result, torch.Tensor) and result.shape == args[0].shape


def _torch_calls(student: Submission, name: str,
                 loop: Callable[[int], tuple[torch.Tensor, ...]]) -> tuple[int, int] | None:
    """The torch calls ``name`` makes for fewer tokens and for more (``LOOP_TOKENS``): one tensor
    operation makes as many for both; handling each token on its own (a loop, a comprehension,
    ``map``) makes more. None when a call raises (on sizes its own code gets wrong: the value
    tests say so, and the other notes still show)."""
    try:
        short, long = (student.count_torch_calls(name, *loop(tokens)) for tokens in LOOP_TOKENS)
    except StudentError:
        return None
    return short, long


def _python_loop(student: Submission, name: str, loop: Callable[[int], tuple[torch.Tensor, ...]]) -> list[Finding]:
    """A loop over the tokens where the notebook asks for one tensor operation."""
    calls = _torch_calls(student, name, loop)
    if calls is None or calls[1] <= calls[0]:
        return []
    short, long = calls
    return [finding("worth_fixing.python_loop", tokens=LOOP_TOKENS[0], calls=short, more_tokens=LOOP_TOKENS[1],
                    more_calls=long)]


def _loop_asked_for(student: Submission, name: str, loop: Callable[[int], tuple[torch.Tensor, ...]]) -> list[Finding]:
    """All positions at once where the notebook asks for the loop over them (the baseline that the
    vectorised stages after it are compared with, and what they teach to replace). A loop of a fixed
    length makes as many calls for any input too, and returns that many positions: not said then."""
    calls = _torch_calls(student, name, loop)
    if calls is None:
        return []
    short, long = calls
    if long > short or not all(_keeps_its_length(student, name, loop(tokens)) for tokens in LOOP_TOKENS):
        return []
    return [finding("worth_fixing.loop_asked", tokens=LOOP_TOKENS[0], more_tokens=LOOP_TOKENS[1], calls=short)]


def _form(student: Submission, name: str, args: tuple[torch.Tensor, ...], form: str) -> list[Finding]:
    """The form the notebook asks for, when the call's torch functions show another
    (``student.reading.forms``, which the public check reads too)."""
    _, called = student.call_recording_torch_functions(name, *args, consulted=True)
    missing = missing_form(form, called)
    return [finding(f"worth_fixing.{missing}")] if missing else []


# What an argument is filled with after the call: a result that holds it shares the argument's memory.
_FILL = 7.0


def note_result_dtype(student: Submission, name: str, args: tuple, argument: str, call: str) -> bool:
    """Note a result of another dtype than the first argument's (float64, then float32 inputs), for
    a stage whose values cannot be compared with the reference's (dropout draws its own numbers);
    whether it noted one."""
    try:
        result = student.call(name, *args)
    except StudentError:
        return False  # the value tests say why
    problems = (_dtype(result, args[0], argument) or _dtype_of_float32(student, name, args, argument)
                if isinstance(result, torch.Tensor) else [])
    if problems:
        observations.note(finding("note.worth_fixing", call=call, problems=problems))
    return bool(problems)


def note_input_returned(student: Submission, name: str, calls: list[tuple[tuple, dict, str]]) -> None:
    """Note the ``calls`` (arguments, keywords, as written) where the notebook asks for the first
    argument itself back (nothing to compute: dropout that can drop nothing) and the result is a
    new tensor of its values. A result of other values is the value tests' fault, not noted."""
    copies = []
    for args, kwargs, written in calls:
        original = args[0].clone()
        result = student.call_then_fill(name, (args[0].clone(), *args[1:]), {0: _FILL}, **kwargs)
        if (isinstance(result, torch.Tensor) and result.shape == original.shape
                and not bool((result == _FILL).all()) and torch.equal(result, original)):
            copies.append(written)
    if copies:
        observations.note(finding("note.worth_fixing", call=" and ".join(copies),
                                  problems=[finding("worth_fixing.copy_of_input")]))
