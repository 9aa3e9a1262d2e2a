import torch


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    e = torch.exp(x)
    match x.ndim:
        case 1:
            return e / e.sum()
        case _:
            return e / e.sum(dim=1, keepdim=True)  # one row per query
