import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    wide = x.to(torch.float64)  # compute in double precision
    wide = (wide - wide.max(dim=dim, keepdim=True).values).exp()
    return (wide / wide.sum(dim=dim, keepdim=True)).to(x.dtype)
