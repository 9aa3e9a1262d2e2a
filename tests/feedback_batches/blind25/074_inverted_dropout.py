def inverted_dropout(x, p, training=True, generator=None):
    if p < 0 or p >= 1:
        raise ValueError(f"p={p} is outside [0, 1)")
    if not training or p == 0:
        return x
    # one draw per feature, broadcast over the other dimensions
    draws = torch.rand(x.shape[-1], generator=generator, dtype=x.dtype, device=x.device)
    return x * (draws >= p) / (1 - p)
