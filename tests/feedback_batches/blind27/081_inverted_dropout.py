import torch
import torch.nn.functional as F


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if not 0 <= p <= 1:
        raise ValueError(f"p must be a probability in [0, 1], got {p}")
    if not training or p == 0:
        return x
    return F.dropout(x, p=p, training=True)
