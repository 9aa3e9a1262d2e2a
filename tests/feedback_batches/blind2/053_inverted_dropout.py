import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p; scale the survivors by 1 / (1 - p)."""
    if p < 0 or p > 1:
        raise ValueError(f"p = {p} is not a probability in [0, 1]")
    if p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    mask = (torch.rand(x.shape, generator=generator, device=x.device) >= p).to(x.dtype)
    return mask * x / (1 - p)
