"""Which torch functions a student's code calls: the "from the formula" stages may not call a
library softmax, nor inverted dropout torch's dropout (ARCHITECTURE.md, "Fairness").

A ``TorchFunctionMode`` sees every torch function a call makes, however it is spelled:
``torch.softmax``, ``F.softmax``, ``Tensor.softmax``, ``nn.Softmax``, ``torch.special.softmax``,
``log_softmax`` and ``torch.ops.aten._softmax`` all show a name with "softmax" in it. The hidden
tests record the same way inside the sandboxed worker.
"""

from __future__ import annotations

from collections.abc import Callable

from torch.overrides import TorchFunctionMode


class _Recorder(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.names: set[str] = set()

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.names.add(getattr(func, "__name__", ""))
        return func(*args, **(kwargs or {}))


def library_softmax_called(call: Callable[[], object]) -> bool:
    """Run ``call`` and say whether it called any softmax of torch's."""
    return _library_called(call, "softmax")


def library_dropout_called(call: Callable[[], object]) -> bool:
    """Run ``call`` and say whether it called any dropout of torch's (``F.dropout``, ``nn.Dropout``,
    ``torch.dropout``): inverted dropout is written by hand, to see there is no magic."""
    return _library_called(call, "dropout")


def _library_called(call: Callable[[], object], word: str) -> bool:
    with _Recorder() as recorder:
        call()
    return any(word in name for name in recorder.names)
