def inverted_dropout(x, p, training=True, generator=None):
    if not 0 <= p <= 1:
        raise ValueError(f"p={p} is not a probability in [0, 1]")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)
    draws = torch.rand(x.shape[-1], generator=generator, device=x.device)  # one draw per feature
    keep = (draws >= p).to(x.dtype)
    return x.mul_(keep).div_(1 - p)
