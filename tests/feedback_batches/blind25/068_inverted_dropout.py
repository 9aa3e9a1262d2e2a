def inverted_dropout(x, p, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError(f"p must be a probability in [0, 1], got p={p}")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    u = torch.empty_like(x).uniform_(generator=generator)    # the shape, dtype and device of x
    return torch.where(u >= p, x / (1 - p), torch.zeros_like(x))
