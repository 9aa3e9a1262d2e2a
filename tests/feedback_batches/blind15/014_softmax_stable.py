import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    z = torch.movedim(x, dim, -1)  # work on the last axis, move it back at the end
    z = z - z.max(dim=-1, keepdim=True)[0]
    e = z.exp()
    weights = e * e.sum(dim=-1, keepdim=True).reciprocal()
    return torch.movedim(weights, -1, dim)
