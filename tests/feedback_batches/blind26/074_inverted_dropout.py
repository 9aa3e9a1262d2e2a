def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"p must be a probability in [0, 1], got p={p}")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return torch.zeros_like(x)
    draws = torch.empty_like(x).uniform_(generator=generator)  # U[0, 1) like torch.rand
    return torch.where(draws >= p, x / (1.0 - p), torch.zeros_like(x))
