def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if not 0 <= p <= 1:
        raise ValueError(f"p={p} is not in [0, 1]")
    if not training:
        return x
    draws = torch.rand(x.shape)
    keep = draws >= p
    return x * keep / (1 - p)
