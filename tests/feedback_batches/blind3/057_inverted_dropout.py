import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p; scale the survivors by 1 / (1 - p).

    x: any shape; p: drop probability in [0, 1]; generator: an optional torch.Generator
    returns a tensor with the shape of x (x itself when nothing is dropped)
    """
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"inverted_dropout: p must be in [0, 1], got p={p}")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros_like(x)
    noise = torch.rand(x.shape, generator=generator, device=x.device)
    mask = (noise >= p).float()  # 1.0 keep, 0.0 drop
    return x * mask / (1.0 - p)
