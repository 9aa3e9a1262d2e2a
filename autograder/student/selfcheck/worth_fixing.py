"""What a public check finds that is worth fixing and not graded: said beside its verdict, never
failing it.

The grader charges only what changes what the contract asks for (ARCHITECTURE.md, "Fairness"), and
tells the rest in a note that costs nothing ("Not graded, but worth fixing: ..."): parameters
created in another order than the notebook's, or projections fused in one layer, compute the
same, and the grader gives them its weights by name; a result of another dtype than its inputs'
is right at the lower precision. A check that failed them would say what the grader
contradicts, so it passes and says the same note.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence

import torch
from torch import nn

from .catalog import text
from .expectations import attention_weights, misnamed_dropout_of

_notes: list[list[str]] = []  # the notes of each check running, innermost last


def note(key: str, **fields) -> None:
    """Say the note ``key`` with its fields beside the running check's verdict."""
    if _notes:
        said = text(key, **fields)
        if said not in _notes[-1]:
            _notes[-1].append(said)


@contextlib.contextmanager
def collected() -> Iterator[list[str]]:
    """The notes of the check run inside, in the order it found them."""
    notes: list[str] = []
    _notes.append(notes)
    try:
        yield notes
    finally:
        _notes.pop()


def note_dtype(results: Sequence[tuple[object, torch.Tensor]], what: str, argument: str) -> None:
    """Note the first of ``results``, each a result and the input named ``argument`` it was given,
    whose floating dtype is not its input's (float32 from float64 inputs, float64 from float32
    ones), as the grader notes one for no points (``hidden/worth_fixing.py``): its values are right
    at the lower precision, so the check passes, and it says the grader's words so that the two
    never disagree."""
    for result, like in results:
        if isinstance(result, torch.Tensor) and result.is_floating_point() and result.dtype != like.dtype:
            note("note.dtype", what=what, result=result.dtype, inputs=like.dtype, argument=argument)
            return


def noted_dropout_name(module: nn.Module, what: str, x: torch.Tensor) -> bool:
    """Note a dropout layer kept under another name than ``dropout`` (``layer_names``) that drops
    the attention weights (it receives (..., T, T) on ``x`` in training mode; a residual dropout
    is not the one the demos read), as the grader notes it; whether there was one to note."""
    misnamed = misnamed_dropout_of(module)
    if misnamed is None or attention_weights(module.train(), x) is None:
        return False
    note("note.dropout_name", what=what, name=misnamed)
    return True
