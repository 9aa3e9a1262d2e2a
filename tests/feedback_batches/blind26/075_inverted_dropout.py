def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if p < 0 or p > 1:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0:
        return x
    if p == 1:
        return x.new_zeros(x.shape)
    keep = torch.rand(x.shape, generator=generator, device=x.device, dtype=x.dtype).ge(p)
    return x.mul(keep).mul(1.0 / (1.0 - p))
