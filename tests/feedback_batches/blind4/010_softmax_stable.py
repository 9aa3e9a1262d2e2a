import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    # the shift is a constant as far as softmax is concerned, so it needs no gradient of its own
    biggest, _ = torch.max(x, dim, keepdim=True)
    shifted = x - biggest.detach()
    numerator = shifted.exp()
    return numerator / numerator.sum(dim, keepdim=True)
