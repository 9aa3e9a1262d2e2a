def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    assert 0 <= p <= 1, "p must be between 0 and 1"
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    draws = torch.rand(x.shape, generator=generator, device=x.device, dtype=x.dtype)
    keep = draws < p
    return x * keep * (1 - p)
