from typing import Optional

import torch


def inverted_dropout(x: torch.Tensor, p: float, training: bool = True,
                     generator: Optional[torch.Generator] = None) -> torch.Tensor:
    """Zero each element with probability p, keeping the expected value of every element."""
    if not (0.0 <= p <= 1.0):
        raise ValueError(f"p must be a probability in [0, 1], got p={p!r}")
    if not training or p == 0:
        return x
    if p == 1:
        return x.new_zeros(x.shape)
    u = torch.rand(x.shape, generator=generator, device=x.device)
    return torch.where(u < p, torch.zeros_like(x), x / (1 - p))
