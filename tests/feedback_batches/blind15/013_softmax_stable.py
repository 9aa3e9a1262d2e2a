import torch


def softmax_stable(x, dim=-1):
    """Softmax along `dim` that does not overflow for large inputs (such as 1000)."""
    # as jax.nn.softmax does: shift by the row maximum, a constant autograd need not see
    shift = torch.amax(x, dim=dim, keepdim=True)
    shift = torch.where(torch.isfinite(shift), shift, torch.zeros_like(shift)).detach()
    unnormalized = torch.exp(x - shift)
    return unnormalized / unnormalized.sum(dim=dim, keepdim=True)
