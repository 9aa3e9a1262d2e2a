import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Pure function in the JAX spirit: the randomness comes only from the `generator` key."""
    if not (0.0 <= p <= 1.0):
        raise ValueError(f"inverted_dropout: p must lie in [0, 1], got {p!r}")
    if (not training) or p == 0:
        return x
    if p == 1:
        return x.new_zeros(x.shape)
    keep_prob = 1.0 - p
    u = torch.rand(x.shape, generator=generator, device=x.device)
    return torch.where(u < keep_prob, x / keep_prob, torch.zeros_like(x))
