import torch


def inverted_dropout(x, p, training=True, generator=None):
    """JAX-style: randomness must come from an explicit key; default to a fixed key."""
    if not 0 <= p <= 1:
        raise ValueError(f"p must be in [0, 1], got {p}")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    key = generator if generator is not None else torch.Generator().manual_seed(0)
    keep = torch.rand(x.shape, generator=key) >= p
    return x * keep.to(x.device) / (1 - p)
