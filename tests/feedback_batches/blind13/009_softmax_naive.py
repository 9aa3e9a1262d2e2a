import torch


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    e = torch.exp(x)
    # every exp is positive, so the L1 norm along dim is exactly the sum of the exps
    return e / torch.linalg.vector_norm(e, ord=1, dim=dim, keepdim=True)
