import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if p < 0 or p > 1 or p != p:  # p != p catches nan
        raise ValueError(f"dropout probability must lie in [0, 1], got p = {p}")
    if not training or p == 0:
        return x
    if p == 1:
        return x.new_zeros(x.shape)
    # one Bernoulli(1 - p) draw per element, from the generator, on x's device
    survive = torch.empty(x.shape, dtype=torch.bool, device=x.device).bernoulli_(1 - p, generator=generator)
    return torch.where(survive, x / (1 - p), torch.zeros_like(x))
