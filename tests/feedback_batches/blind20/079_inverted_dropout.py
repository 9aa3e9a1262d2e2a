import torch


def inverted_dropout(x, p, training=True, generator=None):
    if not (0.0 <= p <= 1.0):
        raise ValueError("dropout probability must lie in [0, 1]; p = %r was given" % (p,))
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return x.new_zeros(x.shape)
    u = torch.empty_like(x).uniform_(0.0, 1.0, generator=generator)
    return torch.where(u > p, x / (1.0 - p), torch.zeros_like(x))
