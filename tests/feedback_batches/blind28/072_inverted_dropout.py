def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if not (0.0 <= p <= 1.0):
        raise ValueError(f"dropout probability must lie in [0, 1]; got {p}")
    match (training, p):
        case (False, _) | (_, 0 | 0.0):
            return x
        case (_, 1 | 1.0):
            return torch.zeros_like(x)
    uniform = torch.rand(x.shape, generator=generator, device=x.device)
    survives = uniform.lt(1.0 - p)
    return torch.where(survives, x / (1.0 - p), torch.zeros((), dtype=x.dtype, device=x.device))
