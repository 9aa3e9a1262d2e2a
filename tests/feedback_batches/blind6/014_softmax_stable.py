import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    # the shift c cancels out of softmax (and out of its gradient), so it needs no gradient itself
    c = x.detach().amax(dim=dim, keepdim=True)
    numer = torch.exp(x - c)
    return numer / torch.sum(numer, dim=dim, keepdim=True)
