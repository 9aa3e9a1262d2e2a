from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class _KeepMask:
    """Draws which elements survive: each with probability 1 - p."""

    p: float

    def __post_init__(self):
        if not 0.0 <= self.p <= 1.0:
            raise ValueError(f"dropout probability must lie in [0, 1]; p={self.p} was given")

    def like(self, x, generator):
        draws = torch.empty(x.shape, dtype=x.dtype, device=x.device).uniform_(generator=generator)
        return draws >= self.p


def inverted_dropout(x, p, training=True, generator=None):
    keep = _KeepMask(p)
    if not training or p == 0:
        return x
    if p == 1:
        return x.new_zeros(x.shape)
    return x * keep.like(x, generator) / (1 - p)
