def inverted_dropout(x, p, training=True, generator=None):
    if not (0.0 <= p <= 1.0):
        raise ValueError(f"dropout probability must lie in [0, 1]; got {p!r}")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return x.new_zeros(x.shape)
    keep_prob = torch.full_like(x, 1.0 - p)
    keep = torch.bernoulli(keep_prob, generator=generator)   # 1 with probability 1 - p
    return x * keep / keep_prob
