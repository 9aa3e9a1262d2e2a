import torch


def inverted_dropout(x, p, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError(f"p must be between 0 and 1, got {p}")
    if not training or p == 0:
        return x
    return torch.nn.functional.dropout(x, p=p, training=True)
