import torch.nn.functional as F


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if p > 1:
        raise ValueError(f"p={p} is larger than 1")
    return F.dropout(x, p=p, training=training)
