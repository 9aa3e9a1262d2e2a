import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    biggest, _ = torch.max(x, dim=dim)
    e = torch.exp(x - biggest.unsqueeze(-1))
    return e / torch.sum(e)
