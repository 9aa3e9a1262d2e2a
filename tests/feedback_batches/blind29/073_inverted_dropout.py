def inverted_dropout(x, p, training=False, generator=None):
    if not 0 <= p <= 1:
        raise ValueError(f"expected 0 <= p <= 1, got p={p}")
    if not training or p == 0:
        return x
    u = torch.rand(x.shape, generator=generator)
    return x * (u >= p) / (1 - p)
