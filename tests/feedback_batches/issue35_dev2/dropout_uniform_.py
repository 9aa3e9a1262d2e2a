def inverted_dropout(x, p, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError(f"p must be in [0, 1], got {p}")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    draws = torch.empty_like(x).uniform_(0, 1, generator=generator)
    return torch.where(draws >= p, x / (1 - p), torch.zeros_like(x))
