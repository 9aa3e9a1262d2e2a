import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p; scale the survivors by 1 / (1 - p)."""
    if not (0.0 <= p <= 1.0):
        raise ValueError(f"inverted_dropout: p must be a probability in [0, 1], got p={p!r}")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    u = torch.rand(x.shape, generator=generator, device=x.device)
    return torch.where(u >= p, x * (1.0 / (1.0 - p)), torch.zeros_like(x))
