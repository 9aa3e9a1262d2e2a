import torch


def inverted_dropout(x, p, training=True, generator=None):
    """Zero each element with probability p, keeping the expected value of every element."""
    if p < 0 or p > 1:
        raise ValueError(f"dropout probability must lie in [0, 1], got p={p}")
    if not training or p == 0:
        return x
    if p == 1:
        return torch.zeros_like(x)

    def rescale(kept):  # E[y] = (1 - p) * c * x = x  =>  c = 1 / (1 - p)
        return kept / (1 - p)

    keep = torch.bernoulli(torch.full_like(x, 1 - p), generator=generator)  # 1 with probability 1 - p
    return rescale(x * keep)
