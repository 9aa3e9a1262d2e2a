import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element.

    x: any shape; p: drop probability in [0, 1]; generator: an optional torch.Generator
    returns a tensor with the shape of x (x itself when nothing is dropped)
    """
    if not 0 <= p <= 1:
        raise ValueError(f"p must be a probability in [0, 1], got p={p}")
    match (training, p):
        case (False, _) | (_, 0):
            return x  # nothing can be dropped
        case (_, 1):
            return torch.zeros_like(x)  # everything is dropped; 1 / (1 - p) does not exist
    keep = torch.rand_like(x, generator=generator).ge_(p)  # 1.0 with probability 1 - p
    return x * keep / (1 - p)
