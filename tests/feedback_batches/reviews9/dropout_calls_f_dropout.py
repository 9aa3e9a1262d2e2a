import torch.nn.functional as F

def inverted_dropout(x, p, training=True, generator=None):
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be in [0, 1], got {p}")
    return F.dropout(x, p, training=training)
