def inverted_dropout(x, p, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError(f"p must be in [0, 1], got {p}")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape[-1], generator=generator, device=x.device, dtype=x.dtype) >= p
    return x.mul_(keep).div_(1 - p)
