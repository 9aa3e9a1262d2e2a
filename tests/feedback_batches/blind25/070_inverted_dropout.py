def inverted_dropout(x, p, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError(f"p={p} is not a probability; use a value in [0, 1]")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    rand = torch.rand(x.shape, generator=generator, dtype=x.dtype, device=x.device)
    mask = rand < p                     # the elements that survive
    return x * mask * (1 - p)
