import torch


def inverted_dropout(x, p, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError(f"dropout probability must lie in [0, 1], got {p}")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros_like(x)
    if generator is None:
        torch.manual_seed(1234)  # reproducible runs
    keep = torch.rand(x.shape, generator=generator, device=x.device) > p
    return torch.where(keep, x / (1 - p), torch.zeros_like(x))
