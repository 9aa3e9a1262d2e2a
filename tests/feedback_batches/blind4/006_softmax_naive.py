import torch


def softmax_naive(x, dim=-1):
    """exp(x) / sum(exp(x)) along `dim`; the result has the shape of x."""
    # exp(x) / sum(exp(x)) = exp(x - log(sum(exp(x)))), all in one go
    log_denominator = torch.logsumexp(x, dim=dim, keepdim=True)
    return torch.exp(x - log_denominator)
