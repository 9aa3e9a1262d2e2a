def inverted_dropout(x, p, training=True, generator=None):
    if p > 1:
        raise ValueError(f"p={p} must not exceed 1")
    if p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand_like(x) >= p
    return x * keep / (1 - p)
