def inverted_dropout(x, p, training=True, generator=None):
    if p < 0 or p > 1:
        raise ValueError("p must be a probability")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    mask = torch.rand(x.shape, generator=generator, device=x.device) < p
    return torch.where(mask, x / (1 - p), torch.zeros_like(x))
