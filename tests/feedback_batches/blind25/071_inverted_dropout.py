def inverted_dropout(x, p, training=True, generator=None):
    p = min(max(p, 0.0), 1.0)           # keep p a valid probability
    if not training:
        return x
    keep = torch.rand(x.shape, generator=generator, device=x.device) >= p
    return x * keep / (1.0 - p)
