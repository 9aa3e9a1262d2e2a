from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class _DropoutRate:
    p: float

    def __post_init__(self):
        if not (0 <= self.p <= 1):  # also rejects nan
            raise ValueError(f"p must lie in [0, 1]; got p={self.p!r}")

    @property
    def scale(self):
        return 1.0 / (1.0 - self.p)


def inverted_dropout(x, p, training=True, generator=None):
    rate = _DropoutRate(p)
    if not training or rate.p == 0:
        return x
    if rate.p == 1:
        return x.new_zeros(x.shape)
    survivors = torch.rand(x.shape, generator=generator, device=x.device) < 1 - rate.p
    return x * survivors.to(x.dtype) * rate.scale
