def inverted_dropout(x, p, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError(f"p={p} is not in [0, 1]")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    r = torch.rand(x.shape, generator=generator, device=x.device, dtype=x.dtype)
    mask = r < p  # drop with probability p
    return x * mask / p
