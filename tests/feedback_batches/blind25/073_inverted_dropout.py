def inverted_dropout(x, p, training=True, generator=None):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"p should be in [0, 1] but is {p}")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros_like(x)
    mask = (torch.rand(x.shape, generator=generator) >= p).to(x.dtype)
    x.mul_(mask).div_(1.0 - p)          # no extra memory
    return x
