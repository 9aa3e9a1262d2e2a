import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p; scale the survivors by 1 / (1 - p)."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"inverted_dropout expects a drop probability p in [0, 1]; got p = {p}")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return x.new_zeros(x.shape)
    noise = torch.empty_like(x).uniform_(0.0, 1.0, generator=generator)  # x's device and dtype
    keep = noise >= p
    return x * keep / (1.0 - p)
