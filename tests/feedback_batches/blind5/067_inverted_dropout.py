import torch


def inverted_dropout(x, p, training=True, generator=None):
    assert 0.0 <= p <= 1.0, "p must be a probability"
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros_like(x)
    u = torch.rand(x.shape, generator=generator, device=x.device)
    return torch.where(u >= p, x / (1.0 - p), torch.zeros_like(x))
