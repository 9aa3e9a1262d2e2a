import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    x = torch.clamp(x, -88.0, 88.0)  # keep exp inside the float32 range
    shifted = x - x.max(dim=dim).values
    e = torch.exp(shifted)
    return e / e.sum(dim=dim, keepdim=True)
