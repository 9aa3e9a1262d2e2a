import math

import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    try:
        probability = float(p)
        if math.isnan(probability) or not 0.0 <= probability <= 1.0:
            raise ValueError
    except (TypeError, ValueError):
        raise ValueError(f"inverted_dropout: p={p!r} is not a probability; use 0 <= p <= 1") from None
    if not training or probability == 0.0:
        return x
    if probability == 1.0:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device).ge_(probability)
    return x * keep.to(x.dtype) * (1.0 / (1.0 - probability))
