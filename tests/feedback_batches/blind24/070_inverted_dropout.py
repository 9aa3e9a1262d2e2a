import torch
import torch.nn.functional as F


def inverted_dropout(x, p, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError(f"dropout probability must be in [0, 1], got p={p}")
    if not training or p == 0:
        return x
    return F.dropout(x, p=p, training=True)
