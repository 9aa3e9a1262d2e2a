def inverted_dropout(x, p, training=True, generator=None):
    if p < 0 or p >= 1:
        raise ValueError(f"expected 0 <= p < 1, got p={p}")
    if not training:
        return x * (1 - p)
    if p == 0:
        return x
    keep = torch.rand(x.shape, generator=generator, device=x.device) < p
    return x * keep / (1 - p)
