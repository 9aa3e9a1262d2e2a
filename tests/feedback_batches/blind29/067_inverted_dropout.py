def inverted_dropout(x, p, training=True, generator=None):
    """Inverted dropout with a Bernoulli keep-mask drawn at rate 1 - p."""
    if not 0 <= p <= 1:
        raise ValueError(f"p must be a probability in [0, 1], got p={p}")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    keep = torch.bernoulli(torch.full_like(x, 1 - p), generator=generator)  # 1 with probability 1 - p
    return x * keep / (1 - p)
