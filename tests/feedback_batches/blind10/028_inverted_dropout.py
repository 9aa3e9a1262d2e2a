import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element.

    x: any shape; p: drop probability in [0, 1]; generator: an optional torch.Generator
    returns a tensor with the shape of x (x itself when nothing is dropped)
    """
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability must be between 0 and 1 (inclusive), got p={p}")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    # keep[i] ~ Bernoulli(1 - p), drawn on x's device from the given generator
    keep_prob = torch.full(x.shape, 1.0 - p, dtype=torch.float32, device=x.device)
    keep = torch.bernoulli(keep_prob, generator=generator).to(x.dtype)
    return x * keep * (1.0 / (1.0 - p))
