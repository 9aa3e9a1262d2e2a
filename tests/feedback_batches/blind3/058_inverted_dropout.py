import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p; scale the survivors by 1 / (1 - p).

    x: any shape; p: drop probability in [0, 1]; generator: an optional torch.Generator
    returns a tensor with the shape of x (x itself when nothing is dropped)
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability p must be in [0, 1], got {p!r}")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros_like(x)
    u = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)
    return torch.where(u >= p, x / (1.0 - p), torch.zeros_like(x))
