import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    # softmax does not depend on the shift, so the shift needs no gradient
    shift = x.max(dim, keepdim=True)[0].detach()
    z = x - shift
    log_norm = torch.log(torch.exp(z).sum(dim, keepdim=True))  # >= log(1) = 0, never -inf
    return torch.exp(z - log_norm)
