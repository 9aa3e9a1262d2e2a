import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    # as jax.nn.softmax does: the shift is a constant, so keep it out of the gradient
    shift = torch.amax(x, dim=dim, keepdim=True).detach()
    unnormalized = torch.exp(x - shift)
    return unnormalized / unnormalized.sum(dim=dim, keepdim=True)
