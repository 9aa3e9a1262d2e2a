"""Which torch functions a student's code calls: the "from the formula" stages may not call a
library softmax (ARCHITECTURE.md, "Fairness").

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
    with _Recorder() as recorder:
        call()
    return any("softmax" in name for name in recorder.names)
