import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p; scale the survivors by 1 / (1 - p).

    x: any shape; p: drop probability in [0, 1]; generator: an optional torch.Generator
    returns a tensor with the shape of x (x itself when nothing is dropped)
    """
    # nothing to do at inference time
    if not training:
        return x
    if not 0 <= p <= 1:
        raise ValueError(f"p = {p} is not a probability: it must lie in [0, 1]")
    if p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device, dtype=x.dtype) >= p
    return x * keep / (1 - p)
