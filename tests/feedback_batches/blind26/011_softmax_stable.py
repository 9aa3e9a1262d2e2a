import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    # log-sum-exp by hand: log softmax = z - log(sum(exp(z))) with z = x - max
    z = x - x.amax(dim=dim, keepdim=True)
    log_norm = torch.log(torch.exp(z).sum(dim=dim, keepdim=True))
    return torch.exp(z - log_norm)
