def inverted_dropout(x, p, training=True, generator=None):
    assert 0.0 <= p <= 1.0, f"p must be in [0, 1], got {p}"
    if not training or p == 0.0:
        return x
    u = torch.rand(x.shape, generator=generator, device=x.device, dtype=x.dtype)
    return torch.where(u >= p, x, 0.0) / (1.0 - p)
