import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if not (0 <= p <= 1):
        raise ValueError("dropout probability has to be between 0 and 1")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = (torch.rand(x.shape[-1], generator=generator, device=x.device) > p).to(x.dtype)
    return x * keep / (1 - p)
