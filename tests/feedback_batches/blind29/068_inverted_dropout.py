def inverted_dropout(x, p, training=True, generator=None):
    match (training, p):
        case _ if not (0.0 <= p <= 1.0):
            raise ValueError(f"dropout probability must lie in [0, 1]; got p={p!r}")
        case (False, _) | (_, 0 | 0.0):
            return x
        case (_, 1 | 1.0):
            return x.new_zeros(x.shape)
    survive = torch.empty_like(x).uniform_(generator=generator) >= p
    return torch.where(survive, x / (1.0 - p), x.new_zeros(()))
