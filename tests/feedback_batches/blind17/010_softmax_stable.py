import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    with torch.no_grad():  # the shift is a constant: softmax(x - c) = softmax(x) for any c (JAX stops its gradient too)
        shift = torch.amax(x, dim=dim, keepdim=True)
    unnormalised = torch.exp(x - shift)  # every value in (0, 1]
    return unnormalised / unnormalised.sum(dim=dim, keepdim=True)
