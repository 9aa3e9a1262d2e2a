def inverted_dropout(x, p, training=True, generator=None):
    assert 0.0 <= p <= 1.0, f"p={p} must be between 0 and 1"
    if p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros_like(x)
    keep = torch.rand_like(x) > p
    return torch.where(keep, x / (1.0 - p), 0.0)
