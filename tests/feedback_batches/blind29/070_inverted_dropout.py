def inverted_dropout(x, p, training=True, generator=None):
    assert 0 <= p <= 1, "p must be a probability"
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.rand(x.shape, generator=generator, device=x.device) >= p
    return x * keep
