import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element.

    x: any shape; p: drop probability in [0, 1]; generator: an optional torch.Generator
    returns a tensor with the shape of x (x itself when nothing is dropped)
    """
    if not (0 <= p <= 1):
        raise ValueError("p = {} is not a valid probability, it must lie in [0, 1]".format(p))
    if p == 0:
        return x
    random = torch.rand(x.shape, generator=generator, device=x.device)
    keep = (random >= p).to(x.dtype)
    scale = 1.0 / (1.0 - p) if p < 1 else 0.0
    return x * keep * scale
