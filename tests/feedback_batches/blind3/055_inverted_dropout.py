import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p; scale the survivors by 1 / (1 - p).

    x: any shape; p: drop probability in [0, 1]; generator: an optional torch.Generator
    returns a tensor with the shape of x (x itself when nothing is dropped)
    """
    if not (0.0 <= p <= 1.0):
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros(x.shape)  # everything dropped
    u = torch.rand(x.shape, generator=generator, device=x.device, dtype=x.dtype)
    return x * (u >= p) / (1.0 - p)
