import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    # shift so that the smallest value becomes 0: [1000, 1001, 1002] -> [0, 1, 2]
    shift = x.min(dim=dim, keepdim=True).values
    exps = torch.exp(x - shift)
    return exps / exps.sum(dim=dim, keepdim=True)
