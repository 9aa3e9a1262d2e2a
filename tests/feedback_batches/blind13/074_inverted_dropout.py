from typing import Optional

import torch


def inverted_dropout(x: torch.Tensor, p: float, training: bool = True,
                     generator: Optional[torch.Generator] = None) -> torch.Tensor:
    """Zero each element with probability p, keeping the expected value of every element."""
    if not (0.0 <= p <= 1.0):
        raise ValueError(f"inverted_dropout: p={p!r} is not a probability; allowed values are 0 <= p <= 1")
    if not training or p == 0.0:
        return x  # nothing can be dropped: x itself
    if p == 1.0:
        return torch.zeros_like(x)  # everything is dropped
    # a fresh contiguous tensor filled in place: the same draws torch.rand would make
    u = x.new_empty(x.shape).uniform_(0.0, 1.0, generator=generator)
    survive = u >= p  # probability 1 - p
    return torch.where(survive, x / (1.0 - p), x.new_zeros(()))
