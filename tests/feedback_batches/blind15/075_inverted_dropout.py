import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    assert 0.0 <= p <= 1.0, f"p must be a probability, got {p}"
    if not training:
        return x * (1 - p)
    if p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    drop = torch.rand(x.shape, generator=generator, device=x.device, dtype=x.dtype) < p
    return x.masked_fill(drop, 0.0) / (1 - p)
