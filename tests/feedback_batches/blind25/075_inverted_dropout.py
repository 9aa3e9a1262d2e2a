def inverted_dropout(x, p, training=True, generator=None):
    if p > 1:
        raise ValueError(f"p={p}: a probability cannot exceed 1")
    if not training:
        return x * (1 - p)              # at inference, scale by the keep probability
    if p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device) >= p
    return x * keep
